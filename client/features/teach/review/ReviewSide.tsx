/** The side of the review: the task and earlier attempts, then the level, comment and actions. */
import { type ClaimResult, HOMEWORK_COMMENT_MAX } from "../../../../shared/contracts/homework";
import { LevelPicker, Phrases } from "./ReviewPanel";
import type { ReviewVerdict } from "./use-review-verdict";

type Attempt = ClaimResult["submission"]["attempts"][number];

export function ReviewSide({
  submission,
  attempt,
  verdict,
}: {
  submission: ClaimResult["submission"];
  attempt: Attempt;
  verdict: ReviewVerdict;
}) {
  return (
    <aside className="review__side" aria-label="评级与评语">
      <TaskCard submission={submission} attempt={attempt} />
      <LevelPicker level={verdict.level} onLevel={verdict.setLevel} />
      <div className="review-comment">
        <label htmlFor="review-comment">评语</label>
        <textarea
          id="review-comment"
          ref={verdict.commentRef}
          rows={6}
          maxLength={HOMEWORK_COMMENT_MAX}
          value={verdict.comment}
          onChange={(e) => verdict.setComment(e.target.value)}
          placeholder="写给学员的话：哪里写得好，哪一笔要再练。"
        />
        <p className="review-count">
          {verdict.comment.length} / {HOMEWORK_COMMENT_MAX}
        </p>
      </div>
      <Phrases onInsert={verdict.insertPhrase} />
      {verdict.problem ? (
        <p className="login-alert" role="alert">
          {verdict.problem}
        </p>
      ) : null}
      <ReviewActions verdict={verdict} />
    </aside>
  );
}

/** The model characters, the task's instructions, the learner's note and what became of earlier attempts. */
function TaskCard({ submission, attempt }: { submission: ClaimResult["submission"]; attempt: Attempt }) {
  const earlier = submission.attempts.filter((a) => a.number < attempt.number);
  return (
    <div className="review-task">
      <p className="review-task__chars" lang="zh-CN">
        范字：<span>{submission.task.characters || "—"}</span>
      </p>
      {submission.task.instructions ? <p>{submission.task.instructions}</p> : null}
      {attempt.note ? <p className="review-task__note">学员留言：{attempt.note}</p> : null}
      {earlier.length > 0 ? (
        <details className="review-task__history">
          <summary>之前的 {earlier.length} 次提交</summary>
          <ul>
            {earlier.map((a) => (
              <li key={a.id}>
                第 {a.number} 次 · {a.stateLabel}
                {a.review?.returnReason
                  ? `：${a.review.returnReason}`
                  : a.review?.levelLabel
                    ? `：${a.review.levelLabel}`
                    : ""}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function ReviewActions({ verdict }: { verdict: ReviewVerdict }) {
  const { saving, save, setReturning, giveBack } = verdict;
  return (
    <div className="review-actions">
      <button type="button" className="button button--primary" disabled={saving} onClick={() => void save(true)}>
        {saving ? "保存中…" : "保存并批改下一份"}
      </button>
      <button type="button" className="button" disabled={saving} onClick={() => void save(false)}>
        保存
      </button>
      <button type="button" className="button" onClick={() => setReturning(true)}>
        退回重写
      </button>
      <button type="button" className="text-button" onClick={() => void giveBack()}>
        放弃批改
      </button>
    </div>
  );
}
