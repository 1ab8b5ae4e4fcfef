/**
 * A live room as staff moderate it: the chat log with who is muted, hiding a message, muting and
 * unmuting a learner, pinning a message. Each change is audited and reaches the open rooms as a
 * room event.
 */
import type { ChatEntry } from "../../../shared/contracts/admin-live";
import type { ApiContext } from "../../context";
import { notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { conflict } from "../catalogue-admin/common";
import { publishRoomEvent } from "../live/room-hub";

export async function chatLog(ctx: ApiContext, liveId: number): Promise<ChatEntry[]> {
  const now = ctx.now();
  const rows = await ctx.database.db
    .selectFrom("live_chat_messages as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .leftJoin("live_mutes as x", (join) =>
      join.onRef("x.live_id", "=", "m.live_id").onRef("x.user_id", "=", "m.user_id").on("x.until", ">", now),
    )
    .select(["m.id", "m.user_id", "u.nickname", "m.body", "m.created_at", "m.hidden_at", "x.until"])
    .where("m.live_id", "=", liveId)
    .orderBy("m.id", "desc")
    .limit(200)
    .execute();
  return rows.reverse().map((r) => ({
    id: Number(r.id),
    userId: r.user_id,
    nickname: r.nickname,
    body: r.body,
    createdAt: r.created_at.toISOString(),
    hidden: r.hidden_at !== null,
    mutedUntil: r.until ? r.until.toISOString() : null,
  }));
}

export async function hideMessage(ctx: ApiContext, actorId: number, liveId: number, messageId: number): Promise<void> {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("live_chat_messages")
      .set({ hidden_at: now, hidden_by: actorId })
      .where("id", "=", messageId)
      .where("live_id", "=", liveId)
      .where("hidden_at", "is", null)
      .returning(["body", "user_id"])
      .executeTakeFirst();
    if (!row) {
      const exists = await trx
        .selectFrom("live_chat_messages")
        .select("id")
        .where("id", "=", messageId)
        .where("live_id", "=", liveId)
        .executeTakeFirst();
      if (!exists) throw notFound("这条消息不存在");
      return; // already hidden
    }
    await recordAudit(trx, {
      actorId,
      action: "live.chat.hide",
      targetType: "live_message",
      targetId: messageId,
      before: { liveId, userId: row.user_id, body: row.body },
      after: { hidden: true },
    });
  });
  await publishRoomEvent(ctx.database, { type: "hide", liveId, messageId }).catch((err: unknown) =>
    ctx.logger.warn({ err, liveId }, "live hide broadcast failed"),
  );
}

export async function muteLearner(
  ctx: ApiContext,
  actorId: number,
  liveId: number,
  userId: number,
  minutes: number,
): Promise<Date> {
  const now = ctx.now();
  const until = new Date(now.getTime() + minutes * 60_000);
  await ctx.database.db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst();
    if (!target) throw notFound("这位学员不存在");
    if (target.role !== "learner") throw conflict("不能禁言老师或运营", "not_a_learner");
    await trx
      .insertInto("live_mutes")
      .values({ live_id: liveId, user_id: userId, until, muted_by: actorId, created_at: now })
      .onConflict((oc) => oc.columns(["live_id", "user_id"]).doUpdateSet({ until, muted_by: actorId, created_at: now }))
      .execute();
    await recordAudit(trx, {
      actorId,
      action: "live.chat.mute",
      targetType: "user",
      targetId: userId,
      after: { liveId, minutes, until: until.toISOString() },
    });
  });
  return until;
}

export async function unmuteLearner(ctx: ApiContext, actorId: number, liveId: number, userId: number): Promise<void> {
  await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom("live_mutes")
      .where("live_id", "=", liveId)
      .where("user_id", "=", userId)
      .returning("until")
      .executeTakeFirst();
    if (!row) return;
    await recordAudit(trx, {
      actorId,
      action: "live.chat.unmute",
      targetType: "user",
      targetId: userId,
      before: { liveId, until: row.until.toISOString() },
    });
  });
}

export async function pinMessage(
  ctx: ApiContext,
  actorId: number,
  liveId: number,
  message: string | null,
): Promise<void> {
  const pinned = message && message.length > 0 ? message : null;
  await ctx.database.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("live_sessions")
      .select("pinned_message")
      .where("id", "=", liveId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound("这场直播不存在");
    await trx.updateTable("live_sessions").set({ pinned_message: pinned }).where("id", "=", liveId).execute();
    await recordAudit(trx, {
      actorId,
      action: "live.pin",
      targetType: "live",
      targetId: liveId,
      before: { pinnedMessage: before.pinned_message },
      after: { pinnedMessage: pinned },
    });
  });
  await publishRoomEvent(ctx.database, { type: "pin", liveId, pinned }).catch((err: unknown) =>
    ctx.logger.warn({ err, liveId }, "live pin broadcast failed"),
  );
}
