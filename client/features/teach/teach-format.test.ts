import { describe, expect, it } from "vitest";
import { formatMedianWait, formatWaiting } from "./teach-format";

describe("waiting times", () => {
  it("reads minutes, hours, then days", () => {
    expect(formatWaiting(0.2)).toBe("刚刚提交");
    expect(formatWaiting(45)).toBe("等待 45 分钟");
    expect(formatWaiting(3 * 60 + 50)).toBe("等待 3 小时");
    expect(formatWaiting(47 * 60)).toBe("等待 47 小时");
    expect(formatWaiting(3 * 24 * 60 + 5)).toBe("等待 3 天");
  });

  it("gives the median with one decimal, or a dash before any review", () => {
    expect(formatMedianWait(null)).toBe("—");
    expect(formatMedianWait(12)).toBe("12 分钟");
    expect(formatMedianWait(150)).toBe("2.5 小时");
    expect(formatMedianWait(120)).toBe("2 小时");
    expect(formatMedianWait(72 * 60)).toBe("3 天");
  });
});
