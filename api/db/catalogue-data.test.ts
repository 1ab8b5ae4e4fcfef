import { describe, expect, it } from "vitest";
import { courseOutline, courseSeeds } from "./catalogue-data";

describe("the demo catalogue's outlines", () => {
  const outlines = courseSeeds.map((c, i) => courseOutline(c, i).flatMap(([, lessons]) => lessons));

  it("give every course an outline of its own", () => {
    expect(new Set(outlines.map((o) => JSON.stringify(o))).size).toBe(courseSeeds.length);
    // /course/1 (paid), /course/6 (live) and the free /course/7 used to share one.
    for (const [a, b] of [
      [0, 5],
      [0, 6],
      [5, 6],
    ] as const) {
      expect(outlines[a]!.filter((title) => outlines[b]!.includes(title))).toEqual([]);
    }
  });

  it("never repeat a lesson title within a course", () => {
    for (const titles of outlines) expect(new Set(titles).size).toBe(titles.length);
  });
});
