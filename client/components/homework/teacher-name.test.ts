import { expect, it } from "vitest";
import { teacherName } from "./teacher-name";

it("adds 老师 to a teacher's name once", () => {
  expect(teacherName("林")).toBe("林老师");
  expect(teacherName("林老师")).toBe("林老师");
});
