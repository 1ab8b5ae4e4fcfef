import { describe, expect, it } from "vitest";
import { isoDuration, progressInputSchema, resumePosition } from "./learning";

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
});

describe("progressInputSchema", () => {
  it("takes the offered speeds only and refuses unknown fields", () => {
    expect(progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1.25 }).success).toBe(true);
    expect(progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1.3 }).success).toBe(false);
    const extra = progressInputSchema.safeParse({ position: 1, watched: 2, speed: 1, user_id: 3 });
    expect(extra.error?.issues[0]?.message).toBe("不支持的字段：user_id");
  });
});
