/**
 * Progress reports of the player. Each report is one atomic upsert (insert … on conflict do
 * update) that adds the watched seconds to what is stored, capped at the length of the video,
 * so reports arriving at once from several tabs or nodes all count and never overshoot.
 * The completion time is set once: at 90 % watched or when playback reached the end.
 */
import { awardLearningCoins } from "../wallet/hooks";
import { type Kysely, sql } from "kysely";
import {
  COMPLETION_RATIO,
  MAX_WATCHED_PER_REPORT,
  type ProgressInput,
  type ProgressResult,
} from "../../../shared/contracts/learning";
import { chinaDate } from "../../../shared/china-time";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { percentOf } from "./lessons";

/** What a report adds, in whole seconds: at most 60 and never more than the video is long. */
export function normalizeReport(input: ProgressInput, durationSeconds: number) {
  const ended = input.ended === true;
  return {
    position: ended ? durationSeconds : Math.min(Math.floor(input.position), durationSeconds),
    watched: Math.min(Math.round(Math.min(input.watched, MAX_WATCHED_PER_REPORT)), durationSeconds),
    speedX100: Math.round(input.speed * 100),
    ended,
    threshold: Math.ceil(durationSeconds * COMPLETION_RATIO),
  };
}

/** The seconds a report says were watched count towards the China-time day's study time. */
async function addStudyTime(db: Kysely<DB>, userId: number, seconds: number, now: Date): Promise<void> {
  if (seconds <= 0) return;
  await db
    .insertInto("study_days")
    .values({ user_id: userId, day: chinaDate(now), seconds })
    .onConflict((oc) =>
      oc.columns(["user_id", "day"]).doUpdateSet({ seconds: sql<number>`study_days.seconds + ${seconds}::integer` }),
    )
    .execute();
}

async function rememberSpeedIn(db: Kysely<DB>, userId: number, speedX100: number): Promise<void> {
  // Only a change touches the row, so a stream of reports does not queue on the user's lock.
  await db
    .updateTable("users")
    .set({ playback_speed_x100: speedX100 })
    .where("id", "=", userId)
    .where("playback_speed_x100", "<>", speedX100)
    .execute();
}

export async function rememberSpeed(database: Database, userId: number, speed: number): Promise<void> {
  await rememberSpeedIn(database.db, userId, Math.round(speed * 100));
}

export async function recordLessonProgress(
  database: Database,
  args: { userId: number; lessonId: number; courseId: number; durationSeconds: number; enrolled: boolean },
  input: ProgressInput,
  now: Date,
): Promise<ProgressResult> {
  const r = normalizeReport(input, args.durationSeconds);
  const duration = args.durationSeconds;
  const summed = sql<number>`least(lesson_progress.watched_seconds + ${r.watched}::integer, ${duration}::integer)`;
  const completedAt = r.ended
    ? sql<Date>`coalesce(lesson_progress.completed_at, ${now}::timestamptz)`
    : sql<Date | null>`coalesce(lesson_progress.completed_at, case when ${summed} >= ${r.threshold}::integer then ${now}::timestamptz end)`;

  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("lesson_progress")
      .values({
        user_id: args.userId,
        lesson_id: args.lessonId,
        position_seconds: r.position,
        watched_seconds: r.watched,
        speed_x100: r.speedX100,
        completed_at: r.ended || r.watched >= r.threshold ? now : null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["user_id", "lesson_id"]).doUpdateSet({
          position_seconds: r.position,
          watched_seconds: summed,
          speed_x100: r.speedX100,
          completed_at: completedAt,
          updated_at: now,
        }),
      )
      .returning(["position_seconds", "watched_seconds", "completed_at"])
      .executeTakeFirstOrThrow();
    await rememberSpeedIn(trx, args.userId, r.speedX100);
    await addStudyTime(trx, args.userId, r.watched, now);
    // The report that finishes the lesson earns its coins (once per lesson, within the daily cap).
    if (row.completed_at && row.completed_at.getTime() === now.getTime()) {
      await awardLearningCoins(trx, {
        userId: args.userId,
        rule: "lesson_finished",
        refType: "lesson",
        refId: args.lessonId,
        now,
      });
    }
    if (args.enrolled) {
      await trx
        .updateTable("enrolments")
        .set({ last_lesson_id: args.lessonId, last_learned_at: now })
        .where("user_id", "=", args.userId)
        .where("course_id", "=", args.courseId)
        .execute();
    }
    return resultOf(row, duration);
  });
}

export async function recordReplayProgress(
  database: Database,
  args: { userId: number; liveId: number; durationSeconds: number },
  input: ProgressInput,
  now: Date,
): Promise<ProgressResult> {
  const r = normalizeReport(input, args.durationSeconds);
  const duration = args.durationSeconds;
  const summed = sql<number>`least(replay_progress.watched_seconds + ${r.watched}::integer, ${duration}::integer)`;
  const completedAt = r.ended
    ? sql<Date>`coalesce(replay_progress.completed_at, ${now}::timestamptz)`
    : sql<Date | null>`coalesce(replay_progress.completed_at, case when ${summed} >= ${r.threshold}::integer then ${now}::timestamptz end)`;

  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("replay_progress")
      .values({
        user_id: args.userId,
        live_id: args.liveId,
        position_seconds: r.position,
        watched_seconds: r.watched,
        completed_at: r.ended || r.watched >= r.threshold ? now : null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["user_id", "live_id"]).doUpdateSet({
          position_seconds: r.position,
          watched_seconds: summed,
          completed_at: completedAt,
          updated_at: now,
        }),
      )
      .returning(["position_seconds", "watched_seconds", "completed_at"])
      .executeTakeFirstOrThrow();
    await rememberSpeedIn(trx, args.userId, r.speedX100);
    await addStudyTime(trx, args.userId, r.watched, now);
    return resultOf(row, duration);
  });
}

function resultOf(
  row: { position_seconds: number; watched_seconds: number; completed_at: Date | null },
  duration: number,
): ProgressResult {
  const completed = row.completed_at !== null;
  return {
    position: row.position_seconds,
    watchedSeconds: row.watched_seconds,
    percent: completed ? 100 : percentOf(row.watched_seconds, duration),
    completed,
  };
}
