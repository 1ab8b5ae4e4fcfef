/**
 * Starting or joining a group: an order, then the payment page.
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { describeProblem, type Problem } from "../../lib/problem";
import { useIdempotentPost } from "../../lib/idempotent-post";

/** The answer's contract, loaded when a learner starts or joins a group (decision 030). */
const groupOrderResult = () =>
  Promise.all([import("../../../shared/contracts/groups"), import("../../../shared/contracts/orders")]).then(
    ([groups, orders]) => groups.groupOrderResultSchema(orders.orderDetailSchema),
  );

/**
 * Starting a group (`POST /api/groups`) or joining one (`POST /api/groups/{no}/join`), each with
 * an Idempotency-Key; the order it gives (new or the open one) is paid on /payment.
 */
export function useGroupOrder() {
  const navigate = useNavigate();
  const post = useIdempotentPost();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  async function run(path: string, body: unknown) {
    setBusy(true);
    setProblem(null);
    try {
      const { order } = await post(path, body, groupOrderResult());
      void navigate(`/payment?order=${order.orderNo}`);
    } catch (err) {
      setProblem(describeProblem(err));
      setBusy(false);
    }
  }
  return {
    busy,
    problem,
    start: (campaignId: number) => run("/api/groups", { campaignId }),
    join: (groupNo: string) => run(`/api/groups/${groupNo}/join`, {}),
  };
}
