/**
 * Payments: starting one for an order, and crediting what a provider says arrived. Crediting is
 * idempotent and safe under replays: the payment row is unique per (provider, provider_txn_id) —
 * a replay's insert does nothing and changes nothing — and the order moves pending → paid by
 * compare-and-set in the same transaction as the fulfilment. Money for an unknown order or of the
 * wrong amount is never credited; money for an order that was already closed is refunded.
 */
import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import type { PayMethod, StartPaymentResult } from "../../../shared/contracts/payments";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { paymentOutcomes, refundOutcomes } from "../../metrics";
import type { PaymentNotice } from "../../providers/payments/gateway";
import {
  newSandboxNotification,
  signSandbox,
  verifySandbox,
  type SandboxNotification,
} from "../../providers/payments/sandbox";
import { isFreshNotification } from "../../providers/payments/freshness";
import { paymentSettingsOf } from "../../providers/payments/settings";
import { notify } from "../../notices";
import { markPaid, NOTICE_ORDER_REFUNDED } from "../orders/state";
import { availableMethods, gatewayFor } from "../../providers/payments/gateways";

export type CreditOutcome = "credited" | "replayed" | "refunded_late" | "unknown_order" | "amount_mismatch";

export async function startPayment(
  ctx: ApiContext,
  userId: number,
  orderNo: string,
  method: PayMethod,
): Promise<StartPaymentResult> {
  const now = ctx.now();
  const order = await ctx.database.db
    .selectFrom("orders")
    .selectAll()
    .where("order_no", "=", orderNo)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!order) throw notFound("订单不存在");
  if (order.state !== "pending") throw new ApiError(409, "not_pending", "订单已支付或已关闭，无需再次支付");
  if (order.expires_at <= now) throw new ApiError(409, "order_expired", "订单已超过支付时限，请重新下单");
  if (!availableMethods(ctx).includes(method)) throw new ApiError(400, "method_unavailable", "暂不支持该支付方式");
  const gateway = gatewayFor(ctx, method);
  if (!gateway) throw new ApiError(400, "method_unavailable", "暂不支持该支付方式");
  const moved = await ctx.database.db
    .updateTable("orders")
    .set({ provider: method, updated_at: now })
    .where("id", "=", order.id)
    .where("state", "=", "pending")
    .returning("id")
    .executeTakeFirst();
  if (!moved) throw new ApiError(409, "not_pending", "订单已支付或已关闭，无需再次支付");
  const origin = ctx.settings.publicOrigin;
  const result = await gateway.start(
    { orderNo: order.order_no, payCents: order.pay_cents, title: order.title, expiresAt: order.expires_at },
    {
      notifyUrl: `${origin}/api/payments/notify/${method}`,
      returnUrl: `${origin}/payment/success?order=${encodeURIComponent(order.order_no)}`,
    },
  );
  const qrSvg = result.codeUrl ? await QRCode.toString(result.codeUrl, { type: "svg", margin: 1, width: 200 }) : null;
  return { method, redirectUrl: result.redirectUrl, codeUrl: result.codeUrl, qrSvg };
}

/**
 * Credits a verified payment notice (from a callback or a query). Logs every attempt; returns what
 * happened. A payment for an order that is no longer pending is recorded and refunded.
 */
export async function creditPayment(ctx: ApiContext, notice: PaymentNotice): Promise<CreditOutcome> {
  const now = ctx.now();
  const log = { provider: notice.provider, orderNo: notice.orderNo, txnId: notice.txnId, amount: notice.amountCents };
  const outcome = await ctx.database.db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom("orders").selectAll().where("order_no", "=", notice.orderNo).executeTakeFirst();
    if (!order) return { outcome: "unknown_order" as const };
    if (notice.amountCents !== order.pay_cents || notice.currency !== "CNY")
      return { outcome: "amount_mismatch" as const };
    const recorded = await trx
      .insertInto("payments")
      .values({
        order_id: order.id,
        provider: notice.provider,
        provider_txn_id: notice.txnId,
        amount_cents: notice.amountCents,
        currency: notice.currency,
        outcome: "credited",
        received_at: now,
      })
      .onConflict((oc) => oc.columns(["provider", "provider_txn_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!recorded) return { outcome: "replayed" as const };
    const paid = await markPaid(trx, order.id, { provider: notice.provider, txnId: notice.txnId }, now);
    if (paid) return { outcome: "credited" as const };
    // The order was closed (or paid by another transaction) before this money came: give it back.
    await trx.updateTable("payments").set({ outcome: "refunded_late" }).where("id", "=", recorded.id).execute();
    const refund = await trx
      .insertInto("refunds")
      .values({
        order_id: order.id,
        user_id: order.user_id,
        amount_cents: notice.amountCents,
        reason: order.state === "cancelled" ? "订单关闭后才收到付款，自动退款" : "重复付款，自动退款",
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await notify(
      trx,
      order.user_id,
      NOTICE_ORDER_REFUNDED,
      "付款已自动退回",
      `订单 ${order.order_no} 已${order.state === "cancelled" ? "关闭" : "支付"}，我们在之后又收到一笔 ¥${(notice.amountCents / 100).toFixed(2)} 的付款，已为你自动原路退回。`,
      now,
    );
    return { outcome: "refunded_late" as const, refundId: refund.id, orderNo: order.order_no };
  });
  if (outcome.outcome === "refunded_late") {
    const gateway = gatewayFor(ctx, notice.provider);
    try {
      const result = await gateway?.refund({
        orderNo: notice.orderNo,
        txnId: notice.txnId,
        refundNo: `L${notice.orderNo.slice(1)}${outcome.refundId}`,
        amountCents: notice.amountCents,
        totalCents: notice.amountCents,
        reason: "订单已关闭，自动退款",
      });
      await ctx.database.db
        .updateTable("refunds")
        .set({
          state: result?.ok ? "succeeded" : "failed",
          provider_refund_id: result?.refundId ?? null,
          completed_at: ctx.now(),
        })
        .where("id", "=", outcome.refundId)
        .execute();
      refundOutcomes.inc({ outcome: result?.ok ? "succeeded" : "failed" });
    } catch (err) {
      ctx.logger.error({ err, ...log }, "late payment refund failed");
      refundOutcomes.inc({ outcome: "failed" });
      await ctx.database.db
        .updateTable("refunds")
        .set({ state: "failed", completed_at: ctx.now() })
        .where("id", "=", outcome.refundId)
        .execute();
    }
  }
  paymentOutcomes.inc({ outcome: outcome.outcome });
  const level = outcome.outcome === "credited" || outcome.outcome === "replayed" ? "info" : "warn";
  ctx.logger[level]({ ...log, outcome: outcome.outcome }, "payment notification");
  return outcome.outcome;
}

// ── the hosted sandbox checkout ─────────────────────────────────────────────

export interface SandboxCheckout {
  id: string;
  orderNo: string;
  title: string;
  skuName: string | null;
  quantity: number;
  amountCents: number;
  state: "open" | "approved" | "declined" | "failed";
  orderState: string;
  expiresAt: Date;
  /** What the site made of an approval: credited to the order, refunded, or not yet processed (null). */
  settlement: "credited" | "refunded" | null;
}

export async function sandboxCheckout(ctx: ApiContext, id: string): Promise<SandboxCheckout | null> {
  if (!/^[0-9a-f]{32}$/.test(id)) return null;
  const row = await ctx.database.db
    .selectFrom("payment_sandbox")
    .innerJoin("orders", "orders.order_no", "payment_sandbox.order_no")
    .select([
      "payment_sandbox.id",
      "payment_sandbox.order_no",
      "payment_sandbox.amount_cents",
      "payment_sandbox.state",
      "orders.title",
      "orders.sku_name",
      "orders.quantity",
      "orders.state as orderState",
      "orders.expires_at",
      "payment_sandbox.txn_id",
    ])
    .where("payment_sandbox.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const payment = row.txn_id
    ? await ctx.database.db
        .selectFrom("payments")
        .select("outcome")
        .where("provider", "=", "sandbox")
        .where("provider_txn_id", "=", row.txn_id)
        .executeTakeFirst()
    : undefined;
  return {
    id: row.id,
    orderNo: row.order_no,
    title: row.title,
    skuName: row.sku_name,
    quantity: row.quantity,
    amountCents: row.amount_cents,
    state: row.state,
    orderState: row.orderState,
    expiresAt: row.expires_at,
    settlement: !payment ? null : payment.outcome === "credited" ? "credited" : "refunded",
  };
}

export interface SandboxOptions {
  /** Wait this long before notifying (ms, at most 10 s). */
  delayMs: number;
  /** Send the notification this many times (1–5). */
  copies: number;
}

/** Verifies a sandbox notification (signature, timing-safe; then its signed timestamp's age) and credits it. */
export async function receiveSandboxNotification(
  ctx: ApiContext,
  body: SandboxNotification,
  signature: string,
): Promise<CreditOutcome | "bad_signature" | "stale"> {
  const { sandboxSecret } = paymentSettingsOf(ctx);
  const log = { provider: "sandbox", orderNo: body.orderNo, txnId: body.txnId };
  if (!verifySandbox(body, signature, sandboxSecret)) {
    ctx.logger.warn(log, "payment notification with a bad signature");
    return "bad_signature";
  }
  if (!isFreshNotification(body.timestamp * 1000, ctx.now())) {
    ctx.logger.warn({ ...log, sentAt: body.timestamp }, "stale payment notification refused");
    return "stale";
  }
  const outcome = await creditPayment(ctx, {
    provider: "sandbox",
    orderNo: body.orderNo,
    txnId: body.txnId,
    amountCents: body.amountCents,
    currency: body.currency,
  });
  if (outcome === "credited" || outcome === "replayed" || outcome === "refunded_late")
    await settleSandboxApproval(ctx, body.txnId);
  return outcome;
}

/** Marks a sandbox approval as taken into account (only the first call changes it). */
export async function settleSandboxApproval(ctx: ApiContext, txnId: string): Promise<void> {
  await ctx.database.db
    .updateTable("payment_sandbox")
    .set({ settled_at: ctx.now() })
    .where("txn_id", "=", txnId)
    .where("settled_at", "is", null)
    .execute();
}

/**
 * The payer's decision on the sandbox page. Approve: the sandbox records the payment and sends
 * its signed notification asynchronously (after the chosen delay, as many copies as chosen).
 * Fail: the payment attempt fails (nothing is charged). Decline: the payer cancelled.
 */
export async function decideSandbox(
  ctx: ApiContext,
  id: string,
  decision: "approve" | "decline" | "fail",
  options: SandboxOptions,
): Promise<{ checkout: SandboxCheckout; delivered: Promise<void> } | null> {
  const checkout = await sandboxCheckout(ctx, id);
  if (!checkout) return null;
  const now = ctx.now();
  const state = decision === "approve" ? "approved" : decision === "fail" ? "failed" : "declined";
  const txnId = decision === "approve" ? `SB${randomBytes(10).toString("hex").toUpperCase()}` : null;
  const moved = await ctx.database.db
    .updateTable("payment_sandbox")
    .set({ state, txn_id: txnId, decided_at: now })
    .where("id", "=", id)
    .where("state", "=", "open")
    .returning("id")
    .executeTakeFirst();
  const after = { ...checkout, state: moved ? state : checkout.state };
  if (!moved || !txnId) return { checkout: after, delivered: Promise.resolve() };
  const notification = newSandboxNotification(checkout.orderNo, txnId, checkout.amountCents, now);
  const signature = signSandbox(notification, paymentSettingsOf(ctx).sandboxSecret);
  const deliver = () =>
    Promise.all(
      Array.from({ length: options.copies }, () =>
        receiveSandboxNotification(ctx, notification, signature).catch((err: unknown) => {
          ctx.logger.error({ err, orderNo: checkout.orderNo }, "sandbox notification failed");
        }),
      ),
    ).then(() => undefined);
  const delivered =
    options.delayMs > 0
      ? new Promise<void>((resolve) => setTimeout(() => void deliver().then(resolve), options.delayMs).unref())
      : deliver();
  return { checkout: after, delivered };
}
