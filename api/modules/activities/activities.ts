/** Activities: the list (current ones first) and one activity's landing content. */
import { sql } from "kysely";
import {
  type ActivityDetail,
  type ActivityKindKey,
  type ActivitySummary,
  activityStateAt,
} from "../../../shared/contracts/activities";
import type { Database } from "../../db/database";
import { courseSummariesByIds } from "../courses/summaries";

function activityColumns(database: Database) {
  return database.db
    .selectFrom("activities")
    .select(["token", "kind", "title", "summary", "cover_char", "starts_at", "ends_at", "body", "course_id"]);
}

type ActivityRow = Awaited<ReturnType<ReturnType<typeof activityColumns>["executeTakeFirstOrThrow"]>>;

function toSummary(row: ActivityRow, now: Date): ActivitySummary {
  const startsAt = new Date(row.starts_at);
  const endsAt = new Date(row.ends_at);
  return {
    token: row.token,
    kind: row.kind,
    title: row.title,
    summary: row.summary,
    coverChar: row.cover_char,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    state: activityStateAt(startsAt, endsAt, now),
  };
}

/** Running activities first, then coming ones (soonest first), then past ones (latest first). */
export async function listActivities(
  database: Database,
  kind: ActivityKindKey | undefined,
  now: Date,
): Promise<ActivitySummary[]> {
  let select = activityColumns(database);
  if (kind) select = select.where("kind", "=", kind);
  const rows = await select
    .orderBy(sql`case when ${now} < starts_at then 1 when ${now} < ends_at then 0 else 2 end`)
    .orderBy(sql`case when ${now} < ends_at then starts_at end`, "asc")
    .orderBy("ends_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((r) => toSummary(r, now));
}

export async function activityDetail(
  database: Database,
  token: string,
  now: Date,
  publicOrigin: string,
): Promise<ActivityDetail | null> {
  const row = await activityColumns(database)
    .select(["capacity", "signed_up_count", "homework_lesson_id"])
    .where("token", "=", token)
    .executeTakeFirst();
  if (!row) return null;
  const lesson =
    row.homework_lesson_id === null
      ? undefined
      : await database.db
          .selectFrom("lessons")
          .select(["id", "title"])
          .where("id", "=", row.homework_lesson_id)
          .executeTakeFirst();
  const courses = row.course_id === null ? new Map() : await courseSummariesByIds(database.db, [row.course_id]);
  return {
    ...toSummary(row, now),
    body: Array.isArray(row.body) ? row.body : [],
    course: (row.course_id !== null && courses.get(row.course_id)) || null,
    capacity: row.capacity,
    signedUpCount: row.signed_up_count,
    homeworkLesson: lesson ? { id: lesson.id, title: lesson.title } : null,
    url: `${publicOrigin}/activitys/${encodeURIComponent(row.token)}`,
  };
}

/** Whether an activity with this token exists (the share QR code is made only for those). */
export async function activityExists(database: Database, token: string): Promise<boolean> {
  const row = await database.db.selectFrom("activities").select("id").where("token", "=", token).executeTakeFirst();
  return Boolean(row);
}
