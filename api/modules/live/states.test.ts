import { describe, expect, it } from "vitest";
import type { LiveState } from "../../db/schema";
import { effectiveState, nextChange } from "./states";

const start = new Date("2030-01-01T12:00:00Z");
const end = new Date("2030-01-01T13:00:00Z");
const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const session = (state: LiveState, recording: string | null = "yong") => ({
  state,
  starts_at: start,
  ends_at: end,
  recording_video_key: recording,
});

describe("effectiveState", () => {
  it("follows the clock from what is stored", () => {
    expect(effectiveState(session("scheduled"), at(-1))).toBe("scheduled");
    expect(effectiveState(session("scheduled"), at(0))).toBe("live");
    expect(effectiveState(session("scheduled"), at(59))).toBe("live");
    expect(effectiveState(session("live"), at(60))).toBe("processing");
    expect(effectiveState(session("ended"), at(61))).toBe("processing");
    expect(effectiveState(session("processing"), at(179))).toBe("processing");
    expect(effectiveState(session("processing"), at(180))).toBe("replay");
  });

  it("never goes back, never cancels and never replays without a recording", () => {
    expect(effectiveState(session("replay"), at(-10))).toBe("replay");
    expect(effectiveState(session("live"), at(-10))).toBe("live");
    expect(effectiveState(session("cancelled"), at(30))).toBe("cancelled");
    expect(effectiveState(session("processing", null), at(600))).toBe("processing");
  });
});

describe("nextChange", () => {
  it("is the next start, end or replay moment", () => {
    expect(nextChange(session("scheduled"), at(-5))).toEqual(start);
    expect(nextChange(session("live"), at(5))).toEqual(end);
    expect(nextChange(session("processing"), at(61))).toEqual(at(180));
    expect(nextChange(session("replay"), at(181))).toBeNull();
    expect(nextChange(session("cancelled"), at(-5))).toBeNull();
  });
});
