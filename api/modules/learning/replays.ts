/** Recordings of finished live lessons: the list, one recording with its access, and its length. */
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import {
  type ChapterMark,
  REPLAY_PAGE_SIZE,
  type ReplayList,
  type ReplaySummary,
  type ReplayView,
  resumePosition,
} from "../../../shared/contracts/learning";
import { sampleVideos, videoSources } from "../../../shared/media";
import type { DB, LiveState, User } from "../../db/schema";
import { liveSummaries, liveSummaryOf } from "../live/sessions";
import { effectiveState, REPLAY_AFTER_MS } from "../live/states";
import { isStaff, replayAccess } from "./access";

/** The recording's length: the sample's when it is one, else the session's scheduled length. */
export function recordingDuration(key: string | null, startsAt: Date, endsAt: Date): number {
  const sample = key ? (sampleVideos as Record<string, { durationSeconds: number } | undefined>)[key] : undefined;
  return sample?.durationSeconds ?? Math.max(1, Math.round((endsAt.getTime() - startsAt.getTime()) / 1000));
}

function marksOf(value: unknown): ChapterMark[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (m): m is ChapterMark =>
        typeof m === "object" && m !== null && typeof m.at === "number" && typeof m.title === "string",
    )
    .map((m) => ({ at: m.at, title: m.title }))
    .sort((a, b) => a.at - b.at);
}

function baseQuery(db: Kysely<DB>) {
  return liveSummaries(db).select([
    "s.summary",
    "s.recording_video_key",
    "s.chapter_marks",
    "c.price_cents",
    "c.category",
    "t.user_id as teacher_user_id",
  ]);
}

type ReplayRow = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;

function summaryOf(row: ReplayRow, state: LiveState): ReplaySummary {
  return {
    ...liveSummaryOf(row, state),
    summary: row.summary,
    chapterMarks: marksOf(row.chapter_marks),
    durationSeconds: row.recording_video_key
      ? recordingDuration(row.recording_video_key, row.starts_at, row.ends_at)
      : null,
  };
}

/** Sessions whose recording can be watched now: stored as replay, or due by the clock. */
function watchable(now: Date) {
  const due = new Date(now.getTime() - REPLAY_AFTER_MS);
  return (eb: ExpressionBuilder<DB & { s: DB["live_sessions"] }, "s">) =>
    eb.and([
      eb("s.recording_video_key", "is not", null),
      eb.or([
        eb("s.state", "=", "replay"),
        eb.and([eb("s.state", "in", ["scheduled", "live", "ended", "processing"]), eb("s.ends_at", "<=", due)]),
      ]),
    ]);
}

export async function replayList(db: Kysely<DB>, page: number, now: Date): Promise<ReplayList> {
  const pageSize = REPLAY_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    baseQuery(db)
      .where(watchable(now))
      .orderBy("s.starts_at", "desc")
      .orderBy("s.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom("live_sessions as s")
      .select(sql<number>`count(*)::integer`.as("total"))
      .where(watchable(now))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => summaryOf(row, "replay")),
    total: count.total,
    page,
    pageSize,
    hasMore: page * pageSize < count.total,
  };
}

export interface ReplayForAccess {
  id: number;
  durationSeconds: number;
  access: NonNullable<ReturnType<typeof replayAccess>>;
}

async function replayRow(db: Kysely<DB>, id: number, user: Pick<User, "id" | "role"> | null, now: Date) {
  const userId = user?.id ?? null;
  const row = await baseQuery(db)
    .leftJoin("enrolments as e", (join) =>
      join.onRef("e.course_id", "=", "s.course_id").on("e.user_id", "=", userId ?? 0),
    )
    .select("e.user_id as enrolled_user")
    .where("s.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const state = effectiveState(row, now);
  const enrolled = userId !== null && row.enrolled_user === userId;
  const access = replayAccess({
    state,
    hasRecording: row.recording_video_key !== null,
    isOpen: row.is_open,
    course: row.course_id !== null && row.price_cents !== null ? { priceCents: row.price_cents } : null,
    signedIn: userId !== null,
    enrolled,
    staff: isStaff(user, row.teacher_user_id),
  });
  if (!access) return null;
  return { row, state, enrolled, access };
}

export async function replayForAccess(
  db: Kysely<DB>,
  id: number,
  user: User,
  now: Date,
): Promise<ReplayForAccess | null> {
  const found = await replayRow(db, id, user, now);
  if (!found) return null;
  const { row, access } = found;
  return {
    id: row.id,
    durationSeconds: recordingDuration(row.recording_video_key, row.starts_at, row.ends_at),
    access,
  };
}

export async function replayView(db: Kysely<DB>, id: number, user: User | null, now: Date): Promise<ReplayView | null> {
  const found = await replayRow(db, id, user, now);
  if (!found) return null;
  const { row, state, enrolled, access } = found;
  const summary = summaryOf(row, state);
  let position = 0;
  let savedAt: string | null = null;
  if (user && access.allowed) {
    const progress = await db
      .selectFrom("replay_progress")
      .select(["position_seconds", "updated_at"])
      .where("user_id", "=", user.id)
      .where("live_id", "=", row.id)
      .executeTakeFirst();
    position = resumePosition(progress?.position_seconds ?? 0, summary.durationSeconds ?? 0);
    savedAt = progress ? progress.updated_at.toISOString() : null;
  }
  return {
    replay: summary,
    course:
      row.course_id !== null && row.course_title !== null && row.price_cents !== null && row.category !== null
        ? { id: row.course_id, title: row.course_title, priceCents: row.price_cents, category: row.category }
        : null,
    viewer: { signedIn: user !== null, enrolled },
    access,
    sources: access.allowed && row.recording_video_key ? videoSources(row.recording_video_key) : null,
    resume: user && access.allowed ? { position, savedAt, speed: user.playback_speed_x100 / 100 } : null,
  };
}
