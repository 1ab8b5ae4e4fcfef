/**
 * The one set of formatters for dates, times and lengths of time, in China time (see
 * shared/china-time.ts) and in the forms zh-CN readers expect. They are built from the China
 * wall clock by hand rather than by Intl.DateTimeFormat, so that the server and every browser
 * (each with its own ICU data) print the same characters and hydration never disagrees.
 */
import { chinaParts, type ChinaParts, type Instant } from "./china-time";

const pad = (n: number) => String(n).padStart(2, "0");
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An instant, or a calendar date "YYYY-MM-DD" (a day with no time zone to shift it). */
export type When = Instant;

function partsOf(when: When): ChinaParts {
  if (typeof when === "string" && CALENDAR_DATE.test(when)) {
    const [year, month, day] = when.split("-").map(Number) as [number, number, number];
    return { year, month, day, hour: 0, minute: 0, second: 0 };
  }
  return chinaParts(when);
}

/** "2026年11月22日" */
export function formatDate(when: When): string {
  const p = partsOf(when);
  return `${p.year}年${p.month}月${p.day}日`;
}

/** "2026.11.22": the compact date of cards. */
export function formatShortDate(when: When): string {
  const p = partsOf(when);
  return `${p.year}.${pad(p.month)}.${pad(p.day)}`;
}

/** "11月22日" */
export function formatMonthDay(when: When): string {
  const p = partsOf(when);
  return `${p.month}月${p.day}日`;
}

/** "09:30" */
export function formatTime(when: When): string {
  const p = partsOf(when);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** "11月22日 09:30": a moment of the near past or future (a live lesson, the last lesson learned). */
export function formatMonthDayTime(when: When): string {
  return `${formatMonthDay(when)} ${formatTime(when)}`;
}

/** "2026-11-22 09:30": a moment on record (orders, ledgers, notices, devices). */
export function formatDateTime(when: When): string {
  const p = partsOf(when);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${formatTime(when)}`;
}

/** "05:07" or "1:02:03": a position in a video, or a video's length. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const mm = pad(Math.floor((s % 3600) / 60));
  const ss = pad(s % 60);
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** "30 秒", "3 分钟", "1 小时 5 分钟": a length of time in words. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} 秒`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} 分钟`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} 小时 ${m} 分钟` : `${h} 小时`;
}

/** "12:45", "03:12:45" or "2 天 03:12:45": the time left of a countdown, never below zero. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const clock = `${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
  if (days > 0) return `${days} 天 ${pad(hours)}:${clock}`;
  return hours > 0 ? `${pad(hours)}:${clock}` : clock;
}

/** A nickname as strangers see it: the first and last characters ("墨**8"). */
export function maskNickname(nickname: string): string {
  const chars = Array.from(nickname.trim());
  if (chars.length === 0) return "墨友";
  if (chars.length <= 2) return `${chars[0]}*`;
  return `${chars[0]}**${chars[chars.length - 1]}`;
}
