/**
 * Refunds the learner asks for: checked against the rules, moved to 退款中 by compare-and-set
 * with the refund row, refunded at the provider, then finished in one transaction (finishRefund)
 * or put back when the provider refuses.
 */
import type { Transaction } from "kysely";
import { refundAmountFor, refundNeedsReview, type OrderDetail } from "../../../shared/contracts/orders";
import { formatMoney } from "../../../shared/money";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { ApiError } from "../../http";
import { refundOutcomes } from "../../metrics";
import { notify } from "../../notices";
import { gatewayFor } from "../../providers/payments/gateways";
import { orderDetail, orderRowOf } from "./read";
import { piecesLeft, refundRule } from "./refund-rules";
import type { OrderRow } from "./order-row";
import { finishRefund, moveOrder, NOTICE_ORDER_REFUNDED } from "./state";

const conflict = (code: string, message: string) => new ApiError(409, code, message);

async function refundableQuantity(db: Pick<Transaction<DB>, "selectFrom">, order: OrderRow): Promise<number> {
  const refunds = await db
    .selectFrom("refunds")
    .select(["state", "quantity"])
    .where("order_id", "=", order.id)
    .execute();
  return piecesLeft(order, refunds);
}

/**
 * Refunds a paid order — in full, or for physical goods some of its pieces (the money for them in
 * proportion; the last pieces get whatever is left, so the parts add up to what was paid). Checked
 * against the rules, moved to 退款中 by compare-and-set (a second request sees it moved and is
 * refused), refunded at the provider, then finished in one transaction (finishRefund).
 */
export async function refundOrder(
  ctx: ApiContext,
  userId: number,
  orderNo: string,
  reason: string,
  quantity?: number,
): Promise<OrderDetail> {
  const order = await orderRowOf(ctx, userId, orderNo);
  await startRefund(ctx, order, { reason, quantity });
  return orderDetail(ctx, userId, orderNo);
}

/** Who refunds by hand: an operator (then no review is asked for, and the change is audited in the same transaction). */
export interface RefundActor {
  operatorId: number;
  /** Called in the refund's transaction after the order moved (the audit record). */
  record: (trx: Transaction<DB>, refund: { id: number; amountCents: number; quantity: number | null }) => Promise<void>;
}

/**
 * Starts a refund of `order` (the learner's request, or an operator's by hand) and, unless it
 * waits for review, settles it with the provider. The rules are the learner's in both cases.
 */
export async function startRefund(
  ctx: ApiContext,
  order: OrderRow,
  input: { reason: string; quantity?: number },
  actor?: RefundActor,
): Promise<void> {
  const now = ctx.now();
  const { reason, quantity } = input;
  const userId = order.user_id;
  const started = await ctx.database.db.transaction().execute(async (trx) => {
    const rule = await refundRule(ctx, order, now, trx);
    if (!rule.allowed) throw conflict("refund_not_allowed", rule.reason);
    const left = await refundableQuantity(trx, order);
    const pieces = quantity ?? left;
    if (!order.physical && pieces !== order.quantity) throw new ApiError(400, "invalid_input", "课程只能整单退款");
    if (pieces < 1 || pieces > left) throw conflict("refund_quantity", `最多可退 ${left} 件`);
    // Part of an order only once it is received: before that the order is still to ship as a whole.
    if (pieces < left && order.state !== "completed" && order.state !== "partially_refunded")
      throw conflict("refund_quantity", "确认收货后可以退回部分商品；发货前或运输途中请整单退款");
    const amount = refundAmountFor(
      { payCents: order.pay_cents, refundedCents: order.refunded_cents, quantity: order.quantity },
      pieces,
      left,
    );
    if (amount <= 0) throw conflict("refund_not_allowed", "这笔订单没有可退的金额");
    const moved = await moveOrder(trx, order.id, order.state, "refunding", { refund_reason: reason, at: now });
    if (!moved) throw conflict("order_changed", "订单状态已变化，请刷新后再试");
    // An operator's own refund is its review.
    const review = !actor && refundNeedsReview(order);
    const refund = await trx
      .insertInto("refunds")
      .values({
        order_id: order.id,
        user_id: userId,
        amount_cents: amount,
        quantity: order.physical ? pieces : null,
        reason,
        state: review ? "requested" : "processing",
        previous_state: order.state,
        created_at: now,
        ...(actor ? { reviewed_by: actor.operatorId } : {}),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (actor)
      await actor.record(trx, { id: refund.id, amountCents: amount, quantity: order.physical ? pieces : null });
    if (review) {
      await notify(
        trx,
        userId,
        NOTICE_ORDER_REFUNDED,
        "退货申请已提交",
        `订单 ${order.order_no}（${order.title}）的退货申请已提交，审核通过后退款 ${formatMoney(amount)} 将原路退回。请先不要寄回商品，审核后我们会告诉你寄回地址。`,
        now,
      );
    }
    return { refundId: refund.id, previous: order.state, review };
  });
  if (!started.review) await settleRefund(ctx, order, started.refundId, started.previous, reason);
}

/** Asks the provider for the money back and finishes the refund, or puts the order back. */
export async function settleRefund(
  ctx: ApiContext,
  order: OrderRow,
  refundId: number,
  previous: OrderRow["state"],
  reason: string,
) {
  const gateway = gatewayFor(ctx, order.provider ?? "sandbox");
  const { amount_cents: amountCents } = await ctx.database.db
    .selectFrom("refunds")
    .select("amount_cents")
    .where("id", "=", refundId)
    .executeTakeFirstOrThrow();
  let result: { ok: boolean; refundId: string; message?: string };
  try {
    result = gateway
      ? await gateway.refund({
          orderNo: order.order_no,
          txnId: order.provider_txn_id ?? "",
          refundNo: `R${order.order_no.slice(1)}${refundId}`,
          amountCents,
          totalCents: order.pay_cents,
          reason,
        })
      : { ok: false, refundId: "", message: "支付方式不可用" };
  } catch (err) {
    ctx.logger.error({ err, orderNo: order.order_no }, "refund request failed");
    result = { ok: false, refundId: "" };
  }
  const now = ctx.now();
  refundOutcomes.inc({ outcome: result.ok ? "succeeded" : "failed" });
  if (result.ok) {
    await ctx.database.db.transaction().execute((trx) => finishRefund(trx, order.id, refundId, result.refundId, now));
    return;
  }
  await ctx.database.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("refunds")
      .set({ state: "failed", completed_at: now })
      .where("id", "=", refundId)
      .where("state", "=", "processing")
      .execute();
    await moveOrder(trx, order.id, "refunding", previous, { at: now });
  });
  throw new ApiError(502, "refund_failed", "退款暂时没有成功，请稍后再试或联系客服");
}

/**
 * Operators: asks the provider again for a refund it refused. Only the order's latest refund, and
 * only while it is refused and the order is back where it was: both are taken by compare-and-set
 * in one transaction (with the audit record), so two retries at once pay out once.
 */
export async function retryRefund(
  ctx: ApiContext,
  order: OrderRow,
  refundId: number,
  record: (trx: Transaction<DB>, refund: { amountCents: number; quantity: number | null }) => Promise<void>,
): Promise<void> {
  const now = ctx.now();
  const taken = await ctx.database.db.transaction().execute(async (trx) => {
    const latest = await trx
      .selectFrom("refunds")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!latest || latest.id !== refundId || latest.state !== "failed")
      throw conflict("refund_not_retryable", "只能重试这笔订单最近一次没有成功的退款");
    const previous = latest.previous_state ?? order.state;
    const reopened = await trx
      .updateTable("refunds")
      .set({ state: "processing", completed_at: null })
      .where("id", "=", refundId)
      .where("state", "=", "failed")
      .returning("id")
      .executeTakeFirst();
    const moved = reopened && (await moveOrder(trx, order.id, previous, "refunding", { at: now }));
    if (!moved) throw conflict("order_changed", "订单状态已变化，请刷新后再试");
    await record(trx, { amountCents: latest.amount_cents, quantity: latest.quantity });
    return { row: moved, previous, reason: latest.reason };
  });
  await settleRefund(ctx, taken.row, refundId, taken.previous, taken.reason);
}
