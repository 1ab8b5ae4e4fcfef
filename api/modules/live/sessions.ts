/** Reading live sessions: one with its teacher and course, the schedule by tab, and who may watch. */
import type { Kysely } from "kysely";
import type { LiveSummary } from "../../../shared/contracts/catalogue";
import type { LiveAccess, LiveTab } from "../../../shared/contracts/live";
import type { ApiContext } from "../../context";
import type { DB, LiveState, User } from "../../db/schema";
import { chinaDay } from "../../../shared/china-time";
import { effectiveState } from "./states";

/** The longest list a tab shows (the schedule covers days, not years). */
export const LIVE_LIST_LIMIT = 60;

/**
 * Live sessions with their teacher and course, selecting what a `LiveSummary` shows (as `s`,
 * `t` and `c`); callers add their own columns, filters and order.
 */
export function liveSummaries(db: Kysely<DB>) {
  return db
    .selectFrom("live_sessions as s")
    .innerJoin("teachers as t", "t.id", "s.teacher_id")
    .leftJoin("courses as c", "c.id", "s.course_id")
    .select([
      "s.id",
      "s.title",
      "s.course_id",
      "c.title as course_title",
      "t.name as teacher_name",
      "s.cover_char",
      "s.starts_at",
      "s.ends_at",
      "s.state",
      "s.is_open",
      "s.recording_video_key",
    ]);
}

export interface LiveSummaryRow {
  id: number;
  title: string;
  course_id: number | null;
  course_title: string | null;
  teacher_name: string;
  cover_char: string;
  starts_at: Date;
  ends_at: Date;
  is_open: boolean;
}

/** A session as the lists show it, in the state the caller's rule gives it. */
export function liveSummaryOf(row: LiveSummaryRow, state: LiveState): LiveSummary {
  return {
    id: row.id,
    title: row.title,
    courseId: row.course_id,
    courseTitle: row.course_title,
    teacherName: row.teacher_name,
    coverChar: row.cover_char,
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    state,
    isOpen: row.is_open,
  };
}

function sessionQuery(db: Kysely<DB>) {
  return liveSummaries(db).select([
    "s.teacher_id",
    "s.summary",
    "s.stream_key",
    "s.recording_video_key",
    "t.title as teacher_title",
    "t.bio as teacher_bio",
    "t.specialty as teacher_specialty",
    "t.portrait_char as teacher_portrait",
    "t.user_id as teacher_user_id",
    "s.pinned_message",
  ]);
}

export type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirst"]>>>;

export async function findSession(ctx: ApiContext, id: number): Promise<SessionRow | undefined> {
  return sessionQuery(ctx.database.db).where("s.id", "=", id).executeTakeFirst();
}

export function toSummary(row: SessionRow, now: Date): LiveSummary {
  return liveSummaryOf(row, effectiveState(row, now));
}

/** The sessions of one tab, in the order a learner reads them. */
export async function listSessions(ctx: ApiContext, tab: LiveTab, now: Date): Promise<SessionRow[]> {
  let query = sessionQuery(ctx.database.db);
  switch (tab) {
    case "today": {
      const { start, end } = chinaDay(now);
      query = query.where("s.starts_at", ">=", start).where("s.starts_at", "<", end).orderBy("s.starts_at", "asc");
      break;
    }
    case "upcoming":
      query = query
        .where("s.starts_at", ">", now)
        .where("s.state", "in", ["scheduled", "cancelled"])
        .orderBy("s.starts_at", "asc");
      break;
    case "live":
      query = query
        .where("s.starts_at", "<=", now)
        .where("s.ends_at", ">", now)
        .where("s.state", "in", ["scheduled", "live"])
        .orderBy("s.starts_at", "asc");
      break;
    case "ended":
      query = query
        .where((eb) =>
          eb.or([
            eb("s.state", "in", ["ended", "processing", "replay"]),
            eb.and([eb("s.ends_at", "<=", now), eb("s.state", "!=", "cancelled")]),
          ]),
        )
        .orderBy("s.starts_at", "desc");
      break;
  }
  return query.orderBy("s.id", "asc").limit(LIVE_LIST_LIMIT).execute();
}

/** Which of these sessions the user booked. */
export async function bookedAmong(ctx: ApiContext, userId: number, liveIds: number[]): Promise<Set<number>> {
  if (liveIds.length === 0) return new Set();
  const rows = await ctx.database.db
    .selectFrom("live_bookings")
    .select("live_id")
    .where("user_id", "=", userId)
    .where("live_id", "in", liveIds)
    .execute();
  return new Set(rows.map((r) => r.live_id));
}

/**
 * Who may watch: everyone for an open class, the session's teacher and operators, and the
 * learners enrolled in its course. Anonymous visitors of a closed session are asked to sign in.
 */
/** Who the viewer is to a session, given whether they joined its course. */
function accessOf(session: SessionRow, user: User | null, enrolled: boolean): LiveAccess {
  if (user && (user.role === "operator" || (session.teacher_user_id !== null && session.teacher_user_id === user.id))) {
    return "host";
  }
  if (enrolled) return "enrolled";
  if (session.is_open) return "open";
  return user ? "not_enrolled" : "sign_in";
}

export async function accessFor(ctx: ApiContext, session: SessionRow, user: User | null): Promise<LiveAccess> {
  return (await accessAmong(ctx, [session], user)).get(session.id) ?? "sign_in";
}

/** Access to each of several sessions, with one look at the viewer's enrolments. */
export async function accessAmong(
  ctx: ApiContext,
  sessions: SessionRow[],
  user: User | null,
): Promise<Map<number, LiveAccess>> {
  const courseIds = [...new Set(sessions.flatMap((s) => (s.course_id === null ? [] : [s.course_id])))];
  const enrolled = new Set<number>();
  if (user && courseIds.length > 0) {
    const rows = await ctx.database.db
      .selectFrom("enrolments")
      .select("course_id")
      .where("user_id", "=", user.id)
      .where("course_id", "in", courseIds)
      .execute();
    for (const r of rows) enrolled.add(r.course_id);
  }
  return new Map(
    sessions.map((s) => [s.id, accessOf(s, user, s.course_id !== null && enrolled.has(s.course_id))] as const),
  );
}
