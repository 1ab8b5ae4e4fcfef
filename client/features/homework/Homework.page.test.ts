import { describe, expect, it } from "vitest";
import { wallColumns, wallQuery } from "./Homework.page";

describe("作业墙", () => {
  it("has two columns on a phone and more on a wide screen, at most five", () => {
    expect(wallColumns(343)).toBe(2);
    expect(wallColumns(1136)).toBe(4);
    expect(wallColumns(2400)).toBe(5);
  });

  it("keeps the script filter and the cursor in the query", () => {
    expect(wallQuery("kai", "abc")).toBe("?script=kai&cursor=abc");
    expect(wallQuery(null)).toBe("");
  });
});
