/** The live room's own endpoints: chat, check-in, the watching heartbeat and the room's event stream. */
import { sql } from "kysely";
import { z } from "zod";
import {
  ATTENDANCE_COUNTED_SECONDS,
  ATTENDANCE_MAX_PER_BEAT_SECONDS,
  ATTENDANCE_MIN_GAP_SECONDS,
  type AttendanceResult,
  CHAT_RATE,
  type CheckInResult,
  attendanceBeatSchema,
  attendanceResultSchema,
  chatMessageSchema,
  chatPostSchema,
  checkInResultSchema,
} from "../../../shared/contracts/live";
import { refuseWhileFrozen } from "../../account-freeze";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { forbidden, tooManyRequests } from "../../http";
import { enforce } from "../../rate-limit";
import { awardLearningCoins } from "../wallet/hooks";
import { ID_PATTERN, emptyBody, liveParam, requireAccess, sessionOr404, stateConflict, whyNotLive } from "./requests";
import { type LiveRoomHub, type RoomChat, publishRoomEvent } from "./room-hub";
import { streamRoom, toViewerMessage } from "./room-stream";
import { effectiveState } from "./states";

/** One viewer may have the room open in a few tabs, not in hundreds of connections. */
const MAX_STREAMS_PER_VIEWER = 5;
/** Where a stream resumes when the browser cannot send Last-Event-ID (the header wins). */
const eventsQuery = z.object({
  lastEventId: z.string().optional().catch(undefined).describe("续传：最后收到的聊天消息 id"),
});

/** Until when the learner may not speak in this room, or null. */
async function mutedUntil(ctx: ApiContext, liveId: number, userId: number): Promise<Date | null> {
  const row = await ctx.database.db
    .selectFrom("live_mutes")
    .select("until")
    .where("live_id", "=", liveId)
    .where("user_id", "=", userId)
    .where("until", ">", ctx.now())
    .executeTakeFirst();
  return row?.until ?? null;
}

export function roomEndpoints(ctx: ApiContext, hub: LiveRoomHub): Endpoint[] {
  return [...chatEndpoints(ctx, hub), ...attendanceEndpoints(ctx, hub), ...eventEndpoints(ctx, hub)];
}

/** Speaking in the room. */
function chatEndpoints(ctx: ApiContext, _hub: LiveRoomHub): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/live/{id}/messages",
      summary: "发言：1–200 字，仅直播中，每人每 10 秒最多 10 条",
      tag: "live",
      auth: true,
      params: liveParam,
      input: chatPostSchema,
      output: chatMessageSchema,
      handler: async (req, res, { auth: { user }, input: { body }, params }) => {
        refuseWhileFrozen(user, "在直播间发言");
        const session = await sessionOr404(ctx, params.id);
        await requireAccess(ctx, session, user);
        const now = ctx.now();
        const state = effectiveState(session, now);
        if (state !== "live") throw stateConflict(state, `${whyNotLive(state)}，暂时不能发言`);
        const muted = await mutedUntil(ctx, session.id, user.id);
        if (muted) {
          const minutes = Math.max(1, Math.ceil((muted.getTime() - now.getTime()) / 60_000));
          throw forbidden(`你已被禁言，${minutes} 分钟后可以再发言`);
        }
        await enforce(
          ctx.database,
          [
            {
              key: `live:chat:${user.id}`,
              max: CHAT_RATE.max,
              windowSeconds: CHAT_RATE.windowSeconds,
              message: "发言太快了，请稍等几秒再发",
            },
          ],
          now,
        );
        const row = await ctx.database.db
          .insertInto("live_chat_messages")
          .values({ live_id: session.id, user_id: user.id, body, created_at: now })
          .returning(["id", "created_at"])
          .executeTakeFirstOrThrow();
        const message: RoomChat = {
          id: row.id,
          userId: user.id,
          body,
          nickname: user.nickname,
          teacher: session.teacher_user_id === user.id,
          createdAt: row.created_at.toISOString(),
        };
        // Stored first: a failed broadcast loses nothing (viewers get it from the history).
        await publishRoomEvent(ctx.database, { type: "chat", liveId: session.id, message }).catch((err: unknown) =>
          ctx.logger.warn({ err, liveId: session.id }, "live chat broadcast failed"),
        );
        res.status(201).json(toViewerMessage(message, user.id));
      },
    }),
  ];
}

/** Checking in to a session, and who attended. */
function attendanceEndpoints(ctx: ApiContext, _hub: LiveRoomHub): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/live/{id}/check-in",
      summary: "签到：仅直播中，每场一次（重复签到返回第一次的时间）",
      tag: "live",
      auth: true,
      params: liveParam,
      input: emptyBody,
      output: checkInResultSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        refuseWhileFrozen(user, "签到");
        const session = await sessionOr404(ctx, params.id);
        await requireAccess(ctx, session, user);
        const now = ctx.now();
        const state = effectiveState(session, now);
        if (state !== "live") throw stateConflict(state, `${whyNotLive(state)}，签到只在直播中开放`);
        const fresh = await ctx.database.db
          .insertInto("live_attendance")
          .values({
            user_id: user.id,
            live_id: session.id,
            first_joined_at: now,
            last_seen_at: now,
            checked_in_at: now,
          })
          .onConflict((oc) =>
            oc
              .columns(["user_id", "live_id"])
              .doUpdateSet({ checked_in_at: now })
              .where(sql<boolean>`live_attendance.checked_in_at is null`),
          )
          .returning("checked_in_at")
          .executeTakeFirst();
        const checkedInAt =
          fresh?.checked_in_at ??
          (
            await ctx.database.db
              .selectFrom("live_attendance")
              .select("checked_in_at")
              .where("user_id", "=", user.id)
              .where("live_id", "=", session.id)
              .executeTakeFirstOrThrow()
          ).checked_in_at;
        if (!checkedInAt) throw new Error("check-in row without a time");
        res.json({ checkedInAt: checkedInAt.toISOString(), already: fresh === undefined } satisfies CheckInResult);
      },
    }),

    /**
     * The room's heartbeat while the stream plays in a visible page. The server counts the time
     * since the last counted beat (at most 90 s a beat, nothing for beats within 30 s), from its
     * own clock; the client only says when watching (re)starts, which can only count less.
     */
    defineEndpoint({
      method: "post",
      path: "/live/{id}/attendance",
      summary: "观看心跳（页面可见且直播播放时每 60 秒一次）：累计观看时长，满 10 分钟计为出勤",
      tag: "live",
      auth: true,
      params: liveParam,
      input: attendanceBeatSchema,
      output: attendanceResultSchema,
      handler: async (req, res, { auth: { user }, input: { start }, params }) => {
        const session = await sessionOr404(ctx, params.id);
        await requireAccess(ctx, session, user);
        const now = ctx.now();
        const state = effectiveState(session, now);
        if (state !== "live") throw stateConflict(state, `${whyNotLive(state)}，不再记录观看时长`);
        const added = start
          ? sql<number>`0`
          : sql<number>`least(greatest(floor(extract(epoch from (${now}::timestamptz - greatest(live_attendance.last_seen_at, ${session.starts_at}::timestamptz)))), 0), ${ATTENDANCE_MAX_PER_BEAT_SECONDS})::int`;
        const updated = await ctx.database.db
          .insertInto("live_attendance")
          .values({ user_id: user.id, live_id: session.id, first_joined_at: now, last_seen_at: now, seconds: 0 })
          .onConflict((oc) => {
            const update = oc.columns(["user_id", "live_id"]).doUpdateSet({
              seconds: sql<number>`live_attendance.seconds + ${added}`,
              last_seen_at: now,
              counted_at: sql<Date | null>`case
            when live_attendance.counted_at is null and live_attendance.seconds + ${added} >= ${ATTENDANCE_COUNTED_SECONDS}
            then ${now}::timestamptz else live_attendance.counted_at end`,
            });
            return start
              ? update
              : update.where(
                  sql<boolean>`live_attendance.last_seen_at <= ${new Date(now.getTime() - ATTENDANCE_MIN_GAP_SECONDS * 1000)}::timestamptz`,
                );
          })
          .returning(["seconds", "counted_at"])
          .executeTakeFirst();
        // The beat that reaches ten minutes earns the attendance coins (once: keyed by the session).
        if (updated?.counted_at && updated.counted_at.getTime() === now.getTime()) {
          await ctx.database.db.transaction().execute((trx) =>
            awardLearningCoins(trx, {
              userId: user.id,
              rule: "live_attended",
              refType: "live",
              refId: session.id,
              now,
            }),
          );
        }
        const row =
          updated ??
          (await ctx.database.db
            .selectFrom("live_attendance")
            .select(["seconds", "counted_at"])
            .where("user_id", "=", user.id)
            .where("live_id", "=", session.id)
            .executeTakeFirstOrThrow());
        res.json({
          seconds: row.seconds,
          countedAt: row.counted_at?.toISOString() ?? null,
          accepted: updated !== undefined,
        } satisfies AttendanceResult);
      },
    }),

    /** The room as Server-Sent Events: history, then new messages, online count and state changes. */
  ];
}

/** The room’s event stream (chat, pins, state), a few per viewer. */
function eventEndpoints(ctx: ApiContext, hub: LiveRoomHub): Endpoint[] {
  const streamsPerViewer = new Map<string, number>();
  return [
    defineEndpoint({
      method: "get",
      path: "/live/{id}/events",
      summary:
        "直播间事件流（text/event-stream）：先发最近 50 条聊天（chat，带 id，支持 Last-Event-ID 续传），之后推送新消息、在线人数（online）、状态变化（state）；每 15 秒一次心跳注释",
      tag: "live",
      auth: true,
      params: liveParam,
      query: eventsQuery,
      produces: "text/event-stream",
      handler: async (req, res, { auth, query, params }) => {
        const session = await sessionOr404(ctx, params.id);
        await requireAccess(ctx, session, auth.user);
        const key = `${session.id}:${auth.user.id}`;
        if ((streamsPerViewer.get(key) ?? 0) >= MAX_STREAMS_PER_VIEWER) {
          throw tooManyRequests(10, "直播间已在多个窗口打开，请关闭其他窗口后再试");
        }
        const lastEventId = req.get("last-event-id") ?? query.lastEventId ?? "";
        const resumeAfter = ID_PATTERN.test(lastEventId) ? Number(lastEventId) : null;
        streamsPerViewer.set(key, (streamsPerViewer.get(key) ?? 0) + 1);
        let released = false;
        res.on("close", () => {
          if (released) return;
          released = true;
          const left = (streamsPerViewer.get(key) ?? 1) - 1;
          if (left > 0) streamsPerViewer.set(key, left);
          else streamsPerViewer.delete(key);
        });
        await streamRoom(ctx, hub, req, res, session, auth.user, resumeAfter);
      },
    }),
  ];
}
