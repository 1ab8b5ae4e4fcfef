import { describe, expect, it } from "vitest";
import { type LessonAccessInput, lessonAccess, lockLabel, replayAccess } from "./access";

const base: LessonAccessInput = {
  isTrial: false,
  unlockDay: null,
  course: { priceCents: 19900, kind: "recorded", campStartsOn: null },
  signedIn: true,
  enrolled: false,
  staff: false,
  now: new Date("2026-11-22T04:00:00Z"),
};

describe("lessonAccess", () => {
  it("a trial lesson is open to anyone", () => {
    expect(lessonAccess({ ...base, isTrial: true, signedIn: false }).allowed).toBe(true);
  });

  it("says what is missing: login and enrolment for free courses, purchase for paid ones", () => {
    expect(lessonAccess({ ...base, signedIn: false })).toMatchObject({ allowed: false, reason: "purchase" });
    const free = { ...base, course: { ...base.course, priceCents: 0 } };
    expect(lessonAccess({ ...free, signedIn: false })).toMatchObject({ reason: "login" });
    expect(lessonAccess(free)).toMatchObject({ reason: "enrol" });
    expect(lessonAccess({ ...base, enrolled: true }).allowed).toBe(true);
    expect(lessonAccess({ ...base, staff: true }).allowed).toBe(true);
  });

  it("a camp lesson opens on camp day N = start + N − 1, China time", () => {
    const camp: LessonAccessInput = {
      ...base,
      enrolled: true,
      unlockDay: 5,
      course: { priceCents: 39900, kind: "camp", campStartsOn: "2026-11-21" },
    };
    const locked = lessonAccess({ ...camp, now: new Date("2026-11-24T15:59:59Z") });
    expect(locked).toEqual({
      allowed: false,
      reason: "camp_locked",
      unlockDate: "2026-11-25",
      message: "训练营第 5 天解锁（11月25日）",
    });
    expect(lockLabel(locked)).toBe("11月25日解锁");
    expect(lessonAccess({ ...camp, now: new Date("2026-11-24T16:00:00Z") }).allowed).toBe(true);
    expect(lessonAccess({ ...camp, course: { ...camp.course, campStartsOn: null } }).reason).toBe("camp_locked");
  });
});

describe("replayAccess", () => {
  const replay = {
    state: "replay" as const,
    hasRecording: true,
    isOpen: false,
    course: { priceCents: 29900 },
    signedIn: true,
    enrolled: false,
    staff: false,
  };

  it("only recordings that exist or are being made are there at all", () => {
    for (const state of ["scheduled", "live", "cancelled"] as const)
      expect(replayAccess({ ...replay, state })).toBeNull();
    for (const state of ["ended", "processing"] as const) {
      expect(replayAccess({ ...replay, state })).toEqual({
        allowed: false,
        reason: "processing",
        message: "回放生成中，请稍后再来",
      });
    }
    expect(replayAccess({ ...replay, hasRecording: false })?.reason).toBe("processing");
  });

  it("open sessions for everyone, the rest for the course's learners and staff", () => {
    expect(replayAccess({ ...replay, isOpen: true, signedIn: false })?.allowed).toBe(true);
    expect(replayAccess({ ...replay, enrolled: true })?.allowed).toBe(true);
    expect(replayAccess({ ...replay, staff: true })?.allowed).toBe(true);
    expect(replayAccess(replay)?.reason).toBe("purchase");
    expect(replayAccess({ ...replay, course: { priceCents: 0 }, signedIn: false })?.reason).toBe("login");
    expect(replayAccess({ ...replay, course: null })?.reason).toBe("enrol");
  });
});
