/**
 * The order job, every 30 s on one node (the job registry claims each period), composed here from
 * the modules that own each step so none of them imports another's job: unpaid orders past their
 * time are closed — after asking the provider whether they were paid after all (then they are
 * credited instead) —, sandbox approvals whose notification was lost are settled, shipped orders
 * are confirmed 7 days after shipping; then the group job (expired groups fail and are refunded),
 * after the orders so that seats of expired orders are free before a group's deadline is judged.
 * Every change is still a compare-and-set, so a node and a learner (or two runs that meet) racing
 * move each order once, and stock and coupons come back exactly once.
 */
import type { ApiContext } from "../context";
import { runGroupJob } from "../modules/groups/job";
import { confirmShippedOrders } from "../modules/orders/receipts";
import { closeExpiredOrders } from "../modules/payments/expiry";
import { reconcileSandboxPayments } from "../modules/payments/reconcile";
import type { JobDefinition } from "./registry";

const ORDER_JOB_EVERY_MS = 30_000;

export interface OrderJobResult {
  closed: string[];
  paidLate: string[];
  /** Orders credited from a sandbox approval whose notification was lost. */
  reconciled: string[];
  confirmed: string[];
}

export async function runOrderJob(ctx: ApiContext): Promise<OrderJobResult> {
  const now = ctx.now();
  const { closed, paidLate } = await closeExpiredOrders(ctx, now);
  // After the expired ones, which asked the provider themselves: approvals for open orders and closed ones.
  const reconciled = (await reconcileSandboxPayments(ctx)).credited;
  const confirmed = await confirmShippedOrders(ctx, now);
  return { closed, paidLate, reconciled, confirmed };
}

/** The order job for the job registry: orders, then groups. */
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
