/**
 * 意见反馈: submissions from /protocol/feedback (a category, the text, an optional contact; the
 * account when signed in), and the operator's inbox: list, mark handled, reply. A reply reaches
 * the learner as a notice when the feedback was sent signed in; otherwise the operator answers
 * through the contact given. Replying and marking are audited.
 */
import type { z } from "zod";
import {
  FEEDBACK_NOTICE_TITLE,
  feedbackCategoryLabel,
  type FeedbackRow,
  type feedbackInputSchema,
  type feedbackListQuery,
} from "../../../shared/contracts/feedback";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { iso, listPage } from "../../list-page";
import { notify } from "../../notices";
import { recordAudit } from "../audit/record";

export const NOTICE_FEEDBACK_REPLY = "feedback_reply";
const missing = () => notFound("反馈不存在");

export async function submitFeedback(
  ctx: ApiContext,
  userId: number | null,
  input: z.output<typeof feedbackInputSchema>,
): Promise<number> {
  const row = await ctx.database.db
    .insertInto("feedback")
    .values({
      user_id: userId,
      category: input.category,
      content: input.content,
      contact: input.contact || null,
      created_at: ctx.now(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

interface Row {
  id: number;
  category: string;
  content: string;
  contact: string | null;
  user_id: number | null;
  nickname: string | null;
  state: "open" | "handled";
  reply: string | null;
  replied_at: Date | null;
  handled_at: Date | null;
  created_at: Date;
}

function viewOf(r: Row): FeedbackRow {
  return {
    id: r.id,
    category: r.category,
    categoryLabel: feedbackCategoryLabel(r.category),
    content: r.content,
    contact: r.contact,
    userId: r.user_id,
    nickname: r.nickname,
    state: r.state,
    reply: r.reply,
    repliedAt: iso(r.replied_at),
    handledAt: iso(r.handled_at),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

function inboxQuery(ctx: ApiContext) {
  return ctx.database.db
    .selectFrom("feedback as f")
    .leftJoin("users as u", "u.id", "f.user_id")
    .select([
      "f.id",
      "f.category",
      "f.content",
      "f.contact",
      "f.user_id",
      "u.nickname",
      "f.state",
      "f.reply",
      "f.replied_at",
      "f.handled_at",
      "f.created_at",
    ]);
}

export async function listFeedback(ctx: ApiContext, query: z.output<typeof feedbackListQuery>) {
  let q = inboxQuery(ctx);
  if (query.state !== "all") q = q.where("f.state", "=", query.state);
  if (query.category) q = q.where("f.category", "=", query.category);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb("f.content", "ilike", like), eb("f.contact", "ilike", like), eb("u.nickname", "ilike", like)]),
    );
  }
  const page = await listPage<Row>(
    q,
    query,
    { id: "f.id", createdAt: "f.created_at", category: "f.category" },
    "f.created_at",
    "f.id",
  );
  return { ...page, rows: page.rows.map(viewOf) };
}

export async function feedbackById(ctx: ApiContext, id: number): Promise<FeedbackRow> {
  const row = await inboxQuery(ctx).where("f.id", "=", id).executeTakeFirst();
  if (!row) throw missing();
  return viewOf(row);
}

/** The operator replies: stored, marked handled, and sent as a notice to the account that wrote it. */
export async function replyToFeedback(ctx: ApiContext, actorId: number, id: number, reply: string) {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("feedback").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
    if (!current) throw missing();
    if (current.reply !== null) throw new ApiError(409, "already_replied", "这条反馈已经回复过了");
    await trx
      .updateTable("feedback")
      .set({ reply, replied_at: now, state: "handled", handled_at: now, handled_by: actorId })
      .where("id", "=", id)
      .execute();
    if (current.user_id !== null) {
      const excerpt =
        [...current.content].length > 30 ? `${[...current.content].slice(0, 30).join("")}…` : current.content;
      await notify(
        trx,
        current.user_id,
        NOTICE_FEEDBACK_REPLY,
        FEEDBACK_NOTICE_TITLE,
        `你反馈的“${excerpt}”：${reply}`,
        now,
      );
    }
    await recordAudit(trx, {
      actorId,
      action: "feedback.reply",
      targetType: "feedback",
      targetId: id,
      before: { state: current.state },
      after: { state: "handled", reply, notified: current.user_id !== null },
    });
  });
  return feedbackById(ctx, id);
}

/** Marks a feedback handled (or open again) without a reply. */
export async function markFeedback(ctx: ApiContext, actorId: number, id: number, handled: boolean) {
  const now = ctx.now();
  const from = handled ? "open" : "handled";
  await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("feedback")
      .set(
        handled
          ? { state: "handled", handled_at: now, handled_by: actorId }
          : { state: "open", handled_at: null, handled_by: null },
      )
      .where("id", "=", id)
      .where("state", "=", from)
      .returning("id")
      .executeTakeFirst();
    if (!moved) {
      const row = await trx.selectFrom("feedback").select("state").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      return; // already where it was asked to be
    }
    await recordAudit(trx, {
      actorId,
      action: handled ? "feedback.handle" : "feedback.reopen",
      targetType: "feedback",
      targetId: id,
      before: { state: from },
      after: { state: handled ? "handled" : "open" },
    });
  });
  return feedbackById(ctx, id);
}
