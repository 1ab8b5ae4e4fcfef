/** The review's heading: whose work, which attempt, and how long the claim still holds. */
import { useNavigate } from "react-router-dom";
import { Link } from "../../../routing/link";
import type { ClaimResult } from "../../../../shared/contracts/homework";
import { formatCountdown, formatDateTime, formatTime } from "../../../../shared/format";
import { useCountdown } from "../../../lib/countdown";
import { describeProblem } from "../../../lib/problem";
import { claimAttempt } from "../review-queue";

type Attempt = ClaimResult["submission"]["attempts"][number];

const browserClock = () => Date.now();

export function ReviewHeader({
  claim,
  attempt,
  onClaim,
}: {
  claim: ClaimResult;
  attempt: Attempt;
  onClaim: (c: ClaimResult) => void;
}) {
  const { submission } = claim;
  return (
    <header className="review__head">
      <div>
        <p className="review__crumbs">
          <Link to="/teach/homework">批改队列</Link> / {submission.task.courseTitle} · {submission.task.lessonTitle}
        </p>
        <h1 className="review__title">
          {submission.learner} · {submission.task.title}
          <span className="review__attempt">第 {attempt.number} 次提交</span>
        </h1>
        <p className="review__meta">提交于 {formatDateTime(attempt.submittedAt)}</p>
      </div>
      <ClaimStatus claim={claim} onClaim={onClaim} />
    </header>
  );
}

/** The time left on the claim; once it lapses, a button to claim the attempt again. */
function ClaimStatus({ claim, onClaim }: { claim: ClaimResult; onClaim: (c: ClaimResult) => void }) {
  const navigate = useNavigate();
  const claimLeft = useCountdown(claim.claimUntil, browserClock);
  return (
    <p className={`review__claim${claimLeft === 0 ? " is-expired" : ""}`} role="status">
      {claimLeft > 0 ? (
        <>
          为你保留至 {formatTime(claim.claimUntil)}（还剩 {formatCountdown(claimLeft)}）
        </>
      ) : (
        <>
          领取已过期，其他老师可能会领取。
          <button
            type="button"
            className="text-button"
            onClick={() => {
              claimAttempt(claim.attemptId)
                .then(onClaim)
                .catch((err: unknown) =>
                  navigate("/teach/homework", { state: { notice: describeProblem(err).message } }),
                );
            }}
          >
            重新领取
          </button>
        </>
      )}
    </p>
  );
}
