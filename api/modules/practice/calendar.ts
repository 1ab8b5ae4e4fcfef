/**
 * The learning calendar (DESIGN §4): one list of dated things for a learner, by China date —
 * live lessons of their courses and the ones they booked (with the room's link), camp lessons
 * that unlock, homework waiting for review or returned, and their diary entries; and the private
 * ICS feed of the live lessons (a reminder 15 minutes before) and camp unlock days (decision 031).
 */
import { randomBytes } from "node:crypto";
import ical, { ICalAlarmType, ICalEventStatus } from "ical-generator";
import { sql } from "kysely";
import { DateTime } from "luxon";
import { addDays, chinaDate, chinaDateTime } from "../../../shared/china-time";
import type { Calendar, CalendarEvent, CalendarFeed } from "../../../shared/contracts/practice";
import type { ApiContext } from "../../context";
import { campUnlockDate } from "../courses/access";
import { tracedMinutes } from "./diary";

const CHINA = "+08:00";
/** China midnight of a date, as an instant. */
const chinaMidnight = (date: string) => new Date(`${date}T00:00:00${CHINA}`);
const hhmm = (at: Date) => chinaDateTime(at).slice(11, 16);

const stateLabels: Record<string, string> = {
  scheduled: "未开始",
  live: "直播中",
  ended: "已结束",
  processing: "回放生成中",
  replay: "可回放",
  cancelled: "已取消",
};

interface LiveRow {
  id: number;
  title: string;
  course_title: string | null;
  teacher_name: string;
  starts_at: Date;
  ends_at: Date;
  state: string;
  updated_at: Date;
  booked: boolean;
}

/** Live sessions of the learner's courses and the ones they booked, starting in [from, to). */
async function liveSessions(ctx: ApiContext, userId: number, from: Date, to: Date): Promise<LiveRow[]> {
  const rows = await ctx.database.db
    .selectFrom("live_sessions as s")
    .innerJoin("teachers as t", "t.id", "s.teacher_id")
    .leftJoin("courses as c", "c.id", "s.course_id")
    .leftJoin("live_bookings as b", (j) => j.onRef("b.live_id", "=", "s.id").on("b.user_id", "=", userId))
    .select([
      "s.id",
      "s.title",
      "c.title as course_title",
      "t.name as teacher_name",
      "s.starts_at",
      "s.ends_at",
      "s.state",
      "s.updated_at",
      "b.user_id as booked_by",
    ])
    .where("s.starts_at", ">=", from)
    .where("s.starts_at", "<", to)
    .where((eb) =>
      eb.or([
        eb("b.user_id", "is not", null),
        eb("s.course_id", "in", eb.selectFrom("enrolments").select("course_id").where("user_id", "=", userId)),
      ]),
    )
    .orderBy("s.starts_at")
    .orderBy("s.id")
    .limit(500)
    .execute();
  return rows.map(({ booked_by, ...r }) => ({ ...r, booked: booked_by !== null }));
}

interface CampRow {
  lesson_id: number;
  lesson_title: string;
  course_id: number;
  course_title: string;
  unlock_day: number;
  date: string;
}

/** Camp lessons of the learner's camps that unlock between two China dates (inclusive). */
async function campUnlocks(ctx: ApiContext, userId: number, from: string, to: string): Promise<CampRow[]> {
  const rows = await ctx.database.db
    .selectFrom("lessons as l")
    .innerJoin("courses as c", "c.id", "l.course_id")
    .innerJoin("enrolments as e", (j) => j.onRef("e.course_id", "=", "c.id").on("e.user_id", "=", userId))
    .select([
      "l.id as lesson_id",
      "l.title as lesson_title",
      "c.id as course_id",
      "c.title as course_title",
      "l.unlock_day",
      "c.camp_starts_on",
    ])
    .where("c.kind", "=", "camp")
    .where("c.camp_starts_on", "is not", null)
    .where("l.unlock_day", "is not", null)
    .where("c.camp_starts_on", "<=", to)
    .orderBy("l.unlock_day")
    .orderBy("l.id")
    .limit(1000)
    .execute();
  const out: CampRow[] = [];
  for (const r of rows) {
    const date = campUnlockDate(r.camp_starts_on, r.unlock_day);
    if (date && date >= from && date <= to) out.push({ ...r, unlock_day: r.unlock_day!, date });
  }
  return out;
}

export async function calendarOf(ctx: ApiContext, userId: number, from: string, to: string): Promise<Calendar> {
  const db = ctx.database.db;
  const start = chinaMidnight(from);
  const end = chinaMidnight(addDays(to, 1));
  const events: CalendarEvent[] = [];

  for (const s of await liveSessions(ctx, userId, start, end)) {
    events.push({
      id: `live-${s.id}`,
      kind: "live",
      date: chinaDate(s.starts_at),
      time: hhmm(s.starts_at),
      endTime: hhmm(s.ends_at),
      title: `直播：${s.title}`,
      detail: [
        s.course_title ? `《${s.course_title}》` : null,
        s.teacher_name,
        stateLabels[s.state],
        s.booked ? "已预约" : null,
      ]
        .filter(Boolean)
        .join(" · "),
      href: `/live/${s.id}`,
    });
  }
  for (const c of await campUnlocks(ctx, userId, from, to)) {
    events.push({
      id: `camp-${c.lesson_id}`,
      kind: "camp",
      date: c.date,
      time: null,
      endTime: null,
      title: `训练营第 ${c.unlock_day} 天解锁：${c.lesson_title}`,
      detail: `《${c.course_title}》`,
      href: `/video/${c.lesson_id}`,
    });
  }

  const homework = await db
    .selectFrom("homework_attempts as a")
    .innerJoin("homework_submissions as s", "s.id", "a.submission_id")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .select(["a.public_id", "a.number", "a.state", "a.submitted_at", "a.reviewed_at", "t.title"])
    .where("s.user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb.and([eb("a.state", "=", "waiting"), eb("a.submitted_at", ">=", start), eb("a.submitted_at", "<", end)]),
        eb.and([eb("a.reviewed_at", ">=", start), eb("a.reviewed_at", "<", end)]),
      ]),
    )
    .limit(500)
    .execute();
  for (const h of homework) {
    const waiting = h.state === "waiting";
    const at = waiting ? h.submitted_at : h.reviewed_at!;
    events.push({
      id: `homework-${h.public_id}`,
      kind: "homework",
      date: chinaDate(at),
      time: hhmm(at),
      endTime: null,
      title: waiting
        ? `作业待批改：${h.title}`
        : h.state === "returned"
          ? `作业退回重写：${h.title}`
          : `作业已批改：${h.title}`,
      detail: `第 ${h.number} 次提交`,
      href: "/my/homework",
    });
  }

  const diary = await db
    .selectFrom("practice_diary")
    .select(["day", "minutes", "traced_seconds", "characters"])
    .where("user_id", "=", userId)
    .where("day", ">=", from)
    .where("day", "<=", to)
    .execute();
  for (const d of diary) {
    const minutes = d.minutes + tracedMinutes(d.traced_seconds);
    events.push({
      id: `diary-${d.day}`,
      kind: "diary",
      date: d.day,
      time: null,
      endTime: null,
      title: `练字打卡 ${minutes} 分钟`,
      detail: d.characters ? `练了：${d.characters}` : "",
      href: "/my/dairy",
    });
  }

  const order: Record<CalendarEvent["kind"], number> = { live: 1, camp: 0, homework: 2, diary: 3 };
  events.sort(
    (a, b) =>
      a.date.localeCompare(b.date) || (a.time ?? "").localeCompare(b.time ?? "") || order[a.kind] - order[b.kind],
  );
  return { from, to, today: chinaDate(ctx.now()), events };
}

/* ---------------- the ICS feed ---------------- */

/** 192 random bits, URL-safe. */
const newToken = () => randomBytes(24).toString("base64url");
export const FEED_TOKEN = /^[A-Za-z0-9_-]{32}$/;

export const feedUrl = (ctx: ApiContext, token: string) =>
  `${ctx.settings.publicOrigin.replace(/\/$/, "")}/api/practice/feed/${token}.ics`;

export async function feedOf(ctx: ApiContext, userId: number): Promise<CalendarFeed> {
  const row = await ctx.database.db
    .selectFrom("calendar_feeds")
    .select("token")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { enabled: true, url: feedUrl(ctx, row.token) } : { enabled: false, url: null };
}

/** Turns the feed on with a new address (the old one, if any, stops working at once). */
export async function resetFeed(ctx: ApiContext, userId: number): Promise<CalendarFeed> {
  const token = newToken();
  await ctx.database.db
    .insertInto("calendar_feeds")
    .values({ user_id: userId, token, created_at: ctx.now() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ token, created_at: ctx.now() }))
    .execute();
  return { enabled: true, url: feedUrl(ctx, token) };
}

export async function disableFeed(ctx: ApiContext, userId: number): Promise<CalendarFeed> {
  await ctx.database.db.deleteFrom("calendar_feeds").where("user_id", "=", userId).execute();
  return { enabled: false, url: null };
}

/** China has kept UTC+8 without daylight saving since 1991: one fixed STANDARD block is exact. */
export const SHANGHAI_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Asia/Shanghai",
  "X-LIC-LOCATION:Asia/Shanghai",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0800",
  "TZOFFSETTO:+0800",
  "TZNAME:CST",
  "DTSTART:19700101T000000",
  "END:STANDARD",
  "END:VTIMEZONE",
].join("\r\n");

/** Live lessons 60 days back and 180 ahead, camp unlock days in the same window. */
export const FEED_DAYS_BACK = 60;
export const FEED_DAYS_AHEAD = 180;
/** SEQUENCE counts seconds since this instant, so a moved lesson always gets a higher one. */
const SEQUENCE_EPOCH = Date.UTC(2024, 0, 1);

/** The ICS text for a feed token, or null when no feed has that token. */
export async function feedIcs(ctx: ApiContext, token: string): Promise<string | null> {
  if (!FEED_TOKEN.test(token)) return null;
  const feed = await ctx.database.db
    .selectFrom("calendar_feeds")
    .select("user_id")
    .where("token", "=", token)
    .executeTakeFirst();
  if (!feed) return null;
  const now = ctx.now();
  const today = chinaDate(now);
  const from = addDays(today, -FEED_DAYS_BACK);
  const to = addDays(today, FEED_DAYS_AHEAD);
  const host = new URL(ctx.settings.publicOrigin).hostname || "mochi.local";
  const origin = ctx.settings.publicOrigin.replace(/\/$/, "");
  const cal = ical({
    name: `${ctx.settings.siteName} · 学习日历`,
    prodId: { company: "mochi-classroom", product: "learning-calendar", language: "ZH" },
    // The VTIMEZONE block only: times are written per event with TZID (a calendar-wide zone
    // would make DTSTAMP and the rest floating, which RFC 5545 does not allow).
    timezone: { name: null, generator: () => SHANGHAI_VTIMEZONE },
    ttl: 3600,
  });
  cal.x([{ key: "X-WR-TIMEZONE", value: "Asia/Shanghai" }]);
  const inChina = (at: Date) => DateTime.fromJSDate(at, { zone: "Asia/Shanghai" });
  for (const s of await liveSessions(ctx, feed.user_id, chinaMidnight(from), chinaMidnight(to))) {
    const cancelled = s.state === "cancelled";
    const event = cal.createEvent({
      id: `live-${s.id}@${host}`,
      start: inChina(s.starts_at),
      end: inChina(s.ends_at),
      timezone: "Asia/Shanghai",
      stamp: now,
      lastModified: s.updated_at,
      sequence: Math.max(0, Math.floor((s.updated_at.getTime() - SEQUENCE_EPOCH) / 1000)),
      summary: `直播：${s.title}`,
      description: [
        s.course_title ? `课程：${s.course_title}` : null,
        `老师：${s.teacher_name}`,
        `直播间：${origin}/live/${s.id}`,
      ]
        .filter(Boolean)
        .join("\n"),
      url: `${origin}/live/${s.id}`,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
    if (!cancelled) {
      event.createAlarm({
        type: ICalAlarmType.display,
        trigger: 15 * 60,
        description: `直播 15 分钟后开始：${s.title}`,
      });
    }
  }
  for (const c of await campUnlocks(ctx, feed.user_id, from, to)) {
    cal.createEvent({
      id: `camp-${c.lesson_id}@${host}`,
      start: c.date,
      end: addDays(c.date, 1),
      allDay: true,
      stamp: now,
      summary: `训练营第 ${c.unlock_day} 天解锁：${c.lesson_title}`,
      description: `《${c.course_title}》今天解锁新课：${origin}/video/${c.lesson_id}`,
      url: `${origin}/video/${c.lesson_id}`,
    });
  }
  return cal.toString();
}

/** Distinct characters of the homework tasks of the learner's courses, per course. */
export async function courseCharacters(ctx: ApiContext, userId: number) {
  const rows = await ctx.database.db
    .selectFrom("homework_tasks as t")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("enrolments as e", (j) => j.onRef("e.course_id", "=", "c.id").on("e.user_id", "=", userId))
    .select(["c.id as course_id", "c.title", sql<string>`string_agg(t.characters, '' order by t.id)`.as("chars")])
    .groupBy(["c.id", "c.title"])
    .orderBy("c.id")
    .limit(50)
    .execute();
  return rows
    .map((r) => ({
      courseId: r.course_id,
      title: r.title,
      characters: [...new Set([...(r.chars ?? "")].filter((ch) => /\p{Script=Han}/u.test(ch)))].join(""),
    }))
    .filter((r) => r.characters.length > 0);
}
