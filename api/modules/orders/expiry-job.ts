/**
 * The order job, every 30 s on one node (the job registry claims each period): closes unpaid
 * orders past their time — after asking the provider whether they were paid after all (then they
 * are credited instead) —, settles sandbox approvals whose notification was lost
 * (reconcileSandboxPayments), confirms receipt of shipped orders 7 days after shipping, and
 * returns exchange redemptions a crash left half done; then the group job (expired groups fail
 * and are refunded). Every change is still a compare-and-set, so a node and a learner (or two
 * runs that meet) racing move each order once, and stock and coupons come back exactly once.
 */
import { AUTO_CONFIRM_DAYS } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { JobDefinition } from "../../jobs/registry";
import { registerPaymentSettings, type PaymentSettings } from "../../providers/payments/settings";
import { runGroupJob } from "../groups/job";
import { gatewayFor } from "../../providers/payments/gateways";
import { creditPayment } from "../payments/payments";
import { reconcileSandboxPayments } from "../payments/reconcile";
import { sweepStaleRedemptions } from "../wallet/wallet";
import { closePending, moveOrder } from "./state";

export const ORDER_JOB_EVERY_MS = 30_000;
const BATCH = 100;

export interface OrderJobResult {
  closed: string[];
  paidLate: string[];
  /** Orders credited from a sandbox approval whose notification was lost. */
  reconciled: string[];
  confirmed: string[];
  /** Exchange redemptions left pending by a crash, failed and returned. */
  redemptionsReturned: number[];
}

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

export async function runOrderJob(ctx: ApiContext): Promise<OrderJobResult> {
  const now = ctx.now();
  const { db } = ctx.database;
  const result: OrderJobResult = { closed: [], paidLate: [], reconciled: [], confirmed: [], redemptionsReturned: [] };

  const expired = await db
    .selectFrom("orders")
    .select(["id", "order_no", "provider"])
    .where("state", "=", "pending")
    .where("expires_at", "<=", now)
    .orderBy("expires_at")
    .limit(BATCH)
    .execute();
  for (const order of expired) {
    const outcome = await closeUnpaidOrder(ctx, order, "超时未支付，订单已自动关闭", now);
    if (outcome === "closed") result.closed.push(order.order_no);
    if (outcome === "paid_late") result.paidLate.push(order.order_no);
  }
  // After the expired ones, which asked the provider themselves: approvals for open orders and closed ones.
  result.reconciled = (await reconcileSandboxPayments(ctx)).credited;

  const due = new Date(now.getTime() - AUTO_CONFIRM_DAYS * 86_400_000);
  const shipped = await db
    .selectFrom("orders")
    .select(["id", "order_no"])
    .where("state", "=", "shipped")
    .where("shipped_at", "<=", due)
    .limit(BATCH)
    .execute();
  for (const order of shipped) {
    const done = await db
      .transaction()
      .execute((trx) => moveOrder(trx, order.id, "shipped", "completed", { completed_at: now, at: now }));
    if (done) result.confirmed.push(order.order_no);
  }
  result.redemptionsReturned = await sweepStaleRedemptions(ctx);
  return result;
}

/** Registers the payment settings for this context (the job and the payment endpoints read them). */
export function configurePayments(ctx: ApiContext, settings: PaymentSettings) {
  registerPaymentSettings(ctx, settings);
  if (settings.provider === "sandbox" && ctx.settings.production) {
    ctx.logger.warn("payments go to the built-in sandbox (no real money): set PAYMENT_PROVIDER and its credentials");
  }
  if (settings.provider === "none") {
    ctx.logger.warn(
      "buying is switched off: no payment provider configured; set PAYMENT_PROVIDER=wechat with the WECHATPAY_* variables or PAYMENT_PROVIDER=alipay with the ALIPAY_* variables",
    );
  }
}

/** The order job for the job registry: orders, then groups (seats of expired orders are free before a group's deadline is judged). */
export const orderJob: JobDefinition = {
  name: "orders",
  everyMs: ORDER_JOB_EVERY_MS,
  async run(ctx) {
    const orders = await runOrderJob(ctx);
    const groups = await runGroupJob(ctx);
    if (groups.failed.length || groups.refunded.length || groups.refundsFailed.length)
      ctx.logger.info({ groups }, "group job");
    return { orders, groups };
  },
};
