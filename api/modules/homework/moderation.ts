/**
 * The operator's view of the homework wall: every work that is on it or was hidden from it
 * (rated 优 and allowed by its learner), newest first, to hide or show again (wall.ts hideShare).
 */
import type { z } from "zod";
import type { WallWork, wallWorkQuery } from "../../../shared/contracts/feedback";
import type { ApiContext } from "../../context";
import { iso, listPage } from "../../list-page";
import { thumbUrl } from "./views";

interface Row {
  share_id: string;
  nickname: string;
  course_title: string;
  script: string;
  comment: string;
  photo_id: string;
  excellent_at: Date | null;
  hidden_at: Date | null;
}

export async function wallWorks(ctx: ApiContext, query: z.output<typeof wallWorkQuery>) {
  let q = ctx.database.db
    .selectFrom("homework_submissions as s")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("homework_attempts as a", (join) =>
      join.onRef("a.submission_id", "=", "s.id").on("a.state", "=", "reviewed"),
    )
    .innerJoin("homework_photos as p", (join) => join.onRef("p.attempt_id", "=", "a.id").on("p.position", "=", 0))
    .select([
      "s.id",
      "s.share_id",
      "u.nickname",
      "c.title as course_title",
      "t.script",
      "a.comment",
      "p.id as photo_id",
      "s.excellent_at",
      "s.hidden_at",
    ])
    .where("s.show_on_wall", "=", true)
    .where("s.level", "=", "excellent")
    .where("s.share_id", "is not", null);
  if (query.hidden === "hidden") q = q.where("s.hidden_at", "is not", null);
  if (query.hidden === "shown") q = q.where("s.hidden_at", "is", null);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb("u.nickname", "ilike", like), eb("c.title", "ilike", like), eb("s.share_id", "=", query.q ?? "")]),
    );
  }
  const page = await listPage<Row>(
    q,
    query,
    { excellentAt: "s.excellent_at", hiddenAt: "s.hidden_at", course: "c.title" },
    "s.excellent_at",
    "s.id",
  );
  return {
    ...page,
    rows: page.rows.map((r): WallWork => ({
      shareId: r.share_id,
      nickname: r.nickname,
      courseTitle: r.course_title,
      script: r.script,
      comment: r.comment,
      thumbUrl: thumbUrl(r.photo_id),
      excellentAt: iso(r.excellent_at),
      hidden: r.hidden_at !== null,
      hiddenAt: iso(r.hidden_at),
    })),
  };
}
