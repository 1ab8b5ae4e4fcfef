import { describe, expect, it } from "vitest";
import { addDays, chinaDate, chinaDateTime, chinaDay, chinaParts } from "./china-time";

describe("China time", () => {
  it("turns the date at 16:00 UTC, not at UTC midnight", () => {
    expect(chinaDate(new Date("2026-11-21T15:59:59.999Z"))).toBe("2026-11-21");
    expect(chinaDate(new Date("2026-11-21T16:00:00Z"))).toBe("2026-11-22");
    // Early morning UTC is already the same day's morning in China.
    expect(chinaDate("2026-11-22T00:30:00Z")).toBe("2026-11-22");
  });

  it("crosses month and year ends eight hours before UTC does", () => {
    expect(chinaDate("2026-01-31T16:00:00Z")).toBe("2026-02-01");
    expect(chinaDate("2028-02-28T16:00:00Z")).toBe("2028-02-29");
    expect(chinaDate(Date.parse("2026-12-31T15:59:59Z"))).toBe("2026-12-31");
    expect(chinaDate(Date.parse("2026-12-31T16:00:00Z"))).toBe("2027-01-01");
    expect(chinaParts("2026-12-31T16:05:09Z")).toEqual({ year: 2027, month: 1, day: 1, hour: 0, minute: 5, second: 9 });
  });

  it("reads the wall clock to the second", () => {
    expect(chinaDateTime("2026-11-22T01:30:05.400Z")).toBe("2026-11-22T09:30:05");
    expect(chinaDateTime("2026-12-31T23:59:59Z")).toBe("2027-01-01T07:59:59");
  });

  it("gives the China day around an instant, whichever side of UTC midnight", () => {
    const day = { start: new Date("2030-03-01T16:00:00Z"), end: new Date("2030-03-02T16:00:00Z") };
    expect(chinaDay(new Date("2030-03-01T16:00:00Z"))).toEqual(day);
    expect(chinaDay(new Date("2030-03-01T23:59:59Z"))).toEqual(day);
    expect(chinaDay(new Date("2030-03-02T15:59:59.999Z"))).toEqual(day);
    expect(chinaDay(new Date("2030-03-01T15:59:59Z")).start).toEqual(new Date("2030-02-28T16:00:00Z"));
    // Before 1970 the remainder is negative; the day still starts at China midnight.
    expect(chinaDay(new Date("1969-12-31T20:00:00Z")).start).toEqual(new Date("1969-12-31T16:00:00Z"));
  });

  it("adds days to a calendar date across month, year and leap days", () => {
    expect(addDays("2026-11-25", 3)).toBe("2026-11-28");
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });
});
