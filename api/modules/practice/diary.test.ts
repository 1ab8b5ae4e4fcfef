/** The diary's rules without a database: which dates can be written, streaks, weeks, characters. */
import { describe, expect, it } from "vitest";
import { mergeCharacters, streaks, weekStart, writeRefusal } from "./diary";

// 10:00 on 10 March 2026 in Beijing.
const now = new Date("2026-03-10T02:00:00Z");

describe("which dates can be written", () => {
  it("today always, tomorrow never", () => {
    expect(writeRefusal("2026-03-10", now, undefined)).toBeNull();
    expect(writeRefusal("2026-03-10", now, { made_up: false, created_at: now })).toBeNull();
    expect(writeRefusal("2026-03-11", now, undefined)).toBe("还没到这一天，不能提前写日记");
  });

  it("yesterday only if missed, or made up today; the day before never", () => {
    expect(writeRefusal("2026-03-09", now, undefined)).toBeNull();
    expect(writeRefusal("2026-03-09", now, { made_up: true, created_at: new Date("2026-03-09T17:00:00Z") })).toBeNull();
    // Made up yesterday (i.e. on the 9th, for the 8th) is not "made up today".
    expect(writeRefusal("2026-03-09", now, { made_up: true, created_at: new Date("2026-03-09T15:00:00Z") })).toBe(
      "昨天的日记已经写过了，只能修改今天的日记",
    );
    expect(writeRefusal("2026-03-09", now, { made_up: false, created_at: new Date("2026-03-09T03:00:00Z") })).toBe(
      "昨天的日记已经写过了，只能修改今天的日记",
    );
    expect(writeRefusal("2026-03-08", now, undefined)).toBe("只能补写昨天漏掉的一天，更早的日子不能补写");
  });

  it("follows the China date, not UTC: 23:30 UTC is already tomorrow", () => {
    const late = new Date("2026-03-10T16:30:00Z"); // 00:30 on 11 March in Beijing
    expect(writeRefusal("2026-03-11", late, undefined)).toBeNull();
    expect(writeRefusal("2026-03-09", late, undefined)).toBe("只能补写昨天漏掉的一天，更早的日子不能补写");
  });
});

describe("streaks, weeks, characters", () => {
  it("counts runs across the year end and keeps today open", () => {
    expect(streaks(["2026-12-31", "2027-01-01", "2026-12-30"], "2027-01-02")).toEqual({ current: 3, longest: 3 });
    expect(streaks(["2026-12-31", "2026-12-31"], "2026-12-31")).toEqual({ current: 1, longest: 1 });
  });

  it("weeks start on Monday", () => {
    expect(weekStart("2026-03-01")).toBe("2026-02-23"); // a Sunday
    expect(weekStart("2026-03-02")).toBe("2026-03-02");
    expect(weekStart("2027-01-01")).toBe("2026-12-28");
  });

  it("keeps Han characters once, in the order first written", () => {
    expect(mergeCharacters("永和", "和九 a1年永")).toBe("永和九年");
    expect(mergeCharacters("", ["天", "地", "天"])).toBe("天地");
  });
});
