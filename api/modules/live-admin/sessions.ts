/**
 * Live sessions as staff change them. A move or a cancellation tells every learner concerned
 * (booked, or enrolled in the session's course) by a notice written in the same transaction as the
 * change; a cancellation, a recording, a pinned message, a hidden message reach the open rooms as
 * room events. Moves and cancellations are guarded by the stored state (`where state = …`), so a
 * session the clock has just started cannot be moved under it.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { z } from "zod";
import type {
  AdminLive,
  liveCreateSchema,
  livePatchSchema,
  RecordingInput,
} from "../../../shared/contracts/admin-live";
import { formatMonthDayTime } from "../../../shared/format";
import { liveStreamUrl } from "../../../shared/media";
import type { ApiContext } from "../../context";
import type { LiveState } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { notifyEach } from "../../notices";
import { recordAudit } from "../audit/record";
import type { Db } from "../catalogue-admin/common";
import { conflict } from "../catalogue-admin/common";
import { publishRoomEvent } from "../live/room-hub";
import { effectiveState, isOver } from "../live/states";

export const LIVE_MOVED_NOTICE_KIND = "live_moved";
export const LIVE_CANCELLED_NOTICE_KIND = "live_cancelled";

export function newStreamKey(): string {
  return `live-${randomBytes(10).toString("hex")}`;
}

/** Where broadcasting software sends the stream, and whether the demo broadcaster stands in. */
export function ingestOf(ctx: ApiContext, streamKey: string) {
  const host = new URL(ctx.settings.publicOrigin).hostname;
  return {
    server: process.env.INGEST_RTMP_URL || `rtmp://${host}/live`,
    streamKey,
    playbackUrl: liveStreamUrl(streamKey),
    demo: !process.env.BROADCAST_ORIGIN,
  };
}

export function liveRows(db: Db) {
  return db
    .selectFrom("live_sessions as s")
    .innerJoin("teachers as t", "t.id", "s.teacher_id")
    .leftJoin("courses as c", "c.id", "s.course_id")
    .select([
      "s.id",
      "s.title",
      "s.course_id",
      "c.title as course_title",
      "s.teacher_id",
      "t.name as teacher_name",
      "t.user_id as teacher_user_id",
      "s.starts_at",
      "s.ends_at",
      "s.state",
      "s.recording_video_key",
      (eb) =>
        eb
          .selectFrom("live_bookings as b")
          .select(sql<number>`count(*)::int`.as("n"))
          .whereRef("b.live_id", "=", "s.id")
          .as("bookings"),
    ]);
}

type LiveRow = Awaited<ReturnType<ReturnType<typeof liveRows>["executeTakeFirstOrThrow"]>>;

export function liveRowOf(r: LiveRow, now: Date) {
  return {
    id: r.id,
    title: r.title,
    courseId: r.course_id,
    courseTitle: r.course_title,
    teacherId: r.teacher_id,
    teacherName: r.teacher_name,
    startsAt: r.starts_at.toISOString(),
    endsAt: r.ends_at.toISOString(),
    state: effectiveState(r, now),
    bookings: Number(r.bookings ?? 0),
  };
}

/** The learners a change of this session concerns: booked, or enrolled in its course. */
function audienceOf(db: Db, liveId: number, courseId: number | null) {
  return db
    .selectFrom("users as u")
    .where("u.status", "in", ["active", "deleting"])
    .where((eb) =>
      eb.or([
        eb("u.id", "in", eb.selectFrom("live_bookings").select("user_id").where("live_id", "=", liveId)),
        ...(courseId === null
          ? []
          : [eb("u.id", "in", eb.selectFrom("enrolments").select("user_id").where("course_id", "=", courseId))]),
      ]),
    );
}

export async function loadLive(ctx: ApiContext, id: number): Promise<AdminLive & { teacherUserId: number | null }> {
  const db = ctx.database.db;
  const row = await liveRows(db)
    .select(["s.summary", "s.cover_char", "s.is_open", "s.stream_key", "s.chapter_marks", "s.pinned_message"])
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) throw notFound("这场直播不存在");
  const audience = await audienceOf(db, id, row.course_id)
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirstOrThrow();
  return {
    ...liveRowOf(row, ctx.now()),
    summary: row.summary,
    coverChar: row.cover_char,
    isOpen: row.is_open,
    ingest: ingestOf(ctx, row.stream_key),
    recordingVideoKey: row.recording_video_key,
    chapterMarks: row.chapter_marks,
    pinnedMessage: row.pinned_message,
    audience: Number(audience.n),
    teacherUserId: row.teacher_user_id,
  };
}

async function checkRefs(db: Db, teacherId?: number, courseId?: number | null) {
  if (teacherId !== undefined) {
    const t = await db.selectFrom("teachers").select("id").where("id", "=", teacherId).executeTakeFirst();
    if (!t) throw new ApiError(400, "invalid_input", "授课老师不存在");
  }
  if (courseId !== undefined && courseId !== null) {
    const c = await db.selectFrom("courses").select("id").where("id", "=", courseId).executeTakeFirst();
    if (!c) throw new ApiError(400, "invalid_input", "关联课程不存在");
  }
}

export async function createLive(
  ctx: ApiContext,
  actorId: number,
  input: z.output<typeof liveCreateSchema>,
): Promise<number> {
  const now = ctx.now();
  if (Date.parse(input.startsAt) <= now.getTime()) throw new ApiError(400, "invalid_input", "开始时间须在现在之后");
  return ctx.database.db.transaction().execute(async (trx) => {
    await checkRefs(trx, input.teacherId, input.courseId);
    const row = await trx
      .insertInto("live_sessions")
      .values({
        title: input.title,
        summary: input.summary,
        course_id: input.courseId,
        teacher_id: input.teacherId,
        cover_char: input.coverChar,
        starts_at: input.startsAt,
        ends_at: input.endsAt,
        is_open: input.isOpen,
        stream_key: newStreamKey(),
        chapter_marks: "[]",
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actorId, action: "live.create", targetType: "live", targetId: row.id, after: input });
    return row.id;
  });
}

const stateName: Record<LiveState, string> = {
  scheduled: "未开始",
  live: "直播中",
  ended: "已结束",
  processing: "回放生成中",
  replay: "可回放",
  cancelled: "已取消",
};

/**
 * Changes a session; a new time only while it has not started (then everyone concerned is told).
 * `teacherUserId` limits the change to that teacher's own sessions (404 for any other).
 */
export async function updateLive(
  ctx: ApiContext,
  actorId: number,
  id: number,
  input: z.output<typeof livePatchSchema>,
  teacherUserId?: number,
): Promise<{ moved: boolean }> {
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("live_sessions as s")
      .innerJoin("teachers as t", "t.id", "s.teacher_id")
      .selectAll("s")
      .select("t.user_id as teacher_user_id")
      .where("s.id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!before || (teacherUserId !== undefined && before.teacher_user_id !== teacherUserId)) {
      throw notFound("这场直播不存在");
    }
    await checkRefs(trx, input.teacherId, input.courseId);
    const startsAt = input.startsAt ? new Date(input.startsAt) : before.starts_at;
    const endsAt = input.endsAt ? new Date(input.endsAt) : before.ends_at;
    const moved = startsAt.getTime() !== before.starts_at.getTime() || endsAt.getTime() !== before.ends_at.getTime();
    const state = effectiveState(before, now);
    if (moved) {
      if (state !== "scheduled") throw conflict(`直播${stateName[state]}，不能再改时间`, "live_state");
      if (startsAt.getTime() <= now.getTime()) throw new ApiError(400, "invalid_input", "开始时间须在现在之后");
      if (endsAt.getTime() <= startsAt.getTime()) throw new ApiError(400, "invalid_input", "结束时间须晚于开始时间");
    }
    const set: Record<string, unknown> = {};
    const was: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const fields = {
      title: ["title", before.title],
      summary: ["summary", before.summary],
      courseId: ["course_id", before.course_id],
      teacherId: ["teacher_id", before.teacher_id],
      isOpen: ["is_open", before.is_open],
      coverChar: ["cover_char", before.cover_char],
    } as const;
    for (const [key, [column, old]] of Object.entries(fields)) {
      const value = (input as Record<string, unknown>)[key];
      if (value === undefined || value === old) continue;
      set[column] = value;
      was[key] = old;
      after[key] = value;
    }
    if (moved) {
      set.starts_at = startsAt;
      set.ends_at = endsAt;
      was.startsAt = before.starts_at.toISOString();
      was.endsAt = before.ends_at.toISOString();
      after.startsAt = startsAt.toISOString();
      after.endsAt = endsAt.toISOString();
    }
    if (Object.keys(set).length === 0) return { moved: false };
    const updated = await trx
      .updateTable("live_sessions")
      .set({ ...set, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", before.state)
      .returning("id")
      .executeTakeFirst();
    if (!updated) throw conflict("直播状态刚刚变了，请刷新后再试", "live_state");
    if (moved) {
      const title = (input.title ?? before.title) as string;
      await notifyEach(
        trx,
        audienceOf(trx, id, (input.courseId !== undefined ? input.courseId : before.course_id) ?? null).select([
          "u.id as user_id",
          sql.lit(LIVE_MOVED_NOTICE_KIND).as("kind"),
          sql<string>`${`直播时间调整：${title}`}::text`.as("title"),
          sql<string>`${`「${title}」改到 ${formatMonthDayTime(startsAt)} 开始（原定 ${formatMonthDayTime(before.starts_at)}），直播间：/live/${id}`}::text`.as(
            "body",
          ),
          sql<Date>`${now}::timestamptz`.as("created_at"),
        ]),
      );
    }
    await recordAudit(trx, {
      actorId,
      action:
        moved && Object.keys(after).every((k) => k === "startsAt" || k === "endsAt") ? "live.move" : "live.update",
      targetType: "live",
      targetId: id,
      before: was,
      after,
    });
    return { moved };
  });
}

export async function cancelLive(ctx: ApiContext, actorId: number, id: number, reason: string): Promise<void> {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("live_sessions")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound("这场直播不存在");
    const state = effectiveState(before, now);
    if (state === "cancelled") throw conflict("这场直播已经取消了", "live_state");
    if (isOver(state)) throw conflict("直播已经结束，不能取消", "live_state");
    const updated = await trx
      .updateTable("live_sessions")
      .set({ state: "cancelled", updated_at: now })
      .where("id", "=", id)
      .where("state", "=", before.state)
      .returning("id")
      .executeTakeFirst();
    if (!updated) throw conflict("直播状态刚刚变了，请刷新后再试", "live_state");
    await notifyEach(
      trx,
      audienceOf(trx, id, before.course_id).select([
        "u.id as user_id",
        sql.lit(LIVE_CANCELLED_NOTICE_KIND).as("kind"),
        sql<string>`${`直播取消：${before.title}`}::text`.as("title"),
        sql<string>`${`原定 ${formatMonthDayTime(before.starts_at)} 的直播「${before.title}」已取消。原因：${reason}`}::text`.as(
          "body",
        ),
        sql<Date>`${now}::timestamptz`.as("created_at"),
      ]),
    );
    await recordAudit(trx, {
      actorId,
      action: "live.cancel",
      targetType: "live",
      targetId: id,
      before: { state },
      after: { state: "cancelled" },
      reason,
    });
  });
  await publishRoomEvent(ctx.database, { type: "state", liveId: id, state: "cancelled" }).catch((err: unknown) =>
    ctx.logger.warn({ err, liveId: id }, "live cancel broadcast failed"),
  );
}

/** The recording of a finished session becomes its playback at once, with its chapter marks. */
export async function attachRecording(ctx: ApiContext, actorId: number, id: number, input: RecordingInput) {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("live_sessions")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound("这场直播不存在");
    const state = effectiveState(before, now);
    if (!isOver(state)) throw conflict("直播结束后才能上传回放", "live_state");
    await trx
      .updateTable("live_sessions")
      .set({
        recording_video_key: input.videoKey,
        chapter_marks: JSON.stringify(input.chapterMarks),
        state: "replay",
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actorId,
      action: "live.recording",
      targetType: "live",
      targetId: id,
      before: { recordingVideoKey: before.recording_video_key, chapterMarks: before.chapter_marks, state },
      after: { ...input, state: "replay" },
    });
  });
  await publishRoomEvent(ctx.database, { type: "state", liveId: id, state: "replay" }).catch((err: unknown) =>
    ctx.logger.warn({ err, liveId: id }, "live replay broadcast failed"),
  );
}
