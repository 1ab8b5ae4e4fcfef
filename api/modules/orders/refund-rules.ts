/** Whether an order may be refunded now (and why not, in plain words), and how many of its pieces are left to refund. */
import type { Selectable, Transaction } from "kysely";
import { REFUND_DAYS } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { DB, RefundsTable } from "../../db/schema";
import type { OrderRow } from "./state";

const DAY_MS = 86_400_000;

/** Whether the learner may ask for a refund now, and why not in plain words. */
export async function refundRule(
  ctx: ApiContext,
  order: OrderRow,
  now: Date,
  db: Pick<Transaction<DB>, "selectFrom"> = ctx.database.db,
): Promise<{ allowed: boolean; reason: string }> {
  const within = (from: Date | null) => from !== null && now.getTime() - from.getTime() <= REFUND_DAYS * DAY_MS;
  if (order.purpose === "gift")
    return { allowed: false, reason: "赠送的课程请在礼物信息中申请退款（领取期满仍未被领取时可退）" };
  if (order.purpose === "group" && order.state === "paid")
    return { allowed: false, reason: "拼团进行中，未能成团时会自动全额退款" };
  switch (order.state) {
    case "pending":
      return { allowed: false, reason: "订单尚未支付，可直接取消订单" };
    case "cancelled":
      return { allowed: false, reason: "订单已取消" };
    case "refunding":
      return { allowed: false, reason: "退款正在处理中" };
    case "refunded":
      return { allowed: false, reason: "订单已退款" };
    default:
      break;
  }
  if (!order.physical) {
    if (!within(order.paid_at)) return { allowed: false, reason: `已超过 ${REFUND_DAYS} 天退款期限，无法退款` };
    const consumed = await db
      .selectFrom("lesson_progress")
      .innerJoin("lessons", "lessons.id", "lesson_progress.lesson_id")
      .select("lesson_progress.lesson_id")
      .where("lesson_progress.user_id", "=", order.user_id)
      .where("lessons.course_id", "=", order.item_id)
      .limit(1)
      .executeTakeFirst();
    if (consumed) return { allowed: false, reason: "课程已开始学习，按退款规则不能再申请退款" };
    return { allowed: true, reason: `购买 ${REFUND_DAYS} 天内且未开始学习，可全额退款` };
  }
  if (order.state === "paid" || order.state === "awaiting_shipment")
    return { allowed: true, reason: "商品尚未发货，可全额退款" };
  if (order.state === "shipped") return { allowed: true, reason: `收货后 ${REFUND_DAYS} 天内可退货退款` };
  if (order.state === "completed" || (order.state === "partially_refunded" && order.completed_at)) {
    if (!within(order.completed_at)) return { allowed: false, reason: `已超过确认收货后 ${REFUND_DAYS} 天的退货期限` };
    return { allowed: true, reason: `确认收货 ${REFUND_DAYS} 天内可退货退款` };
  }
  return { allowed: false, reason: "当前状态不能申请退款" };
}

/** Pieces of a physical order not yet refunded (refunds in progress count as refunded). */
export function piecesLeft(order: OrderRow, refunds: Pick<Selectable<RefundsTable>, "state" | "quantity">[]): number {
  if (!order.physical) return order.refunded_cents > 0 ? 0 : order.quantity;
  const taken = refunds
    .filter((r) => r.state === "requested" || r.state === "processing" || r.state === "succeeded")
    .reduce((sum, r) => sum + (r.quantity ?? 0), 0);
  return Math.max(0, order.quantity - taken);
}
