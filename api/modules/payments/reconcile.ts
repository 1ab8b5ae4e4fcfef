/**
 * Sandbox approvals whose signed notification never arrived (the process died between the payer
 * approving and the notification being processed) are settled here, once at start and on every
 * run of the order job: credited to their order, or refunded when the order can no longer take
 * them (closed, or paid another way). Crediting is the same compare-and-set as a notification's —
 * one payment row per (provider, txn id), the order moved pending → paid in that transaction —
 * so two nodes reconciling at once, or a reconciler racing a late notification, credit once.
 */
import type { ApiContext } from "../../context";
import { creditPayment, type CreditOutcome, settleSandboxApproval } from "./payments";

const BATCH = 100;

export interface ReconcileResult {
  /** Orders paid by an approval whose notification was lost. */
  credited: string[];
  /** Approvals that arrived for an order that could no longer be paid, refunded. */
  refunded: string[];
  /** Approvals that cannot be credited (order gone, amount changed): left for an operator. */
  setAside: string[];
}

export async function reconcileSandboxPayments(ctx: ApiContext): Promise<ReconcileResult> {
  const result: ReconcileResult = { credited: [], refunded: [], setAside: [] };
  const approvals = await ctx.database.db
    .selectFrom("payment_sandbox")
    .select(["order_no", "txn_id", "amount_cents", "currency"])
    .where("state", "=", "approved")
    .where("settled_at", "is", null)
    .where("txn_id", "is not", null)
    .orderBy("decided_at")
    .limit(BATCH)
    .execute();
  for (const approval of approvals) {
    const txnId = approval.txn_id ?? "";
    const outcome: CreditOutcome = await creditPayment(ctx, {
      provider: "sandbox",
      orderNo: approval.order_no,
      txnId,
      amountCents: approval.amount_cents,
      currency: approval.currency,
    });
    if (outcome === "credited") result.credited.push(approval.order_no);
    else if (outcome === "refunded_late") result.refunded.push(approval.order_no);
    else if (outcome === "unknown_order" || outcome === "amount_mismatch") {
      result.setAside.push(approval.order_no);
      ctx.logger.warn({ orderNo: approval.order_no, txnId, outcome }, "sandbox approval cannot be credited");
    }
    await settleSandboxApproval(ctx, txnId);
  }
  if (result.credited.length || result.refunded.length || result.setAside.length)
    ctx.logger.info(result, "sandbox payments reconciled");
  return result;
}
