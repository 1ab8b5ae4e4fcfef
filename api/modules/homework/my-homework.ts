/** The learner's list of their homework: newest change first, keyset-paged, with counts by state. */
import type { z } from "zod";
import { ATTEMPT_STATE_LABELS, ATTEMPT_STATES, type MyHomework } from "../../../shared/contracts/homework";
import type { myHomeworkQuerySchema } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { cursorAt, pastCursor, readCursor } from "../../db/keyset";
import { levelLabel, thumbUrl } from "./views";

const PAGE = 20;

export async function myHomework(
  ctx: ApiContext,
  userId: number,
  query: z.output<typeof myHomeworkQuerySchema>,
): Promise<MyHomework> {
  const db = ctx.database.db;
  const cursor = readCursor(query.cursor);
  let list = db
    .selectFrom("homework_submissions as s")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("lessons as l", "l.id", "t.lesson_id")
    .select([
      "s.id",
      "s.public_id",
      "s.state",
      "s.level",
      "s.attempts",
      "s.updated_at",
      "t.course_id",
      "c.title as course_title",
      "l.title as lesson_title",
      "t.title as task_title",
    ])
    .select((eb) =>
      eb
        .selectFrom("homework_photos as p")
        .innerJoin("homework_attempts as a", "a.id", "p.attempt_id")
        .select("p.id")
        .whereRef("a.submission_id", "=", "s.id")
        .orderBy("a.number", "desc")
        .orderBy("p.position")
        .limit(1)
        .as("thumb_id"),
    )
    .where("s.user_id", "=", userId)
    .where("s.attempts", ">", 0);
  if (query.state) list = list.where("s.state", "=", query.state);
  if (query.courseId) list = list.where("t.course_id", "=", query.courseId);
  if (cursor) list = list.where((eb) => pastCursor(eb, "s.updated_at", "s.id", cursor, "desc"));
  const rows = await list
    .orderBy("s.updated_at", "desc")
    .orderBy("s.id", "desc")
    .limit(PAGE + 1)
    .execute();
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);

  const counted = await db
    .selectFrom("homework_submissions as s")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .select(["s.state", (eb) => eb.fn.countAll<number>().as("n")])
    .where("s.user_id", "=", userId)
    .where("s.attempts", ">", 0)
    .$if(query.courseId !== undefined, (qb) => qb.where("t.course_id", "=", query.courseId!))
    .groupBy("s.state")
    .execute();
  const counts = Object.fromEntries(ATTEMPT_STATES.map((state) => [state, 0])) as MyHomework["counts"];
  for (const row of counted) counts[row.state] = Number(row.n);
  const courses = await db
    .selectFrom("homework_submissions as s")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .select(["c.id", "c.title"])
    .distinct()
    .where("s.user_id", "=", userId)
    .where("s.attempts", ">", 0)
    .orderBy("c.id")
    .execute();

  return {
    items: page.map((r) => ({
      id: r.public_id,
      courseId: r.course_id,
      courseTitle: r.course_title,
      lessonTitle: r.lesson_title,
      taskTitle: r.task_title,
      state: r.state,
      stateLabel: ATTEMPT_STATE_LABELS[r.state],
      level: r.level,
      levelLabel: levelLabel(r.level),
      attempts: r.attempts,
      thumbUrl: r.thumb_id ? thumbUrl(r.thumb_id) : null,
      updatedAt: r.updated_at.toISOString(),
    })),
    nextCursor: rows.length > PAGE && last ? cursorAt(last.updated_at, last.id) : null,
    counts,
    courses: courses.map((c) => ({ id: c.id, title: c.title })),
  };
}
