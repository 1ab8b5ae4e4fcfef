/**
 * 直播管理 (/admin/live/:id, and /admin/live/new): schedule a session; for one that exists the
 * stream key and go-live check, moving it, the teacher, cancelling, the recording with chapter
 * marks, the pinned message and the chat (hide, mute).
 */
import { useState } from "react";
import { useLoaderData, useNavigate, useRevalidator } from "react-router-dom";
import { Link } from "../../../routing/link";
import { teacherOptionsSchema } from "../../../../shared/contracts/admin-courses";
import { type AdminLive, adminLiveSchema } from "../../../../shared/contracts/admin-live";
import { liveStates } from "../../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../../shared/format";
import { sampleVideoKeys, sampleVideos } from "../../../../shared/media";
import { Page } from "../../../components/Page";
import {
  ChatModeration,
  IngestPanel,
  MoveForm,
  PinForm,
  isoOfLocalInput,
} from "../../../components/staff/live-controls";
import { FormAlert } from "../../../components/form/FormAlert";
import { Field } from "../../../components/staff/staff-kit";
import { useMutation } from "../../../lib/mutation";
import type { PageLoaderArgs } from "../../../routing/nav-context";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const [teachers, live] = await Promise.all([
    env.api("/api/admin/teachers", { signal, schema: teacherOptionsSchema }),
    params.id ? env.api(`/api/admin/live/${params.id}`, { signal, schema: adminLiveSchema }) : Promise.resolve(null),
  ]);
  return { teachers: teachers.teachers, live, meta: { title: live ? live.title : "排一场直播", noindex: true } };
}

type Teachers = Awaited<ReturnType<typeof loader>>["teachers"];

/** 授课老师: one of the teachers, by id. */
function TeacherField({
  teachers,
  value,
  onChange,
}: {
  teachers: Teachers;
  value: string;
  onChange: (id: string) => void;
}) {
  return (
    <Field label="授课老师">
      {(id) => (
        <select id={id} className="form-field__control" value={value} onChange={(e) => onChange(e.target.value)}>
          {teachers.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function ScheduleForm({ teachers }: { teachers: Teachers }) {
  const [title, setTitle] = useState("");
  const [summary, setSummary] = useState("");
  const [courseId, setCourseId] = useState("");
  const [teacherId, setTeacherId] = useState(String(teachers[0]?.id ?? ""));
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const [coverChar, setCoverChar] = useState("");
  const [isOpen, setIsOpen] = useState(false);
  const action = useMutation();
  const navigate = useNavigate();
  return (
    <form
      className="staff-form card staff-panel"
      aria-label="排一场直播"
      onSubmit={(event) => {
        event.preventDefault();
        void action.send("/api/admin/live", {
          schema: adminLiveSchema,
          body: {
            title,
            summary,
            courseId: courseId ? Number(courseId) : null,
            teacherId: Number(teacherId),
            startsAt: startsAt ? isoOfLocalInput(startsAt) : "",
            endsAt: endsAt ? isoOfLocalInput(endsAt) : "",
            coverChar,
            isOpen,
          },
          onSuccess: (live) => void navigate(`/admin/live/${live.id}`),
        });
      }}
    >
      <Field label="直播标题" error={action.errors.title}>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            maxLength={60}
          />
        )}
      </Field>
      <TeacherField teachers={teachers} value={teacherId} onChange={setTeacherId} />
      <Field label="关联课程编号" hint="报名这门课的学员可以进入；不填为公开课">
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            inputMode="numeric"
            value={courseId}
            onChange={(e) => setCourseId(e.target.value)}
          />
        )}
      </Field>
      <Field label="开始时间（北京时间）" error={action.errors.startsAt}>
        {(id) => (
          <input
            id={id}
            type="datetime-local"
            className="form-field__control"
            value={startsAt}
            onChange={(e) => setStartsAt(e.target.value)}
            required
          />
        )}
      </Field>
      <Field label="结束时间（北京时间）" error={action.errors.endsAt}>
        {(id) => (
          <input
            id={id}
            type="datetime-local"
            className="form-field__control"
            value={endsAt}
            onChange={(e) => setEndsAt(e.target.value)}
            required
          />
        )}
      </Field>
      <Field label="封面字">
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={coverChar}
            onChange={(e) => setCoverChar(e.target.value)}
            required
            maxLength={2}
          />
        )}
      </Field>
      <Field label="公开">
        {(id) => (
          <label>
            <input id={id} type="checkbox" checked={isOpen} onChange={(e) => setIsOpen(e.target.checked)} /> 所有人可看
          </label>
        )}
      </Field>
      <Field label="简介" wide>
        {(id) => (
          <textarea
            id={id}
            className="form-field__control"
            rows={2}
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          排期
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}

function TeacherAndCancel({ live, teachers }: { live: AdminLive; teachers: Teachers }) {
  const [teacherId, setTeacherId] = useState(String(live.teacherId));
  const [reason, setReason] = useState("");
  const action = useMutation();
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  const open = live.state === "scheduled" || live.state === "live";
  return (
    <section className="card staff-panel" aria-labelledby="teacher-title">
      <h2 id="teacher-title">老师与取消</h2>
      <div className="staff-form">
        <TeacherField teachers={teachers} value={teacherId} onChange={setTeacherId} />
        <div className="staff-form__actions">
          <button
            type="button"
            className="button button--small"
            disabled={action.busy || Number(teacherId) === live.teacherId}
            onClick={() =>
              void action
                .send(`/api/admin/live/${live.id}`, {
                  method: "PATCH",
                  body: { teacherId: Number(teacherId) },
                  done: "已更换老师",
                })
                .then(refresh)
            }
          >
            指派老师
          </button>
        </div>
        {open ? (
          <>
            <Field label="取消原因（会告知学员）" wide>
              {(id) => (
                <input
                  id={id}
                  className="form-field__control"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  maxLength={200}
                />
              )}
            </Field>
            <div className="staff-form__actions">
              <button
                type="button"
                className="button button--small"
                disabled={action.busy}
                onClick={() => {
                  if (window.confirm(`取消直播“${live.title}”？将通知 ${live.audience} 位学员。`))
                    void action
                      .send(`/api/admin/live/${live.id}/cancel`, { body: { reason }, done: "已取消，已通知学员" })
                      .then(refresh);
                }}
              >
                取消直播
              </button>
            </div>
          </>
        ) : null}
      </div>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </section>
  );
}

function RecordingForm({ live }: { live: AdminLive }) {
  const [videoKey, setVideoKey] = useState(live.recordingVideoKey ?? sampleVideoKeys[0]);
  const [marks, setMarks] = useState(live.chapterMarks.map((m) => `${m.at} ${m.title}`).join("\n"));
  const action = useMutation();
  const revalidator = useRevalidator();
  const over = live.state === "ended" || live.state === "processing" || live.state === "replay";
  if (!over) return <p className="staff-message">直播结束后可以挂上录像作为回放。</p>;
  return (
    <form
      className="staff-form"
      aria-label="回放"
      onSubmit={(event) => {
        event.preventDefault();
        const chapterMarks = marks
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
          .map((line) => {
            const [at, ...title] = line.split(/\s+/);
            return { at: Number(at), title: title.join(" ") };
          });
        void action
          .send(`/api/admin/live/${live.id}/recording`, {
            method: "PUT",
            body: { videoKey, chapterMarks },
            done: "回放已上线",
          })
          .then(() => revalidator.revalidate());
      }}
    >
      <Field label="录像">
        {(id) => (
          <select
            id={id}
            className="form-field__control"
            value={videoKey}
            onChange={(e) => setVideoKey(e.target.value as typeof videoKey)}
          >
            {sampleVideoKeys.map((k) => (
              <option key={k} value={k}>
                {sampleVideos[k].title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="章节标记" hint="每行一个：秒数 标题，如“12 起笔”" wide>
        {(id) => (
          <textarea
            id={id}
            className="form-field__control"
            rows={3}
            value={marks}
            onChange={(e) => setMarks(e.target.value)}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          保存回放
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}

export default function LiveEditPage() {
  const { live, teachers } = useLoaderData<typeof loader>();
  if (!live)
    return (
      <Page title="排一场直播" lead={<Link to="/admin/live">← 直播排期</Link>}>
        <ScheduleForm teachers={teachers} />
      </Page>
    );
  const base = `/api/admin/live/${live.id}`;
  return (
    <Page
      title={live.title}
      lead={
        <>
          <Link to="/admin/live">← 直播排期</Link> · {liveStates[live.state]} · {live.teacherName} ·{" "}
          <time dateTime={live.startsAt}>{formatDateTime(live.startsAt)}</time> 开始 · {live.bookings} 人预约 ·{" "}
          <Link className="text-link" to={`/live/${live.id}`}>
            直播页
          </Link>
        </>
      }
    >
      <IngestPanel live={live} />
      <section className="card staff-panel" aria-labelledby="move-title">
        <h2 id="move-title">直播时间</h2>
        <MoveForm live={live} endpoint={base} method="PATCH" />
      </section>
      <TeacherAndCancel key={`${live.teacherId}-${live.state}`} live={live} teachers={teachers} />
      <section className="card staff-panel" aria-labelledby="recording-title">
        <h2 id="recording-title">回放</h2>
        <RecordingForm key={live.recordingVideoKey ?? ""} live={live} />
      </section>
      <section className="card staff-panel" aria-labelledby="pin-title">
        <h2 id="pin-title">置顶消息</h2>
        <PinForm key={live.pinnedMessage ?? ""} live={live} endpoint={`${base}/pin`} />
      </section>
      <ChatModeration base={base} canHide />
    </Page>
  );
}
