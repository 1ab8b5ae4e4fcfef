/**
 * Closing unpaid orders: an order past its time (or a seat of a failed group) is closed only after
 * asking its provider whether it was paid after all — then it is credited instead. The close itself
 * is the order state machine's compare-and-set (closePending), so a learner, the order job and
 * another node racing close each order once, and stock, coupons and coins come back exactly once.
 */
import type { ApiContext } from "../../context";
import { gatewayFor } from "../../providers/payments/gateways";
import { closePending } from "../orders/state";
import { creditPayment } from "./payments";

const BATCH = 100;
export const EXPIRED_REASON = "超时未支付，订单已自动关闭";

/**
 * Closes an unpaid order after asking its provider whether it was paid after all (then it is
 * credited instead: "paid_late", or "paid" when that was known already). "kept" when the
 * provider did not answer (the next run asks again) or the order was no longer pending.
 */
export async function closeUnpaidOrder(
  ctx: ApiContext,
  order: { id: number; order_no: string; provider: string | null },
  reason: string,
  now: Date,
): Promise<"closed" | "paid_late" | "paid" | "kept"> {
  const gateway = order.provider ? gatewayFor(ctx, order.provider) : null;
  if (gateway) {
    try {
      const paid = await gateway.query(order.order_no);
      if (paid) {
        const outcome = await creditPayment(ctx, paid);
        if (outcome === "credited") return "paid_late";
        if (outcome === "replayed") return "paid";
      }
      await gateway.close(order.order_no);
    } catch (err) {
      // Without the provider's answer the order stays open until the next run.
      ctx.logger.warn({ err, orderNo: order.order_no }, "payment query before closing failed");
      return "kept";
    }
  }
  const closed = await ctx.database.db.transaction().execute((trx) => closePending(trx, order.id, reason, now));
  return closed ? "closed" : "kept";
}

/** Closes (a batch of) the pending orders past their time: the order numbers closed and those found paid late. */
export async function closeExpiredOrders(
  ctx: ApiContext,
  now: Date,
): Promise<{ closed: string[]; paidLate: string[] }> {
  const result = { closed: [] as string[], paidLate: [] as string[] };
  const expired = await ctx.database.db
    .selectFrom("orders")
    .select(["id", "order_no", "provider"])
    .where("state", "=", "pending")
    .where("expires_at", "<=", now)
    .orderBy("expires_at")
    .limit(BATCH)
    .execute();
  for (const order of expired) {
    const outcome = await closeUnpaidOrder(ctx, order, EXPIRED_REASON, now);
    if (outcome === "closed") result.closed.push(order.order_no);
    if (outcome === "paid_late") result.paidLate.push(order.order_no);
  }
  return result;
}
