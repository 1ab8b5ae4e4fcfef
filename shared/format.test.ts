import { describe, expect, it } from "vitest";
import {
  formatClock,
  formatCountdown,
  formatDate,
  formatDateTime,
  formatDuration,
  formatMonthDay,
  formatMonthDayTime,
  formatShortDate,
  formatTime,
} from "./format";

describe("dates and times, in China time", () => {
  // 2026-12-31 16:05 UTC is already New Year's Day, 00:05, in Beijing.
  const newYear = "2026-12-31T16:05:00Z";

  it("prints each form from the China wall clock, across the year end", () => {
    expect(formatDate(newYear)).toBe("2027年1月1日");
    expect(formatShortDate(newYear)).toBe("2027.01.01");
    expect(formatMonthDay(newYear)).toBe("1月1日");
    expect(formatTime(newYear)).toBe("00:05");
    expect(formatMonthDayTime(newYear)).toBe("1月1日 00:05");
    expect(formatDateTime(newYear)).toBe("2027-01-01 00:05");
    expect(formatDateTime(new Date("2026-11-22T01:30:59Z"))).toBe("2026-11-22 09:30");
  });

  it("reads a calendar date as that very day, not shifted by any zone", () => {
    expect(formatDate("2025-11-07")).toBe("2025年11月7日");
    expect(formatMonthDay("2026-03-01")).toBe("3月1日");
    expect(formatShortDate("2026-03-01")).toBe("2026.03.01");
  });
});

describe("lengths of time", () => {
  it("a video position or length as a clock", () => {
    expect(formatClock(0)).toBe("00:00");
    expect(formatClock(307)).toBe("05:07");
    expect(formatClock(65.9)).toBe("01:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(formatClock(Number.NaN)).toBe("00:00");
  });

  it("a length in words", () => {
    expect(formatDuration(30)).toBe("30 秒");
    expect(formatDuration(600)).toBe("10 分钟");
    expect(formatDuration(5400)).toBe("1 小时 30 分钟");
    expect(formatDuration(7200)).toBe("2 小时");
  });

  it("a countdown shows hours and days only when there are some", () => {
    expect(formatCountdown(30 * 60_000)).toBe("30:00");
    expect(formatCountdown(59_001)).toBe("01:00");
    expect(formatCountdown(24 * 3_600_000 - 52_000)).toBe("23:59:08");
    expect(formatCountdown(2 * 86_400_000 + 3 * 3_600_000 + 12 * 60_000 + 45_000)).toBe("2 天 03:12:45");
    expect(formatCountdown(-5000)).toBe("00:00");
  });
});
