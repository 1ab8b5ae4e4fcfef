/** The catalogue pages' calls: JSON through the site's client, and raw uploads (covers, videos). */
import { AjaxError } from "../../../../shared/ajax";
import { ajaxErrorMessage } from "../../../../shared/errors";
import type { CourseOrder } from "../../../../shared/contracts/admin-catalogue";
import type { AdminChapter } from "../../../../shared/contracts/admin-catalogue";

/** Sends a file as the raw body (the API checks it by its bytes); throws AjaxError like the JSON client. */
export async function uploadFile(path: string, file: File): Promise<unknown> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
    body: file,
    credentials: "same-origin",
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (res.status >= 400) throw new AjaxError(res.status, ajaxErrorMessage(res.status), body);
  return body;
}

/** The order of a course's outline as the API takes it. */
export const orderOf = (chapters: AdminChapter[]): CourseOrder => ({
  chapters: chapters.map((c) => ({ id: c.id, lessonIds: c.lessons.map((l) => l.id) })),
});

/** Moves a lesson one place up or down, across chapter borders (to the end or start of the next chapter). */
export function moveLesson(chapters: AdminChapter[], lessonId: number, step: -1 | 1): AdminChapter[] {
  const next = chapters.map((c) => ({ ...c, lessons: [...c.lessons] }));
  const ci = next.findIndex((c) => c.lessons.some((l) => l.id === lessonId));
  const chapter = next[ci];
  if (!chapter) return chapters;
  const li = chapter.lessons.findIndex((l) => l.id === lessonId);
  const target = li + step;
  if (target >= 0 && target < chapter.lessons.length) {
    [chapter.lessons[li], chapter.lessons[target]] = [chapter.lessons[target]!, chapter.lessons[li]!];
    return next;
  }
  const neighbour = next[ci + step];
  if (!neighbour) return chapters;
  const [lesson] = chapter.lessons.splice(li, 1);
  if (step === -1) neighbour.lessons.push(lesson!);
  else neighbour.lessons.unshift(lesson!);
  return next;
}

/** Puts a dragged lesson before another one (or at the end of a chapter when `beforeId` is null). */
export function dropLesson(
  chapters: AdminChapter[],
  lessonId: number,
  chapterId: number,
  beforeId: number | null,
): AdminChapter[] {
  if (lessonId === beforeId) return chapters;
  const next = chapters.map((c) => ({ ...c, lessons: c.lessons.filter((l) => l.id !== lessonId) }));
  const lesson = chapters.flatMap((c) => c.lessons).find((l) => l.id === lessonId);
  const target = next.find((c) => c.id === chapterId);
  if (!lesson || !target) return chapters;
  const at = beforeId === null ? target.lessons.length : target.lessons.findIndex((l) => l.id === beforeId);
  target.lessons.splice(at < 0 ? target.lessons.length : at, 0, lesson);
  return next;
}

export function moveChapter(chapters: AdminChapter[], chapterId: number, step: -1 | 1): AdminChapter[] {
  const i = chapters.findIndex((c) => c.id === chapterId);
  const j = i + step;
  if (i < 0 || j < 0 || j >= chapters.length) return chapters;
  const next = [...chapters];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
