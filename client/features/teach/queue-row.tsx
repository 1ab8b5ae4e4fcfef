/** One attempt in the queue: who, what, how long it waited, who holds it, and what a teacher can do. */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { type Queue, type QueueItem } from "../../../shared/contracts/homework";
import { formatDateTime, formatTime } from "../../../shared/format";
import { browserApi } from "../../lib/api";
import { describeProblem } from "../../lib/problem";
import { queueItemSchema } from "../../../shared/contracts/homework";
import { formatWaiting, OVERDUE_MINUTES } from "./teach-format";
import { claimAttempt, reviewHref } from "./review-queue";

/** Claims the attempt and opens the canvas with the claim it got (no second claim on arrival). */
export function useStartReview() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ attemptId: string; message: string } | null>(null);
  async function start(attemptId: string) {
    setBusy(attemptId);
    setError(null);
    try {
      const claim = await claimAttempt(attemptId);
      await navigate(reviewHref(attemptId), { state: { claim } });
    } catch (err) {
      setError({ attemptId, message: describeProblem(err).message });
    } finally {
      setBusy(null);
    }
  }
  return { start, busy, error };
}

function ClaimNote({ item }: { item: QueueItem }) {
  if (item.state !== "waiting") return null;
  if (item.claimedByMe && item.claimUntil)
    return (
      <span className="queue-item__claim queue-item__claim--mine">
        我正在批改 · 保留至 {formatTime(item.claimUntil)}
      </span>
    );
  if (item.claimedBy)
    return (
      <span className="queue-item__claim">
        {item.claimedBy} 正在批改{item.claimUntil ? ` · 保留至 ${formatTime(item.claimUntil)}` : ""}
      </span>
    );
  return null;
}

export function QueueRow({
  item,
  teachers,
  operator,
  onStart,
  starting,
  error,
  onAssigned,
}: {
  item: QueueItem;
  teachers: Queue["teachers"];
  operator: boolean;
  onStart: (attemptId: string) => void;
  starting: boolean;
  error: string | null;
  onAssigned: () => void;
}) {
  const heldByOther = item.state === "waiting" && Boolean(item.claimedBy) && !item.claimedByMe;
  const overdue = item.state === "waiting" && item.waitingMinutes >= OVERDUE_MINUTES;
  return (
    <li className="queue-item" data-attempt={item.attemptId}>
      <img
        className="queue-item__thumb"
        src={item.thumbUrl}
        alt={`${item.learner}的作业`}
        width={96}
        height={96}
        loading="lazy"
      />
      <div className="queue-item__main">
        <p className="queue-item__who">
          <strong>{item.learner}</strong>
          <span>第 {item.number} 次提交</span>
          <span>{item.photos} 张照片</span>
        </p>
        <p className="queue-item__what">
          {item.courseTitle} · {item.lessonTitle} · {item.taskTitle}
        </p>
        <p className="queue-item__when">
          {item.state === "waiting" ? (
            <span className={`queue-item__wait${overdue ? " is-overdue" : ""}`}>
              {formatWaiting(item.waitingMinutes)}
            </span>
          ) : (
            <span className="queue-item__done">{item.state === "reviewed" ? "已批改" : "已退回重写"}</span>
          )}
          <span>提交于 {formatDateTime(item.submittedAt)}</span>
          <ClaimNote item={item} />
          {item.assignedTo ? <span className="queue-item__claim">已分配给 {item.assignedTo}</span> : null}
        </p>
        {error ? (
          <p className="queue-item__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="queue-item__actions">
        {item.state === "waiting" ? (
          <button
            type="button"
            className="button button--primary button--small"
            disabled={starting || heldByOther}
            onClick={() => onStart(item.attemptId)}
          >
            {starting ? "正在领取…" : item.claimedByMe ? "继续批改" : "开始批改"}
          </button>
        ) : null}
        {operator && item.state === "waiting" ? (
          <AssignForm item={item} teachers={teachers} onAssigned={onAssigned} />
        ) : null}
      </div>
    </li>
  );
}

/** Operators give an attempt to one of the course's teachers (who then holds its claim). */
function AssignForm({
  item,
  teachers,
  onAssigned,
}: {
  item: QueueItem;
  teachers: Queue["teachers"];
  onAssigned: () => void;
}) {
  const candidates = teachers.filter((t) => t.courseIds.includes(item.courseId));
  const [teacherId, setTeacherId] = useState("");
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  const selectId = `assign-${item.attemptId}`;
  if (candidates.length === 0) return <p className="queue-item__hint">这门课还没有可分配的老师</p>;
  return (
    <form
      className="queue-assign"
      onSubmit={(e) => {
        e.preventDefault();
        if (!teacherId) return;
        setState({ busy: true, message: null });
        browserApi(`/api/teach/homework/attempts/${encodeURIComponent(item.attemptId)}/assign`, {
          method: "POST",
          body: { teacherId: Number(teacherId) },
          schema: queueItemSchema,
        })
          .then(() => {
            setState({ busy: false, message: null });
            onAssigned();
          })
          .catch((err: unknown) => setState({ busy: false, message: describeProblem(err).message }));
      }}
    >
      <label className="visually-hidden" htmlFor={selectId}>
        分配给哪位老师
      </label>
      <select id={selectId} value={teacherId} onChange={(e) => setTeacherId(e.target.value)}>
        <option value="">选择老师</option>
        {candidates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.nickname}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--small" disabled={!teacherId || state.busy}>
        {state.busy ? "分配中…" : "分配"}
      </button>
      {state.message ? (
        <span className="queue-item__error" role="alert">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
