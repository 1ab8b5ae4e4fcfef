import { describe, expect, it } from "vitest";
import { specGroups } from "./spec-groups";

describe("specGroups", () => {
  it("deals the files by their recorded time, longest first, to the group with the least so far", () => {
    const files = [
      { file: "a11y.spec.ts", bytes: 11_000 },
      { file: "login.spec.ts", bytes: 19_000 },
      { file: "orders.spec.ts", bytes: 14_000 },
      { file: "search.spec.ts", bytes: 1_600 },
    ];
    // By size the two largest files would share nothing with a11y; by time a11y is half the suite.
    const recorded = { "a11y.spec.ts": 600, "login.spec.ts": 150, "orders.spec.ts": 300, "search.spec.ts": 10 };
    expect(specGroups(files, recorded, 2)).toEqual([
      ["a11y.spec.ts"],
      ["orders.spec.ts", "login.spec.ts", "search.spec.ts"],
    ]);
  });

  it("estimates a file not recorded yet from its size, at the recorded files' seconds per byte", () => {
    const files = [
      { file: "old.spec.ts", bytes: 1_000 },
      { file: "other.spec.ts", bytes: 1_000 },
      { file: "new.spec.ts", bytes: 4_000 },
    ];
    // 0.1 s a byte: the new file counts 400 s, more than both recorded files together.
    expect(specGroups(files, { "old.spec.ts": 100, "other.spec.ts": 100 }, 2)).toEqual([
      ["new.spec.ts"],
      ["old.spec.ts", "other.spec.ts"],
    ]);
  });

  it("orders by size when nothing is recorded, and one server takes every file", () => {
    const files = [
      { file: "b.spec.ts", bytes: 10 },
      { file: "a.spec.ts", bytes: 30 },
      { file: "c.spec.ts", bytes: 20 },
    ];
    expect(specGroups(files, {}, 2)).toEqual([["a.spec.ts"], ["c.spec.ts", "b.spec.ts"]]);
    expect(specGroups(files, {}, 1)).toEqual([["a.spec.ts", "c.spec.ts", "b.spec.ts"]]);
  });
});
