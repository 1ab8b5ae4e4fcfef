/** Free public lessons (/video): the list and one lesson with its sources, open to everyone. */
import type { Kysely } from "kysely";
import type { PublicItemSummary, PublicItemView } from "../../../shared/contracts/learning";
import { videoSources } from "../../../shared/media";
import type { DB, User } from "../../db/schema";

/** The lessons beside the player. */
const MORE_LIMIT = 8;

function baseQuery(db: Kysely<DB>) {
  return db
    .selectFrom("public_course_items as p")
    .innerJoin("teachers as t", "t.id", "p.teacher_id")
    .select([
      "p.id",
      "p.title",
      "p.summary",
      "p.video_key",
      "p.duration_seconds",
      "p.cover_char",
      "p.published_at",
      "t.name as teacher_name",
      "t.title as teacher_title",
      "t.specialty as teacher_specialty",
    ])
    .orderBy("p.position")
    .orderBy("p.id");
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;

function summaryOf(row: ItemRow): PublicItemSummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    teacherName: row.teacher_name,
    durationSeconds: row.duration_seconds,
    coverChar: row.cover_char,
    publishedAt: row.published_at.toISOString(),
  };
}

export async function publicItems(db: Kysely<DB>): Promise<PublicItemSummary[]> {
  return (await baseQuery(db).execute()).map(summaryOf);
}

export async function publicItemView(db: Kysely<DB>, id: number, user: User | null): Promise<PublicItemView | null> {
  const [row, others] = await Promise.all([
    baseQuery(db).where("p.id", "=", id).executeTakeFirst(),
    baseQuery(db).where("p.id", "<>", id).limit(MORE_LIMIT).execute(),
  ]);
  if (!row) return null;
  return {
    item: {
      ...summaryOf(row),
      teacher: { name: row.teacher_name, title: row.teacher_title, specialty: row.teacher_specialty },
    },
    sources: videoSources(row.video_key),
    speed: user ? user.playback_speed_x100 / 100 : null,
    more: others.map(summaryOf),
  };
}
