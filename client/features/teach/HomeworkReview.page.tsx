/**
 * 批改作业 (/teach/homework/review?attempt=): the review canvas. Claiming is an action, so it
 * happens in the browser: with the claim the queue got when 开始批改 was pressed, else by
 * claiming on arrival (a reload extends the teacher's own claim). When another teacher holds
 * the work, or it was reviewed meanwhile, the teacher is told so back in the queue.
 */
import { useEffect, useState } from "react";
import { useLoaderData, useLocation, useNavigate } from "react-router-dom";
import { Link } from "../../routing/link";
import { z } from "zod";
import { claimResultSchema, type ClaimResult } from "../../../shared/contracts/homework";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import { EmptyState } from "../../components/EmptyState";
import { describeProblem } from "../../lib/problem";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ReviewWorkspace } from "./review/ReviewWorkspace";
import { claimAttempt } from "./review-queue";
import "./review/review.css";

const attemptIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export function loader({ request }: PageLoaderArgs) {
  const parsed = attemptIdSchema.safeParse(new URL(request.url).searchParams.get("attempt") ?? "");
  if (!parsed.success) throw new AppError(404, NOT_FOUND_MESSAGE);
  return { attemptId: parsed.data, meta: { title: "批改作业", noindex: true } };
}

const claimStateSchema = z.object({ claim: claimResultSchema });

/** Refusals that mean "not yours to review now": back to the queue with the API's own words. */
const GONE_CODES = new Set(["claimed_by_other", "assigned_to_other", "already_reviewed"]);

export default function HomeworkReviewPage() {
  const { attemptId } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const handed = claimStateSchema.safeParse(location.state);
  const [claim, setClaim] = useState<ClaimResult | null>(
    handed.success && handed.data.claim.attemptId === attemptId ? handed.data.claim : null,
  );
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (claim?.attemptId === attemptId) return;
    let cancelled = false;
    setClaim(null);
    setFailure(null);
    claimAttempt(attemptId)
      .then((c) => {
        if (!cancelled) setClaim(c);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        const problem = describeProblem(err);
        if (problem.code && GONE_CODES.has(problem.code)) {
          void navigate("/teach/homework", { replace: true, state: { notice: problem.message } });
        } else {
          setFailure(problem.statusCode === 404 ? "没有找到这份作业，它可能不在你任教的课程里。" : problem.message);
        }
      });
    return () => {
      cancelled = true;
    };
  }, [attemptId]); // eslint-disable-line react-hooks/exhaustive-deps -- claim once per attempt

  if (failure)
    return (
      <EmptyState
        glyph="批"
        title="这份作业现在打不开"
        action={
          <Link className="button" to="/teach/homework">
            回到批改队列
          </Link>
        }
      >
        <p>{failure}</p>
      </EmptyState>
    );
  if (!claim || claim.attemptId !== attemptId)
    return (
      <p className="review-loading" role="status">
        正在领取这份作业…
      </p>
    );
  return <ReviewWorkspace key={attemptId} claim={claim} onClaim={setClaim} />;
}
