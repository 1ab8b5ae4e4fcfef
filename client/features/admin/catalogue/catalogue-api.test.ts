import { describe, expect, it } from "vitest";
import type { AdminChapter } from "../../../../shared/contracts/admin-catalogue";
import { dropLesson, moveChapter, moveLesson, orderOf } from "./catalogue-api";

const lesson = (id: number, chapterId: number) => ({
  id,
  chapterId,
  position: 0,
  title: `L${id}`,
  summary: "",
  videoKey: "yong",
  videoUrl: null,
  durationSeconds: 30,
  isTrial: false,
  task: null,
});
const outline: AdminChapter[] = [
  { id: 1, position: 1, title: "一", lessons: [lesson(11, 1), lesson(12, 1)] },
  { id: 2, position: 2, title: "二", lessons: [lesson(21, 2)] },
];
const ids = (chapters: AdminChapter[]) => orderOf(chapters).chapters.map((c) => [c.id, c.lessonIds]);

describe("outline moves (the keyboard's up/down and drag and drop)", () => {
  it("moves a lesson within its chapter and across the border", () => {
    expect(ids(moveLesson(outline, 12, -1))).toEqual([
      [1, [12, 11]],
      [2, [21]],
    ]);
    expect(ids(moveLesson(outline, 12, 1))).toEqual([
      [1, [11]],
      [2, [12, 21]],
    ]);
    expect(ids(moveLesson(outline, 21, -1))).toEqual([
      [1, [11, 12, 21]],
      [2, []],
    ]);
    expect(ids(moveLesson(outline, 11, -1))).toEqual(ids(outline));
    expect(ids(moveLesson(outline, 21, 1))).toEqual(ids(outline));
  });

  it("drops a lesson before another one or at a chapter's end, and moves chapters", () => {
    expect(ids(dropLesson(outline, 21, 1, 11))).toEqual([
      [1, [21, 11, 12]],
      [2, []],
    ]);
    expect(ids(dropLesson(outline, 11, 2, null))).toEqual([
      [1, [12]],
      [2, [21, 11]],
    ]);
    expect(ids(moveChapter(outline, 2, -1))).toEqual([
      [2, [21]],
      [1, [11, 12]],
    ]);
    expect(ids(moveChapter(outline, 1, -1))).toEqual(ids(outline));
  });
});
