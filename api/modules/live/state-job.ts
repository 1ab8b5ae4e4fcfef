/**
 * Moves live sessions along by the clock, every 30 s on one node (the job registry claims each
 * period). Each step is still a compare-and-set (`update … where state = <expected>`), so if two
 * runs ever meet exactly one of them moves a session, and only that one sends the go-live
 * reminders (in the same transaction as the move: a reminder is sent once, or not at all if the
 * move is rolled back).
 */
import { sql } from "kysely";
import type { ApiContext } from "../../context";
import type { LiveState } from "../../db/schema";
import type { JobDefinition } from "../../jobs/registry";
import { notifyEach } from "../../notices";
import { publishRoomEvent } from "./room-hub";
import { REPLAY_AFTER_MS, ROOM_CLOSE_AFTER_MS } from "./states";

export const LIVE_JOB_EVERY_MS = 30_000;
export const LIVE_START_NOTICE_KIND = "live_start";

export interface LiveMove {
  id: number;
  from: LiveState;
  to: LiveState;
}

export async function advanceLiveSessions(ctx: ApiContext): Promise<LiveMove[]> {
  const now = ctx.now();
  const { db } = ctx.database;
  const moves: LiveMove[] = [];

  // 未开始 → 直播中, with the reminders to everyone who booked.
  const started = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable("live_sessions")
      .set({ state: "live", updated_at: now })
      .where("state", "=", "scheduled")
      .where("starts_at", "<=", now)
      .where("ends_at", ">", now)
      .returning(["id"])
      .execute();
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      await notifyEach(
        trx,
        trx
          .selectFrom("live_bookings as b")
          .innerJoin("live_sessions as s", "s.id", "b.live_id")
          .innerJoin("users as u", "u.id", "b.user_id")
          .where("b.live_id", "in", ids)
          .where("u.status", "in", ["active", "deleting"])
          .select([
            "b.user_id",
            sql.lit(LIVE_START_NOTICE_KIND).as("kind"),
            sql<string>`'直播开始了：' || s.title`.as("title"),
            sql<string>`'你预约的直播课「' || s.title || '」已经开始，进入直播间：/live/' || s.id`.as("body"),
            sql<Date>`${now}::timestamptz`.as("created_at"),
          ]),
      );
    }
    return ids;
  });
  moves.push(...started.map((id) => ({ id, from: "scheduled" as const, to: "live" as const })));

  // 直播中 → 已结束 at the end; a session the job never saw live (it was down) ends too, silently.
  for (const from of ["live", "scheduled"] as const) {
    const ended = await db
      .updateTable("live_sessions")
      .set({ state: "ended", updated_at: now })
      .where("state", "=", from)
      .where("ends_at", "<=", now)
      .returning(["id", "ends_at"])
      .execute();
    for (const row of ended) {
      moves.push({ id: row.id, from, to: "ended" });
      if (from === "live" && now.getTime() - row.ends_at.getTime() > ROOM_CLOSE_AFTER_MS) {
        ctx.logger.warn({ liveId: row.id }, "closed a live room left open more than an hour past its end");
      }
    }
  }

  // 已结束 → 回放生成中 right after.
  const processing = await db
    .updateTable("live_sessions")
    .set({ state: "processing", updated_at: now })
    .where("state", "=", "ended")
    .returning(["id"])
    .execute();
  moves.push(...processing.map((r) => ({ id: r.id, from: "ended" as const, to: "processing" as const })));

  // 回放生成中 → 可回放 two hours after the end (the recording is the sample video it names).
  const replay = await db
    .updateTable("live_sessions")
    .set({ state: "replay", updated_at: now })
    .where("state", "=", "processing")
    .where("recording_video_key", "is not", null)
    .where("ends_at", "<=", new Date(now.getTime() - REPLAY_AFTER_MS))
    .returning(["id"])
    .execute();
  moves.push(...replay.map((r) => ({ id: r.id, from: "processing" as const, to: "replay" as const })));

  // Tell the rooms, newest state last (a session may have taken several steps in one run).
  const finalState = new Map<number, LiveState>();
  for (const move of moves) finalState.set(move.id, move.to);
  for (const [liveId, state] of finalState) {
    await publishRoomEvent(ctx.database, { type: "state", liveId, state }).catch((err: unknown) =>
      ctx.logger.warn({ err, liveId }, "live state announcement failed"),
    );
  }
  if (moves.length > 0) ctx.logger.info({ moves: moves.length, started: started.length }, "live sessions moved");
  return moves;
}

/** The live state job for the job registry. */
export const liveStateJob: JobDefinition = {
  name: "live-states",
  everyMs: LIVE_JOB_EVERY_MS,
  run: advanceLiveSessions,
};
