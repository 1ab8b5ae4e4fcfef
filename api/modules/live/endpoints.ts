/** Live lessons: the schedule, one session's page and booking; the room itself is in `room.endpoints.ts`. */
import {
  type BookingResult,
  type LiveDetail,
  type LiveList,
  bookingResultSchema,
  hasLiveAccess,
  liveDetailSchema,
  liveListQuerySchema,
  liveListSchema,
} from "../../../shared/contracts/live";
import { liveStreamUrl } from "../../../shared/media";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { bookingRule } from "../../../shared/action-rules";
import { forbidden } from "../../http";
import { emptyBody, liveParam, sessionOr404, stateConflict } from "./requests";
import { roomEndpoints } from "./room.endpoints";
import { LiveRoomHub } from "./room-hub";
import { accessAmong, accessFor, bookedAmong, listSessions, toSummary } from "./sessions";
import { effectiveState } from "./states";

async function bookingCount(ctx: ApiContext, liveId: number): Promise<number> {
  const row = await ctx.database.db
    .selectFrom("live_bookings")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("live_id", "=", liveId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Booking is a reminder: a notice when the session goes live. Only before it starts. */
function bookingEndpoint(ctx: ApiContext, method: "post" | "delete", summary: string): Endpoint {
  return defineEndpoint({
    method,
    path: "/live/{id}/booking",
    summary,
    tag: "live",
    auth: true,
    params: liveParam,
    input: emptyBody,
    output: bookingResultSchema,
    handler: async (req, res, { auth: { user }, params }) => {
      // Cancelling a booking stays possible while frozen; booking does not.
      if (method === "post") refuseWhileFrozen(user, "预约");
      const session = await sessionOr404(ctx, params.id);
      const state = effectiveState(session, ctx.now());
      const rule = bookingRule({
        access: await accessFor(ctx, session, user),
        state,
        courseTitle: session.course_title,
      });
      if (!rule.ok) throw rule.kind === "access" ? forbidden(rule.reason) : stateConflict(state, rule.reason);
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
      res.json({ booked: method === "post", bookings: await bookingCount(ctx, session.id) } satisfies BookingResult);
    },
  });
}

export function liveEndpoints(ctx: ApiContext): Endpoint[] {
  const hub = new LiveRoomHub(ctx.database, ctx.logger);
  // Listen from the start, so this node knows the other nodes' viewer counts before its first viewer.
  hub.start().catch((err: unknown) => ctx.logger.warn({ err }, "live rooms: listening failed; retried on demand"));
  const site = { name: ctx.settings.siteName, origin: ctx.settings.publicOrigin };

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
        const access = await accessAmong(ctx, rows, auth?.user ?? null);
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
          items: rows.map((row) => ({
            ...toSummary(row, now),
            booked: booked.has(row.id),
            access: access.get(row.id) ?? "sign_in",
          })),
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
      handler: async (req, res, { auth, params }) => {
        const session = await sessionOr404(ctx, params.id);
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
          bookingCount(ctx, session.id),
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

    bookingEndpoint(ctx, "post", "预约（开播时发站内通知）；仅未开始的场次，重复预约无副作用"),
    bookingEndpoint(ctx, "delete", "取消预约；仅未开始的场次"),
    ...roomEndpoints(ctx, hub),
  ];
}
