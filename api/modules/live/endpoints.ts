/** Live lessons: schedule, booking, the room (chat over SSE, check-in, attendance). */
import { awardLearningCoins } from "../wallet/hooks";
import type { Request, Response } from "express";
import { sql } from "kysely";
import { z } from "zod";
import { type LiveStateKey, liveStates } from "../../../shared/contracts/catalogue";
import {
  ATTENDANCE_COUNTED_SECONDS,
  ATTENDANCE_MAX_PER_BEAT_SECONDS,
  ATTENDANCE_MIN_GAP_SECONDS,
  type AttendanceResult,
  type BookingResult,
  CHAT_HISTORY,
  CHAT_RATE,
  type ChatMessage,
  type CheckInResult,
  type LiveDetail,
  type LiveList,
  attendanceBeatSchema,
  attendanceResultSchema,
  bookingResultSchema,
  chatMessageSchema,
  chatPostSchema,
  checkInResultSchema,
  hasLiveAccess,
  liveDetailSchema,
  liveListQuerySchema,
  liveListSchema,
} from "../../../shared/contracts/live";
import { liveStreamUrl } from "../../../shared/media";
import type { ApiContext } from "../../context";
import type { LiveState, User } from "../../db/schema";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError, forbidden, notFound, tooManyRequests } from "../../http";
import { enforce } from "../../rate-limit";
import { openGuardedStream } from "../../sse";
import { LiveRoomHub, type RoomChat, publishRoomEvent } from "./room-hub";
import { type SessionRow, accessFor, bookedAmong, findSession, listSessions, toSummary } from "./sessions";
import { ROOM_CLOSE_AFTER_MS, effectiveState, isOver, nextChange } from "./states";

/** One viewer may have the room open in a few tabs, not in hundreds of connections. */
const MAX_STREAMS_PER_VIEWER = 5;
/** Messages a resuming stream catches up on at most (older ones are in the history anyway). */
const RESUME_LIMIT = 200;
const ID_PATTERN = /^[1-9]\d{0,9}$/;
const emptyBody = z.strictObject({});
const liveParam = { id: { type: "integer", description: "直播场次编号" } } as const;
/** Where a stream resumes when the browser cannot send Last-Event-ID (the header wins). */
const eventsQuery = z.object({
  lastEventId: z.string().optional().catch(undefined).describe("续传：最后收到的聊天消息 id"),
});

const stateConflict = (state: LiveState, message: string) =>
  new ApiError(409, "live_state", message, { state, stateName: liveStates[state as LiveStateKey] });

function whyNotScheduled(state: LiveState): string {
  if (state === "live") return "直播已经开始，直接进入直播间即可";
  if (state === "cancelled") return "本场直播已取消";
  return "本场直播已结束";
}

function whyNotLive(state: LiveState): string {
  if (state === "scheduled") return "直播还没有开始";
  if (state === "cancelled") return "本场直播已取消";
  return "直播已经结束";
}

export function liveEndpoints(ctx: ApiContext): Endpoint[] {
  const hub = new LiveRoomHub(ctx.database, ctx.logger);
  // Listen from the start, so this node knows the other nodes' viewer counts before its first viewer.
  hub.start().catch((err: unknown) => ctx.logger.warn({ err }, "live rooms: listening failed; retried on demand"));
  const streamsPerViewer = new Map<string, number>();
  const site = { name: ctx.settings.siteName, origin: ctx.settings.publicOrigin };

  async function sessionOr404(req: Request): Promise<SessionRow> {
    const raw = String(req.params.id ?? "");
    const id = ID_PATTERN.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
    const session = id === null ? undefined : await findSession(ctx, id);
    if (!session) throw notFound("这场直播不存在");
    return session;
  }

  /** The viewer may watch this session, or the reason as an error. */
  async function requireAccess(session: SessionRow, user: User) {
    const access = await accessFor(ctx, session, user);
    if (!hasLiveAccess(access)) {
      throw forbidden(
        session.course_title ? `报名《${session.course_title}》后才能进入这场直播` : "报名课程后才能进入这场直播",
      );
    }
    return access;
  }

  async function bookingCount(liveId: number): Promise<number> {
    const row = await ctx.database.db
      .selectFrom("live_bookings")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("live_id", "=", liveId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function streamRoom(req: Request, res: Response, session: SessionRow, user: User, resumeAfter: number | null) {
    let ready = false;
    let lastState: LiveState | null = null;
    let pendingState: LiveState | null = null;
    let lastOnline = -1;
    const buffered: RoomChat[] = [];
    const sent = new Set<number>();
    const timers: { state?: NodeJS.Timeout; close?: NodeJS.Timeout } = {};
    // On shutdown: the browser comes back (to another node) with the id of the last chat
    // message it got, and the history after that id fills the gap (chatHistory below).
    const stream = openGuardedStream(req, res, ctx.eventStreams);
    stream.onEnd(() => {
      clearTimeout(timers.state);
      clearTimeout(timers.close);
    });
    const write = stream.write;
    const sendChat = (message: RoomChat) => {
      if (sent.has(message.id)) return;
      sent.add(message.id);
      write(`id: ${message.id}\nevent: chat\ndata: ${JSON.stringify(toViewerMessage(message, user.id))}\n\n`);
    };
    const sendState = (state: LiveState) => {
      if (state === lastState) return;
      lastState = state;
      write(`event: state\ndata: ${JSON.stringify({ state, serverNow: ctx.now().toISOString() })}\n\n`);
    };
    const sendOnline = (count: number) => {
      if (count === lastOnline) return;
      lastOnline = count;
      write(`event: online\ndata: ${JSON.stringify({ online: count })}\n\n`);
    };
    /** Follows the clock: the next start or end changes the state without waiting for the job. */
    const scheduleClock = () => {
      clearTimeout(timers.state);
      const now = ctx.now();
      const next = nextChange({ ...session, state: lastState ?? session.state }, now);
      if (!next) return;
      timers.state = setTimeout(
        () => {
          sendState(effectiveState({ ...session, state: lastState ?? session.state }, ctx.now()));
          scheduleClock();
        },
        Math.min(next.getTime() - now.getTime() + 50, 2_147_000_000),
      );
    };
    const finish = () => stream.end(`event: closed\ndata: {}\n\n`);
    if (stream.closed) return;

    // Listen before reading the history, so nothing said in between is missed (ids drop repeats).
    const unsubscribe = await hub.subscribe(session.id, {
      chat: (message) => (ready ? sendChat(message) : buffered.push(message)),
      state: (state) => {
        if (!ready) {
          pendingState = state;
          return;
        }
        sendState(state);
        if (state === "cancelled") finish();
        else scheduleClock();
      },
      // Counts before the history is out are sent with it (the latest only).
      online: (count) => (ready ? sendOnline(count) : undefined),
    });
    stream.onEnd(unsubscribe);
    if (stream.closed) return;

    const history = await chatHistory(session, resumeAfter);
    for (const message of history) sendChat(message);
    ready = true;
    for (const message of buffered.splice(0)) sendChat(message);
    sendState(pendingState ?? effectiveState(session, ctx.now()));
    sendOnline(hub.online(session.id));
    if (stream.closed) return;

    scheduleClock();
    // A room is closed an hour after its end: its streams end and the page stops listening.
    const closeAt = session.ends_at.getTime() + ROOM_CLOSE_AFTER_MS - ctx.now().getTime();
    if (lastState === "cancelled" || (lastState !== null && isOver(lastState) && closeAt <= 0)) finish();
    else if (closeAt < 2_147_000_000) timers.close = setTimeout(finish, Math.max(closeAt, 0));
  }

  async function chatHistory(session: SessionRow, resumeAfter: number | null): Promise<RoomChat[]> {
    let query = ctx.database.db
      .selectFrom("live_chat_messages as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select(["m.id", "m.user_id", "m.body", "m.created_at", "u.nickname"])
      .where("m.live_id", "=", session.id);
    query =
      resumeAfter === null
        ? query.orderBy("m.id", "desc").limit(CHAT_HISTORY)
        : query.where("m.id", ">", resumeAfter).orderBy("m.id", "asc").limit(RESUME_LIMIT);
    const rows = await query.execute();
    if (resumeAfter === null) rows.reverse();
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      body: r.body,
      nickname: r.nickname,
      teacher: session.teacher_user_id === r.user_id,
      createdAt: r.created_at.toISOString(),
    }));
  }

  /** Booking is a reminder: a notice when the session goes live. Only before it starts. */
  const booking = (method: "post" | "delete", summary: string) =>
    defineEndpoint({
      method,
      path: "/live/{id}/booking",
      summary,
      tag: "live",
      auth: true,
      params: liveParam,
      input: emptyBody,
      output: bookingResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        const session = await sessionOr404(req);
        await requireAccess(session, user);
        const state = effectiveState(session, ctx.now());
        if (state !== "scheduled") throw stateConflict(state, whyNotScheduled(state));
        if (method === "post") {
          await ctx.database.db
            .insertInto("live_bookings")
            .values({ user_id: user.id, live_id: session.id, created_at: ctx.now() })
            .onConflict((oc) => oc.columns(["user_id", "live_id"]).doNothing())
            .execute();
        } else {
          await ctx.database.db
            .deleteFrom("live_bookings")
            .where("user_id", "=", user.id)
            .where("live_id", "=", session.id)
            .execute();
        }
        res.json({ booked: method === "post", bookings: await bookingCount(session.id) } satisfies BookingResult);
      },
    });

  return [
    defineEndpoint({
      method: "get",
      path: "/live",
      summary: "直播课表：?tab=today|upcoming|live|ended（今日按北京时间；已结束含回放生成中与可回放）",
      tag: "live",
      auth: false,
      query: liveListQuerySchema,
      output: liveListSchema,
      handler: async (_req, res, { auth, query: { tab } }) => {
        const now = ctx.now();
        const rows = await listSessions(ctx, tab, now);
        const booked = auth
          ? await bookedAmong(
              ctx,
              auth.user.id,
              rows.map((r) => r.id),
            )
          : new Set<number>();
        // The schedule is public; a signed-in viewer's copy says what they booked, so it stays private.
        if (!auth) res.setHeader("Cache-Control", "public, max-age=60");
        res.vary("Cookie");
        res.json({
          tab,
          site,
          items: rows.map((row) => ({ ...toSummary(row, now), booked: booked.has(row.id) })),
          serverNow: now.toISOString(),
          signedIn: auth !== null,
        } satisfies LiveList);
      },
    }),

    defineEndpoint({
      method: "get",
      path: "/live/{id}",
      summary: "直播间：场次、老师、状态、观看权限、直播流（直播中且有权限时）、回放链接、预约与签到、在线人数",
      tag: "live",
      auth: false,
      params: liveParam,
      output: liveDetailSchema,
      handler: async (req, res, { auth }) => {
        const session = await sessionOr404(req);
        const now = ctx.now();
        const user = auth?.user ?? null;
        const state = effectiveState(session, now);
        const access = await accessFor(ctx, session, user);
        const [booking, bookings, attendance] = await Promise.all([
          user
            ? ctx.database.db
                .selectFrom("live_bookings")
                .select("live_id")
                .where("user_id", "=", user.id)
                .where("live_id", "=", session.id)
                .executeTakeFirst()
            : undefined,
          bookingCount(session.id),
          user
            ? ctx.database.db
                .selectFrom("live_attendance")
                .select(["seconds", "checked_in_at", "counted_at"])
                .where("user_id", "=", user.id)
                .where("live_id", "=", session.id)
                .executeTakeFirst()
            : undefined,
        ]);
        res.json({
          live: toSummary(session, now),
          site,
          summary: session.summary,
          course: session.course_id !== null ? { id: session.course_id, title: session.course_title ?? "" } : null,
          teacher: {
            id: session.teacher_id,
            name: session.teacher_name,
            title: session.teacher_title,
            specialty: session.teacher_specialty,
            bio: session.teacher_bio,
            portraitChar: session.teacher_portrait,
          },
          serverNow: now.toISOString(),
          signedIn: user !== null,
          access,
          streamUrl: state === "live" && hasLiveAccess(access) ? liveStreamUrl(session.stream_key) : null,
          replayUrl: state === "replay" ? `/playback?id=${session.id}` : null,
          booked: booking !== undefined,
          bookings,
          checkedInAt: attendance?.checked_in_at?.toISOString() ?? null,
          attendance: attendance
            ? { seconds: attendance.seconds, countedAt: attendance.counted_at?.toISOString() ?? null }
            : null,
          online: hub.online(session.id),
        } satisfies LiveDetail);
      },
    }),

    booking("post", "预约（开播时发站内通知）；仅未开始的场次，重复预约无副作用"),
    booking("delete", "取消预约；仅未开始的场次"),
    defineEndpoint({
      method: "post",
      path: "/live/{id}/messages",
      summary: "发言：1–200 字，仅直播中，每人每 10 秒最多 10 条",
      tag: "live",
      auth: true,
      params: liveParam,
      input: chatPostSchema,
      output: chatMessageSchema,
      handler: async (req, res, { auth: { user }, input: { body } }) => {
        const session = await sessionOr404(req);
        await requireAccess(session, user);
        const now = ctx.now();
        const state = effectiveState(session, now);
        if (state !== "live") throw stateConflict(state, `${whyNotLive(state)}，暂时不能发言`);
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

    defineEndpoint({
      method: "post",
      path: "/live/{id}/check-in",
      summary: "签到：仅直播中，每场一次（重复签到返回第一次的时间）",
      tag: "live",
      auth: true,
      params: liveParam,
      input: emptyBody,
      output: checkInResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        const session = await sessionOr404(req);
        await requireAccess(session, user);
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
      handler: async (req, res, { auth: { user }, input: { start } }) => {
        const session = await sessionOr404(req);
        await requireAccess(session, user);
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
      handler: async (req, res, { auth, query }) => {
        const session = await sessionOr404(req);
        await requireAccess(session, auth.user);
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
        await streamRoom(req, res, session, auth.user, resumeAfter);
      },
    }),
  ];
}

function toViewerMessage(message: RoomChat, viewerId: number): ChatMessage {
  return {
    id: message.id,
    body: message.body,
    nickname: message.nickname,
    teacher: message.teacher,
    mine: message.userId === viewerId,
    createdAt: message.createdAt,
  };
}
