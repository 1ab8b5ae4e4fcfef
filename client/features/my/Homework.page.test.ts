import { describe, expect, it } from "vitest";
import { homeworkQuery, parseHomeworkFilter } from "./Homework.page";

describe("我的作业 filters in the URL", () => {
  it("reads a known state and a course id, and ignores anything else", () => {
    expect(parseHomeworkFilter(new URLSearchParams("state=returned&courseId=12"))).toEqual({
      state: "returned",
      courseId: 12,
    });
    expect(parseHomeworkFilter(new URLSearchParams("state=lost&courseId=012"))).toEqual({
      state: null,
      courseId: null,
    });
    expect(parseHomeworkFilter(new URLSearchParams("courseId=99999999999"))).toEqual({ state: null, courseId: null });
  });

  it("writes the same query back, with a cursor for the next page", () => {
    expect(homeworkQuery({ state: "waiting", courseId: 3 })).toBe("?state=waiting&courseId=3");
    expect(homeworkQuery({ state: null, courseId: null }, "c1")).toBe("?cursor=c1");
    expect(homeworkQuery({ state: null, courseId: null })).toBe("");
  });
});
