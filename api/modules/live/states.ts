/**
 * A live session's state (DESIGN §4): 未开始 scheduled → 直播中 live → 已结束 ended →
 * 回放生成中 processing → 可回放 replay, or 已取消 cancelled. The clock drives it: the state job
 * stores each step, and every read computes the state the job would have stored by now, so a
 * page never shows a stale state between two runs.
 */
import type { LiveState } from "../../db/schema";

/** The recording becomes a replay this long after the end. */
export const REPLAY_AFTER_MS = 2 * 3_600_000;
/** A room still open this long after its end is closed (its streams end). */
export const ROOM_CLOSE_AFTER_MS = 3_600_000;

const RANK: Record<Exclude<LiveState, "cancelled">, number> = {
  scheduled: 0,
  live: 1,
  ended: 2,
  processing: 3,
  replay: 4,
};

/** The state a live session has at `now` by its schedule (cancelled ones stay cancelled). */
export function scheduledLiveState(startsAt: Date, endsAt: Date, now: Date): LiveState {
  if (now < startsAt) return "scheduled";
  if (now < endsAt) return "live";
  return now.getTime() - endsAt.getTime() < REPLAY_AFTER_MS ? "processing" : "replay";
}

export interface SessionClock {
  state: LiveState;
  starts_at: Date;
  ends_at: Date;
  recording_video_key: string | null;
}

/** Where the clock has taken a session: never backwards from what is stored, never past what exists. */
export function effectiveState(session: SessionClock, now: Date): LiveState {
  const stored = session.state;
  if (stored === "cancelled") return "cancelled";
  let byClock = scheduledLiveState(session.starts_at, session.ends_at, now);
  // Without a recording there is nothing to replay yet.
  if (byClock === "replay" && !session.recording_video_key) byClock = "processing";
  if (byClock === "cancelled") return stored; // the schedule alone never cancels
  return RANK[byClock] > RANK[stored] ? byClock : stored;
}

/** The next moment the clock changes this session's state (for timers), or null. */
export function nextChange(session: SessionClock, now: Date): Date | null {
  if (session.state === "cancelled") return null;
  const moments = [session.starts_at, session.ends_at, new Date(session.ends_at.getTime() + REPLAY_AFTER_MS)];
  return moments.find((m) => m.getTime() > now.getTime()) ?? null;
}

/** Ended, processing and replay: the lesson is over. */
export const isOver = (state: LiveState) => state === "ended" || state === "processing" || state === "replay";
