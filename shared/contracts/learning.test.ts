import { describe, expect, it } from "vitest";
import { formatClock, formatDuration, isoDuration, progressInputSchema, resumePosition } from "./learning";

describe("resumePosition", () => {
  it("starts where the viewer stopped, from the beginning within 10 s of the end", () => {
    expect(resumePosition(12.7, 30)).toBe(12);
    expect(resumePosition(19.9, 30)).toBe(19);
    expect(resumePosition(20, 30)).toBe(0);
    expect(resumePosition(45, 30)).toBe(0);
    expect(resumePosition(-3, 30)).toBe(0);
    expect(resumePosition(Number.NaN, 30)).toBe(0);
  });
});

describe("durations", () => {
  it("ISO 8601 for schema.org", () => {
    expect(isoDuration(30)).toBe("PT30S");
    expect(isoDuration(90)).toBe("PT1M30S");
    expect(isoDuration(3600)).toBe("PT1H");
    expect(isoDuration(3725)).toBe("PT1H2M5S");
    expect(isoDuration(0)).toBe("PT0S");
  });

  it("clock and words", () => {
    expect(formatClock(65.9)).toBe("01:05");
    expect(formatClock(3723)).toBe("1:02:03");
    expect(formatDuration(30)).toBe("30 秒");
    expect(formatDuration(600)).toBe("10 分钟");
    expect(formatDuration(5400)).toBe("1 小时 30 分钟");
  });
});

describe("progressInputSchema", () => {
  it("takes the offered speeds only and refuses unknown fields", () => {
    expect(progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1.25 }).success).toBe(true);
    expect(progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1.3 }).success).toBe(false);
    const extra = progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1, user_id: 3 });
    expect(extra.error?.issues[0]?.message).toBe("不支持的字段：user_id");
  });
});
