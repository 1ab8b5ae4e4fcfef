/**
 * 本课作业 on the lesson page: what to write (the model characters in the brush hand), how many
 * photos, and for an enrolled learner 交作业, or 查看批改 / 重新提交 once there is work.
 */
import { useState } from "react";
import { Link } from "../../routing/link";
import type { HomeworkSubmission, LessonHomework } from "../../../shared/contracts/homework";
import { ModelCharacter } from "../../components/homework/ModelCharacter";
import { LazyReviewDialog } from "../../components/homework/LazyReviewDialog";
import { LazySubmitDialog as SubmitDialog } from "../../components/homework/LazySubmitDialog";

export function LessonHomeworkPanel({ homework, signedIn }: { homework: LessonHomework; signedIn: boolean }) {
  const { task, canSubmit } = homework;
  const [submission, setSubmission] = useState<HomeworkSubmission | null>(homework.submission);
  const [submitting, setSubmitting] = useState(false);
  const [viewing, setViewing] = useState(false);
  const [justSubmitted, setJustSubmitted] = useState(false);
  if (!task) return null;

  const mayHandIn = submission ? submission.resubmit.allowed : canSubmit.allowed;
  const why = submission ? submission.resubmit.reason : canSubmit.reason;
  const attemptNumber = (submission?.attempts.length ?? 0) + 1;

  return (
    <section className="lesson-homework" aria-labelledby="lesson-homework-title">
      <div className="lesson-homework__head">
        <h2 className="section-title" id="lesson-homework-title">
          本课作业
        </h2>
        {submission ? <span className={`hw-state hw-state--${submission.state}`}>{submission.stateLabel}</span> : null}
      </div>
      <p className="lesson-homework__title">{task.title}</p>
      {task.instructions ? <p className="lesson-homework__text">{task.instructions}</p> : null}
      {task.characters ? (
        <div className="lesson-homework__models" role="group" aria-label="范字">
          {Array.from(task.characters).map((character, i) => (
            <ModelCharacter key={i} character={character} size={72} />
          ))}
        </div>
      ) : null}
      <p className="lesson-homework__meta">
        拍 1–{task.maxPhotos} 张照片上传 · 最多提交 {task.maxAttempts} 次 · 老师会圈点批注、评级并写评语
      </p>
      {justSubmitted ? (
        <p className="lesson-homework__done" role="status">
          作业已提交，老师批改后会通知你。可以在 <Link to="/my/homework">我的作业</Link> 里查看。
        </p>
      ) : null}
      <div className="lesson-homework__actions">
        {submission ? (
          <button type="button" className="button" onClick={() => setViewing(true)}>
            {submission.attempts.some((a) => a.review) ? "查看批改" : "查看我的作业"}
          </button>
        ) : null}
        {mayHandIn ? (
          <button type="button" className="button button--primary" onClick={() => setSubmitting(true)}>
            {submission ? "重新提交" : "交作业"}
          </button>
        ) : !signedIn ? (
          <Link className="button button--primary" to="?login=1">
            登录后交作业
          </Link>
        ) : why && submission?.state !== "waiting" ? (
          <span className="lesson-homework__why">{why}</span>
        ) : null}
      </div>

      <SubmitDialog
        open={submitting}
        onClose={() => setSubmitting(false)}
        task={task}
        attemptNumber={attemptNumber}
        onSubmitted={(next) => {
          setSubmission(next);
          setSubmitting(false);
          setJustSubmitted(true);
        }}
      />
      <LazyReviewDialog
        submission={viewing ? submission : null}
        onClose={() => setViewing(false)}
        onResubmit={
          submission?.resubmit.allowed
            ? () => {
                setViewing(false);
                setSubmitting(true);
              }
            : undefined
        }
      />
    </section>
  );
}
