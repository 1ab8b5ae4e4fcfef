/**
 * The public wall of excellent work and its share pages: a work is there while the learner has
 * opted in, a teacher rated it excellent and no operator has hidden it. A share page that was
 * once public answers 410 when the work leaves the wall; an unknown one 404.
 */
import type { z } from "zod";
import { HOMEWORK_SHARE_GONE, LEVEL_LABELS, type ShareView, type Wall } from "../../../shared/contracts/homework";
import type { wallQuerySchema } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { cursorAt, pastCursor, readCursor } from "../../db/keyset";
import type { User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { sharePoster } from "./paper";
import { loadSharp } from "../../providers/images";
import { requireStaff } from "./staff";
import { recordAudit } from "../audit/record";
import { attemptsOf, onWall, posterUrl, squareUrl, taskQuery, thumbUrl } from "./views";
import { maskNickname } from "../../../shared/format";

const PAGE = 24;
const gone = () => new ApiError(410, "gone", HOMEWORK_SHARE_GONE);
const SHARE_ID = /^[A-Za-z0-9_-]{16}$/;

function firstLine(comment: string): string {
  const line = comment.split(/[。！\n]/)[0]?.trim() ?? "";
  return [...line].length > 40 ? `${[...line].slice(0, 39).join("")}…` : line;
}

export async function wall(ctx: ApiContext, query: z.output<typeof wallQuerySchema>): Promise<Wall> {
  const cursor = readCursor(query.cursor);
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
      "s.excellent_at",
      "u.nickname",
      "c.title as course_title",
      "t.script",
      "a.comment",
      "p.id as photo_id",
      "p.width",
      "p.height",
    ])
    .where("s.show_on_wall", "=", true)
    .where("s.level", "=", "excellent")
    .where("s.hidden_at", "is", null);
  if (query.script) q = q.where("t.script", "=", query.script);
  if (cursor) q = q.where((eb) => pastCursor(eb, "s.excellent_at", "s.id", cursor, "desc"));
  const rows = await q
    .orderBy("s.excellent_at", "desc")
    .orderBy("s.id", "desc")
    .limit(PAGE + 1)
    .execute();
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      shareId: r.share_id,
      learner: maskNickname(r.nickname),
      courseTitle: r.course_title,
      script: r.script,
      level: "excellent",
      levelLabel: LEVEL_LABELS.excellent,
      commentLine: firstLine(r.comment),
      thumbUrl: thumbUrl(r.photo_id),
      width: r.width,
      height: r.height,
    })),
    nextCursor: rows.length > PAGE && last?.excellent_at ? cursorAt(last.excellent_at, last.id) : null,
  };
}

async function sharedSubmission(ctx: ApiContext, shareId: string) {
  if (!SHARE_ID.test(shareId)) throw notFound("作品不存在");
  const row = await ctx.database.db
    .selectFrom("homework_submissions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["s.id", "s.public_id", "s.user_id", "s.task_id", "s.show_on_wall", "s.level", "s.hidden_at", "u.nickname"])
    .where("s.share_id", "=", shareId)
    .executeTakeFirst();
  if (!row) throw notFound("作品不存在");
  if (!onWall(row)) throw gone();
  return row;
}

export async function shareView(ctx: ApiContext, shareId: string, viewerId: number | null = null): Promise<ShareView> {
  const db = ctx.database.db;
  const row = await sharedSubmission(ctx, shareId);
  const task = await taskQuery(db).where("t.id", "=", row.task_id).executeTakeFirstOrThrow();
  const reviewed = (await attemptsOf(db, row.id)).find((a) => a.state === "reviewed");
  if (!reviewed?.review) throw gone();
  return {
    shareId,
    learner: maskNickname(row.nickname),
    ownSubmissionId: viewerId !== null && row.user_id === viewerId ? row.public_id : null,
    courseId: task.course_id,
    courseTitle: task.course_title,
    lessonTitle: task.lesson_title,
    script: task.script,
    characters: task.characters,
    photos: reviewed.photos,
    review: reviewed.review,
    posterUrl: posterUrl(shareId),
    squareUrl: squareUrl(shareId),
  };
}

/** The share page's absolute address, for the poster's QR code. */
export const shareUrl = (ctx: ApiContext, shareId: string) =>
  `${ctx.settings.publicOrigin.replace(/\/+$/, "")}/homework/share?id=${encodeURIComponent(shareId)}`;

export async function posterOf(ctx: ApiContext, shareId: string): Promise<Buffer> {
  const view = await shareView(ctx, shareId);
  const first = view.photos[0];
  if (!first) throw gone();
  const photo = await ctx.database.db
    .selectFrom("homework_photos")
    .select("display_bytes")
    .where("id", "=", first.id)
    .executeTakeFirstOrThrow();
  return sharePoster({
    photo: Buffer.from(photo.display_bytes),
    levelLabel: view.review.levelLabel ?? LEVEL_LABELS.excellent,
    comment: view.review.comment,
    learner: view.learner,
    courseTitle: view.courseTitle,
    shareUrl: shareUrl(ctx, shareId),
    siteName: `${ctx.settings.siteName} 作业墙`,
  });
}

/** The work's first photo whole on a 600×600 square of paper: the square preview WeChat prefers. */
export async function squarePosterOf(ctx: ApiContext, shareId: string): Promise<Buffer> {
  const view = await shareView(ctx, shareId);
  const first = view.photos[0];
  if (!first) throw gone();
  const photo = await ctx.database.db
    .selectFrom("homework_photos")
    .select("display_bytes")
    .where("id", "=", first.id)
    .executeTakeFirstOrThrow();
  const sharp = await loadSharp();
  return sharp(Buffer.from(photo.display_bytes))
    .resize(600, 600, { fit: "contain", background: "#f7f3ea" })
    .flatten({ background: "#f7f3ea" })
    .jpeg({ quality: 84, mozjpeg: true })
    .toBuffer();
}

/** An operator hides a work from the wall (or shows it again); its share page follows. Audited. */
export async function hideShare(
  ctx: ApiContext,
  user: User,
  shareId: string,
  hidden: boolean,
  reason?: string,
): Promise<{ shareId: string; hidden: boolean }> {
  const scope = await requireStaff(ctx.database.db, user);
  if (!scope.operator) throw notFound();
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("homework_submissions")
      .select(["id", "hidden_at"])
      .where("share_id", "=", shareId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound("作品不存在");
    if ((current.hidden_at !== null) === hidden) return;
    await trx
      .updateTable("homework_submissions")
      .set(hidden ? { hidden_at: ctx.now(), hidden_by: user.id } : { hidden_at: null, hidden_by: null })
      .where("id", "=", current.id)
      .execute();
    await recordAudit(trx, {
      actorId: user.id,
      action: hidden ? "homework.wall.hide" : "homework.wall.unhide",
      targetType: "homework_share",
      targetId: shareId,
      before: { hidden: !hidden },
      after: { hidden },
      reason: reason ?? null,
    });
  });
  return { shareId, hidden };
}
