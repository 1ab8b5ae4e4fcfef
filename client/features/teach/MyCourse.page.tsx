/** 一门课 (/teach/courses/:id): chapters and lessons; the teacher edits each lesson's notes and homework task. */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { type AdminLesson, adminCourseSchema } from "../../../shared/contracts/admin-courses";
import { formatDuration } from "../../../shared/format";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { FormAlert } from "../../components/form/FormAlert";
import { Field, TaskForm } from "../../components/staff/staff-kit";
import { useMutation } from "../../lib/mutation";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const course = await env.api(`/api/teach/courses/${params.id ?? ""}`, { signal, schema: adminCourseSchema });
  return { course, meta: { title: course.title, noindex: true } };
}

function LessonEditor({ lesson }: { lesson: AdminLesson }) {
  const [notes, setNotes] = useState(lesson.summary);
  const action = useMutation();
  const revalidator = useRevalidator();
  return (
    <li className="card staff-panel" data-testid="teach-lesson">
      <h3>
        {lesson.title} <small>{formatDuration(lesson.durationSeconds)}</small>
        {lesson.isTrial ? <span className="staff-badge staff-badge--on"> 试看</span> : null}
      </h3>
      <form
        className="staff-form"
        onSubmit={(event) => {
          event.preventDefault();
          void action
            .send(`/api/teach/lessons/${lesson.id}/notes`, {
              method: "PATCH",
              body: { summary: notes },
              done: "讲义已保存",
            })
            .then(() => revalidator.revalidate());
        }}
      >
        <Field label="课时讲义" wide>
          {(id) => (
            <textarea
              id={id}
              className="form-field__control"
              rows={3}
              value={notes}
              onChange={(e) => setNotes(e.target.value)}
            />
          )}
        </Field>
        <div className="staff-form__actions">
          <button type="submit" className="button button--small" disabled={action.busy}>
            保存讲义
          </button>
        </div>
      </form>
      <TaskForm
        label={`${lesson.title} · 课时作业`}
        task={lesson.task}
        busy={action.busy}
        onSave={(fields) =>
          void action
            .send(`/api/teach/lessons/${lesson.id}/task`, { method: "PUT", body: fields, done: "作业已保存" })
            .then(() => revalidator.revalidate())
        }
      />
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </li>
  );
}

export default function MyCoursePage() {
  const { course } = useLoaderData<typeof loader>();
  return (
    <Page title={course.title} lead={<Link to="/teach/courses">← 我的课程</Link>}>
      {course.chapters.length === 0 ? (
        <EmptyState glyph="章" title="这门课还没有章节" />
      ) : (
        course.chapters.map((chapter) => (
          <section key={chapter.id}>
            <h2 className="section-title">{chapter.title}</h2>
            {chapter.lessons.length === 0 ? (
              <p className="staff-message">本章还没有课时。</p>
            ) : (
              <ol className="staff-list">
                {chapter.lessons.map((lesson) => (
                  <LessonEditor key={lesson.id} lesson={lesson} />
                ))}
              </ol>
            )}
          </section>
        ))
      )}
    </Page>
  );
}
