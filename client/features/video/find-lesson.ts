import type { LessonView, OutlineLesson } from "../../../shared/contracts/learning";

/** A lesson of the course's outline by id (the previous or next one), if it is there. */
export function findLesson(view: LessonView, id: number | null): OutlineLesson | undefined {
  if (id === null) return undefined;
  for (const chapter of view.outline) {
    const found = chapter.lessons.find((l) => l.id === id);
    if (found) return found;
  }
  return undefined;
}
