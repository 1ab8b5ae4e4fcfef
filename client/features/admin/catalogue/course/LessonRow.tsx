/** One lesson of the outline: drag handle, ↑/↓, delete, and (opened) its form and homework task. */
import { type DragEvent, useState } from "react";
import { useRevalidator } from "react-router-dom";
import type { AdminLesson, EncoderStatus } from "../../../../../shared/contracts/admin-catalogue";
import { formatDuration } from "../../../../../shared/format";
import { TaskForm } from "../../../../components/staff/staff-kit";
import { FormAlert } from "../../../../components/form/FormAlert";
import { useMutation } from "../../../../lib/mutation";
import { browserApi } from "../../../../lib/api";
import { LessonForm } from "./LessonEditor";

export function LessonRow({
  lesson,
  encoder,
  onMove,
  onDragStart,
  onDrop,
  first,
  last,
}: {
  lesson: AdminLesson;
  encoder: EncoderStatus;
  onMove: (step: -1 | 1) => void;
  onDragStart: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
  first: boolean;
  last: boolean;
}) {
  const [open, setOpen] = useState(false);
  const action = useMutation();
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  return (
    <li
      className="catalogue-lesson"
      draggable
      onDragStart={onDragStart}
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
      data-testid="outline-lesson"
    >
      <div className="catalogue-lesson__row">
        <span className="catalogue-grip" aria-hidden="true">
          ⋮⋮
        </span>
        <span className="catalogue-lesson__title">{lesson.title}</span>
        <small>{formatDuration(lesson.durationSeconds)}</small>
        {lesson.isTrial ? <span className="staff-badge staff-badge--on">试看</span> : null}
        {lesson.task ? <span className="staff-badge">作业</span> : null}
        <span className="catalogue-lesson__tools">
          <button
            type="button"
            className="button button--small"
            aria-label={`上移 ${lesson.title}`}
            disabled={first}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={`下移 ${lesson.title}`}
            disabled={last}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button
            type="button"
            className="button button--small"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? "收起" : "编辑"}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={action.busy}
            onClick={() => {
              if (window.confirm(`删除课时“${lesson.title}”？`))
                void action
                  .run(() => browserApi(`/api/admin/lessons/${lesson.id}`, { method: "DELETE" }))
                  .then(refresh);
            }}
          >
            删除
          </button>
        </span>
      </div>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
      {open ? (
        <div className="catalogue-lesson__edit">
          {/* A new video (an upload transcoded) starts the form again from the lesson as saved. */}
          <LessonForm
            key={lesson.videoUrl ?? lesson.videoKey}
            lesson={lesson}
            chapterId={lesson.chapterId}
            encoder={encoder}
            onDone={refresh}
          />
          <h4>课时作业</h4>
          <TaskForm
            task={lesson.task}
            busy={action.busy}
            onSave={(fields) =>
              void action
                .run(() => browserApi(`/api/admin/lessons/${lesson.id}/task`, { method: "PUT", body: fields }), {
                  done: "作业已保存",
                })
                .then(refresh)
            }
            onDelete={() =>
              void action
                .run(() => browserApi(`/api/admin/lessons/${lesson.id}/task`, { method: "DELETE" }))
                .then(refresh)
            }
          />
        </div>
      ) : null}
    </li>
  );
}
