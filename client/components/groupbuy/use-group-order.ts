/**
 * Starting or joining a group: an order, then the payment page.
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useMutation } from "../../lib/mutation";

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
  const order = useMutation({ idempotent: true });
  // Busy until the payment page shows.
  const [leaving, setLeaving] = useState(false);
  const run = (path: string, body: unknown) =>
    order.send(path, {
      body,
      schema: groupOrderResult(),
      onSuccess: ({ order: created }) => {
        setLeaving(true);
        void navigate(`/payment?order=${created.orderNo}`);
      },
    });
  return {
    busy: order.busy || leaving,
    problem: order.problem,
    start: (campaignId: number) => run("/api/groups", { campaignId }),
    join: (groupNo: string) => run(`/api/groups/${groupNo}/join`, {}),
  };
}
