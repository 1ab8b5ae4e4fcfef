/**
 * The personal centre's overview (/api/me/overview): today's check-in, homework to do, the next
 * live lesson and the minutes studied per week. Balances and courses have endpoints of their own.
 */
import { addDays, chinaDate } from "../../../shared/china-time";
import { type Overview, STUDY_WEEKS } from "../../../shared/contracts/me";
import type { Database } from "../../db/database";
import { effectiveState } from "../live/states";

/** How many homework tasks the overview names (the rest are counted). */
const HOMEWORK_ITEMS = 3;

/**
 * Today's check-in. Read from the wallet's daily check-in entry (the only check-in there is);
 * this one function is what to switch when check-ins are kept elsewhere (the practice diary).
 */
export async function todayCheckIn(database: Database, userId: number, now: Date): Promise<{ done: boolean }> {
  const day = chinaDate(now);
  const entry = await database.db
    .selectFrom("wallet_entries")
    .select("id")
    .where("user_id", "=", userId)
    .where("reason", "=", "daily_check_in")
    .where("ref_type", "=", "check_in")
    .where("ref_id", "=", day)
    .executeTakeFirst();
  return { done: entry !== undefined };
}

async function homeworkOf(database: Database, userId: number): Promise<Overview["homework"]> {
  const rows = await database.db
    .selectFrom("homework_tasks as t")
    .innerJoin("enrolments as e", (join) => join.onRef("e.course_id", "=", "t.course_id").on("e.user_id", "=", userId))
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("lessons as l", "l.id", "t.lesson_id")
    .leftJoin("homework_submissions as s", (join) => join.onRef("s.task_id", "=", "t.id").on("s.user_id", "=", userId))
    .select(["t.id as taskId", "t.lesson_id as lessonId", "l.title as title", "c.title as courseTitle", "s.state"])
    .orderBy("e.last_learned_at", (ob) => ob.desc().nullsLast())
    .orderBy("l.position")
    .orderBy("t.id")
    .execute();
  const toDo = rows.filter((r) => r.state === null || r.state === "returned");
  return {
    toDo: toDo.length,
    inReview: rows.filter((r) => r.state === "waiting").length,
    items: toDo.slice(0, HOMEWORK_ITEMS).map((r) => ({
      taskId: r.taskId,
      lessonId: r.lessonId,
      title: r.title,
      courseTitle: r.courseTitle,
      state: r.state === "returned" ? ("returned" as const) : ("todo" as const),
    })),
  };
}

/** The learner's next live lesson: booked, or of a course they joined; on air first. */
async function nextLiveOf(database: Database, userId: number, now: Date): Promise<Overview["nextLive"]> {
  const rows = await database.db
    .selectFrom("live_sessions as s")
    .leftJoin("live_bookings as b", (join) => join.onRef("b.live_id", "=", "s.id").on("b.user_id", "=", userId))
    .leftJoin("enrolments as e", (join) => join.onRef("e.course_id", "=", "s.course_id").on("e.user_id", "=", userId))
    .select(["s.id", "s.title", "s.starts_at", "s.ends_at", "s.state", "s.recording_video_key", "b.user_id as booked"])
    .where((eb) => eb.or([eb("b.user_id", "is not", null), eb("e.user_id", "is not", null)]))
    .where("s.ends_at", ">", now)
    .where("s.state", "in", ["scheduled", "live"])
    .orderBy("s.starts_at")
    .limit(5)
    .execute();
  for (const row of rows) {
    const state = effectiveState(row, now);
    if (state !== "scheduled" && state !== "live") continue;
    return { id: row.id, title: row.title, startsAt: row.starts_at.toISOString(), state, booked: row.booked !== null };
  }
  return null;
}

/** The Monday (China time) of the week that holds `day`. */
function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

async function studyWeeksOf(database: Database, userId: number, now: Date): Promise<Overview["studyWeeks"]> {
  const thisWeek = mondayOf(chinaDate(now));
  const first = addDays(thisWeek, -7 * (STUDY_WEEKS - 1));
  const days = await database.db
    .selectFrom("study_days")
    .select(["day", "seconds"])
    .where("user_id", "=", userId)
    .where("day", ">=", first)
    .execute();
  const weeks = Array.from({ length: STUDY_WEEKS }, (_, i) => ({ weekStart: addDays(first, 7 * i), seconds: 0 }));
  for (const d of days) {
    const week = weeks.find((w) => w.weekStart === mondayOf(d.day));
    if (week) week.seconds += d.seconds;
  }
  return weeks.map((w) => ({ weekStart: w.weekStart, minutes: Math.round(w.seconds / 60) }));
}

export async function overviewOf(database: Database, userId: number, now: Date): Promise<Overview> {
  const [checkIn, homework, nextLive, studyWeeks] = await Promise.all([
    todayCheckIn(database, userId, now),
    homeworkOf(database, userId),
    nextLiveOf(database, userId, now),
    studyWeeksOf(database, userId, now),
  ]);
  return { checkIn, homework, nextLive, studyWeeks };
}
