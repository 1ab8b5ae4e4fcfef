/**
 * The course's outline: chapters and lessons ordered by drag and drop or by the ↑/↓ buttons
 * (keyboard), chapters added, renamed and removed, lessons added in place.
 */
import { useState } from "react";
import { useRevalidator } from "react-router-dom";
import type { AdminChapter, AdminCourse, EncoderStatus } from "../../../../../shared/contracts/admin-catalogue";
import { FormAlert } from "../../../../components/form/FormAlert";
import { useMutation } from "../../../../lib/mutation";
import { InputField } from "../../../../components/staff/staff-fields";
import { browserApi } from "../../../../lib/api";
import { dropLesson, moveChapter, moveLesson, orderOf } from "../catalogue-api";
import { LessonForm } from "./LessonEditor";
import { LessonRow } from "./LessonRow";

export function Outline({ course, encoder }: { course: AdminCourse; encoder: EncoderStatus }) {
  const action = useMutation();
  const revalidator = useRevalidator();
  const [chapterTitle, setChapterTitle] = useState("");
  const [adding, setAdding] = useState<number | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const refresh = () => void revalidator.revalidate();
  const save = (chapters: AdminChapter[]) =>
    void action
      .run(() => browserApi(`/api/admin/courses/${course.id}/order`, { method: "PUT", body: orderOf(chapters) }), {
        done: "顺序已保存",
      })
      .then(refresh);
  const all = course.chapters.flatMap((c) => c.lessons.map((l) => l.id));
  return (
    <section className="card staff-panel" aria-labelledby="outline-title">
      <h2 id="outline-title">章节与课时</h2>
      <p className="staff-message">拖动课时调整顺序（可拖到别的章节），或用 ↑ ↓ 按钮。</p>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
      {course.chapters.length === 0 ? <p className="staff-message">还没有章节，先添加一章。</p> : null}
      {course.chapters.map((chapter, ci) => (
        <div key={chapter.id} className="catalogue-chapter" data-testid="outline-chapter">
          <div className="catalogue-chapter__head">
            <h3>{chapter.title}</h3>
            <button
              type="button"
              className="button button--small"
              aria-label={`上移 ${chapter.title}`}
              disabled={ci === 0}
              onClick={() => save(moveChapter(course.chapters, chapter.id, -1))}
            >
              ↑
            </button>
            <button
              type="button"
              className="button button--small"
              aria-label={`下移 ${chapter.title}`}
              disabled={ci === course.chapters.length - 1}
              onClick={() => save(moveChapter(course.chapters, chapter.id, 1))}
            >
              ↓
            </button>
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                const title = window.prompt("章节名称", chapter.title);
                if (title)
                  void action
                    .run(() => browserApi(`/api/admin/chapters/${chapter.id}`, { method: "PATCH", body: { title } }))
                    .then(refresh);
              }}
            >
              改名
            </button>
            {chapter.lessons.length === 0 ? (
              <button
                type="button"
                className="button button--small"
                onClick={() =>
                  void action
                    .run(() => browserApi(`/api/admin/chapters/${chapter.id}`, { method: "DELETE" }))
                    .then(refresh)
                }
              >
                删除本章
              </button>
            ) : null}
          </div>
          <ol
            className="staff-list catalogue-lessons"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              if (dragged === null || e.defaultPrevented) return;
              e.preventDefault();
              save(dropLesson(course.chapters, dragged, chapter.id, null));
              setDragged(null);
            }}
          >
            {chapter.lessons.map((lesson) => (
              <LessonRow
                key={lesson.id}
                lesson={lesson}
                encoder={encoder}
                first={all[0] === lesson.id}
                last={all[all.length - 1] === lesson.id}
                onMove={(step) => save(moveLesson(course.chapters, lesson.id, step))}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = "move";
                  setDragged(lesson.id);
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragged !== null && dragged !== lesson.id)
                    save(dropLesson(course.chapters, dragged, chapter.id, lesson.id));
                  setDragged(null);
                }}
              />
            ))}
          </ol>
          {adding === chapter.id ? (
            <LessonForm
              lesson={null}
              chapterId={chapter.id}
              encoder={encoder}
              onDone={() => {
                setAdding(null);
                refresh();
              }}
            />
          ) : (
            <button type="button" className="button button--small" onClick={() => setAdding(chapter.id)}>
              ＋ 添加课时
            </button>
          )}
        </div>
      ))}
      <form
        className="catalogue-add-chapter"
        aria-label="添加章节"
        onSubmit={(event) => {
          event.preventDefault();
          void action
            .run(
              () =>
                browserApi(`/api/admin/courses/${course.id}/chapters`, {
                  method: "POST",
                  body: { title: chapterTitle },
                }),
              { done: "章节已添加" },
            )
            .then((ok) => {
              if (ok) setChapterTitle("");
              refresh();
            });
        }}
      >
        <InputField label="新章节名称" value={chapterTitle} onChange={setChapterTitle} required maxLength={60} />
        <button type="submit" className="button button--small" disabled={action.busy}>
          添加章节
        </button>
      </form>
    </section>
  );
}
