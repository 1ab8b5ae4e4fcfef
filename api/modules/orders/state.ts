/**
 * The order state machine (DESIGN §4). Every move is a compare-and-set —
 * `update orders set state = <to> … where id = <id> and state = <from>` — so two requests, two
 * nodes or the expiry job racing a learner move an order at most once; whoever loses sees 0 rows.
 * The side effects of a move (stock back, coupon back, enrolment, notices, bishan, and what the
 * order's purpose registered: api/modules/orders/purposes.ts) run in the same transaction as the
 * move, so they happen exactly once or not at all.
 */
import { randomInt } from "node:crypto";
import type { Transaction } from "kysely";
import { chinaDateTime } from "../../../shared/china-time";
import type { DB, OrderState } from "../../db/schema";
import { notify } from "../../notices";
import { enrolLearner, unenrolLearner } from "../enrolments/enrolments";
import { clawBackOrderBishan, grantOrderBishan } from "../wallet/hooks";
import { formatMoney } from "../../../shared/money";
import { returnOrderCoins } from "./coins";
import type { OrderRow } from "./order-row";
import { orderPurposes } from "./purposes";

export const NOTICE_ORDER_PAID = "order_paid";
export const NOTICE_ORDER_SHIPPED = "order_shipped";
export const NOTICE_ORDER_REFUNDED = "order_refunded";

/** "M" + China date and time to the second + 6 random digits: unique enough, sortable, not guessable in bulk. */
export function newOrderNo(now: Date): string {
  const stamp = chinaDateTime(now).replace(/\D/g, "");
  return `M${stamp}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/** Moves an order from one state to another; the row after the move, or undefined if it was not in `from`. */
export async function moveOrder(
  trx: Transaction<DB>,
  orderId: number,
  from: OrderState | OrderState[],
  to: OrderState,
  set: Partial<{
    paid_at: Date;
    shipped_at: Date;
    completed_at: Date;
    cancelled_at: Date;
    cancel_reason: string;
    provider: string;
    provider_txn_id: string;
    carrier: string;
    tracking_no: string;
    refund_reason: string;
    refunded_cents: number;
  }> & { at: Date },
): Promise<OrderRow | undefined> {
  const { at, ...rest } = set;
  const froms = Array.isArray(from) ? from : [from];
  return trx
    .updateTable("orders")
    .set({ ...rest, state: to, updated_at: at })
    .where("id", "=", orderId)
    .where("state", "in", froms)
    .returningAll()
    .executeTakeFirst();
}

/** Adds pieces of the order's item back to the stock (books by title, stationery by SKU). */
async function addStock(trx: Transaction<DB>, order: OrderRow, quantity: number) {
  if (quantity <= 0) return;
  if (order.item_type === "book") {
    await trx
      .updateTable("books")
      .set((eb) => ({ stock: eb("stock", "+", quantity) }))
      .where("id", "=", order.item_id)
      .execute();
  } else if (order.item_type === "commodity" && order.sku_id !== null) {
    await trx
      .updateTable("commodity_skus")
      .set((eb) => ({ stock: eb("stock", "+", quantity) }))
      .where("id", "=", order.sku_id)
      .execute();
  }
}

/**
 * Puts reserved stock back, once per order (stock_released_at is set by compare-and-set): the
 * whole quantity, or what partial refunds have not returned already.
 */
export async function releaseStock(
  trx: Transaction<DB>,
  order: OrderRow,
  at: Date,
  quantity = order.quantity,
): Promise<boolean> {
  const claimed = await trx
    .updateTable("orders")
    .set({ stock_released_at: at })
    .where("id", "=", order.id)
    .where("stock_released_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  if (!claimed) return false;
  await addStock(trx, order, quantity);
  return true;
}

/** The order's coupon becomes usable again (已退回), and the learner will be told once. */
export async function returnCoupon(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<boolean> {
  if (order.coupon_id === null) return false;
  const row = await trx
    .updateTable("coupons")
    .set({ state: "returned", returned_at: at, return_notice_seen_at: null, used_at: null })
    .where("id", "=", order.coupon_id)
    .where("order_id", "=", order.id)
    .where("state", "in", ["locked", "used"])
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/** Closes a pending order: the state, then stock, coupon and coins back, a held group seat freed. Undefined if it was not pending. */
export async function closePending(
  trx: Transaction<DB>,
  orderId: number,
  reason: string,
  at: Date,
): Promise<OrderRow | undefined> {
  const order = await moveOrder(trx, orderId, "pending", "cancelled", { cancelled_at: at, cancel_reason: reason, at });
  if (!order) return undefined;
  await releaseStock(trx, order, at);
  await returnCoupon(trx, order, at);
  await returnOrderCoins(trx, order, at);
  if (order.purpose !== "buy") await orderPurposes.of(order.purpose).closed(trx, order, at);
  return order;
}

/**
 * pending → paid and the fulfilment, in the caller's transaction: the coupon is used, a course
 * enrols the learner (lessons unlock at once) and completes, physical goods wait for shipping,
 * a gift becomes claimable, a group seat is paid (and a full group enrols everyone); bishan for
 * the payment and a notice. Undefined if the order was not pending.
 */
export async function markPaid(
  trx: Transaction<DB>,
  orderId: number,
  payment: { provider: string; txnId: string },
  at: Date,
): Promise<OrderRow | undefined> {
  const paid = await moveOrder(trx, orderId, "pending", "paid", {
    paid_at: at,
    provider: payment.provider,
    provider_txn_id: payment.txnId,
    at,
  });
  if (!paid) return undefined;
  if (paid.coupon_id !== null) {
    await trx
      .updateTable("coupons")
      .set({ state: "used", used_at: at })
      .where("id", "=", paid.coupon_id)
      .where("order_id", "=", paid.id)
      .where("state", "=", "locked")
      .execute();
  }
  let final: OrderRow | undefined = paid;
  if (paid.purpose !== "buy") {
    // Their own notices: the gift's claim code, the group's progress.
    final = await orderPurposes.of(paid.purpose).paid(trx, paid, at);
    await grantOrderBishan(trx, { id: paid.id, user_id: paid.user_id, pay_cents: paid.pay_cents }, at);
    return final;
  }
  if (paid.item_type === "course") {
    await enrolLearner(trx, paid.user_id, paid.item_id, "order", at);
    final = await moveOrder(trx, paid.id, "paid", "completed", { completed_at: at, at });
  } else {
    if (paid.item_type === "commodity") {
      await trx
        .updateTable("commodities")
        .set((eb) => ({ sales: eb("sales", "+", paid.quantity) }))
        .where("id", "=", paid.item_id)
        .execute();
    }
    final = await moveOrder(trx, paid.id, "paid", "awaiting_shipment", { at });
  }
  await grantOrderBishan(trx, { id: paid.id, user_id: paid.user_id, pay_cents: paid.pay_cents }, at);
  await notify(
    trx,
    paid.user_id,
    NOTICE_ORDER_PAID,
    "订单支付成功",
    paid.item_type === "course"
      ? `你已成功购买《${paid.title}》，课程已解锁，现在就可以开始学习。订单号 ${paid.order_no}。`
      : `订单 ${paid.order_no}（${paid.title}${paid.sku_name ? ` · ${paid.sku_name}` : ""} × ${paid.quantity}）已支付，我们会尽快为你发货。`,
    at,
  );
  return final ?? paid;
}

/**
 * The end of a refund that the provider accepted. A whole refund (the rest of the money): refunding
 * → refunded, stock, coupon and coins back, the course enrolment the order gave removed (a gift's
 * recipient keeps nothing: only an unclaimed gift is refunded; what a gift or a group seat gave
 * is its purpose's hook), bishan clawed back. A partial one
 * (some pieces of physical goods): refunding → partially_refunded, those pieces back in stock, the
 * bishan the refunded money earned taken back; coupon and coins stay with the order until the rest
 * is refunded. A notice either way.
 */
export async function finishRefund(
  trx: Transaction<DB>,
  orderId: number,
  refundId: number,
  providerRefundId: string,
  at: Date,
): Promise<OrderRow | undefined> {
  const [order, refund] = await Promise.all([
    trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst(),
    trx
      .selectFrom("refunds")
      .select(["amount_cents", "quantity", "state"])
      .where("id", "=", refundId)
      .executeTakeFirst(),
  ]);
  if (!order || refund?.state !== "processing") return undefined;
  const refunded = Math.min(order.pay_cents, order.refunded_cents + refund.amount_cents);
  const whole = refunded >= order.pay_cents;
  const done = await moveOrder(trx, orderId, "refunding", whole ? "refunded" : "partially_refunded", {
    refunded_cents: refunded,
    at,
  });
  if (!done) return undefined;
  await trx
    .updateTable("refunds")
    .set({ state: "succeeded", completed_at: at, provider_refund_id: providerRefundId })
    .where("id", "=", refundId)
    .where("state", "=", "processing")
    .execute();
  const amount = formatMoney(refund.amount_cents);
  if (!whole) {
    await addStock(trx, done, refund.quantity ?? 0);
    await clawBackOrderBishan(trx, { id: done.id, user_id: done.user_id, pay_cents: done.pay_cents }, at, {
      refundId,
      keptCents: done.pay_cents - refunded,
    });
    await notify(
      trx,
      done.user_id,
      NOTICE_ORDER_REFUNDED,
      "部分退款已完成",
      `订单 ${done.order_no}（${done.title}）退回 ${refund.quantity ?? 0} 件，已退款 ${amount}，款项将原路退回。`,
      at,
    );
    return done;
  }
  const returnedBefore = await trx
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("quantity"), eb.lit(0)).as("n"))
    .where("order_id", "=", orderId)
    .where("state", "=", "succeeded")
    .where("id", "<>", refundId)
    .executeTakeFirstOrThrow();
  await releaseStock(trx, done, at, done.quantity - Number(returnedBefore.n));
  await returnCoupon(trx, done, at);
  await returnOrderCoins(trx, done, at);
  if (done.purpose !== "buy") await orderPurposes.of(done.purpose).refunded(trx, done, at);
  else if (done.item_type === "course") await unenrolLearner(trx, done.user_id, done.item_id, "order");
  await clawBackOrderBishan(trx, { id: done.id, user_id: done.user_id, pay_cents: done.pay_cents }, at);
  await notify(
    trx,
    done.user_id,
    NOTICE_ORDER_REFUNDED,
    "退款已完成",
    `订单 ${done.order_no}（${done.title}）已退款 ${amount}，款项将原路退回。`,
    at,
  );
  return done;
}
