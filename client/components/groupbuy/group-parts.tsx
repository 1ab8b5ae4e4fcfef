/**
 * What the course page's group-buy dialog and the group page share: the answer of starting or
 * joining a group, a member's avatar, the time a group has left on the server's clock, and
 * starting or joining (an order, then the payment page).
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { GroupPerson } from "../../../shared/contracts/groups";
import { formatCountdown } from "../../../shared/format";
import { useCountdown } from "../../lib/countdown";
import "../commerce/commerce.css";
import "./groupbuy.css";
import { useMutation } from "../../lib/mutation";

/** The answer's contract, loaded when a learner starts or joins a group (decision 030). */
const groupOrderResult = () =>
  Promise.all([import("../../../shared/contracts/groups"), import("../../../shared/contracts/orders")]).then(
    ([groups, orders]) => groups.groupOrderResultSchema(orders.orderDetailSchema),
  );

/** Time left until `expiresAt` on the server's clock, ticking every second. */
export function TimeLeft({ expiresAt, serverNow, label }: { expiresAt: string; serverNow: string; label?: string }) {
  const left = useCountdown(expiresAt, serverNow);
  return (
    <span className="group-time" role="timer" aria-live="off">
      {label ? <span className="group-time__label">{label}</span> : null}
      <strong data-testid="group-countdown">{left > 0 ? formatCountdown(left) : "已到期"}</strong>
    </span>
  );
}

/** A member's avatar, or their initial on the seal colour when they have none. */
export function GroupAvatar({ person, size = 48 }: { person: GroupPerson; size?: number }) {
  if (person.avatarUrl) {
    return (
      <img
        className="group-avatar"
        src={person.avatarUrl}
        alt={`${person.nickname}的头像`}
        width={size}
        height={size}
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      className="group-avatar group-avatar--initial"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42) }}
      role="img"
      aria-label={`${person.nickname}的头像`}
    >
      {[...person.nickname][0] ?? "墨"}
    </span>
  );
}

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
