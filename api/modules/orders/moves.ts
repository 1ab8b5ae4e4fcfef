/**
 * The other moves of an order: the learner cancels an unpaid one or confirms receipt, operators
 * ship. Each is the state machine's compare-and-set; whoever loses a race is told why.
 */
import type { Transaction } from "kysely";
import type { DB } from "../../db/schema";
import { AUTO_CONFIRM_DAYS, ORDER_STATE_LABELS, type OrderDetail } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { ApiError } from "../../http";
import { notify } from "../../notices";
import { gatewayFor } from "../../providers/payments/gateways";
import { orderDetail, orderNotFound, orderRowOf } from "./read";
import type { OrderRow } from "./order-row";
import { closePending, moveOrder, NOTICE_ORDER_SHIPPED } from "./state";

const conflict = (code: string, message: string) => new ApiError(409, code, message);

/** The learner cancels an unpaid order: stock and coupon come back once, whoever else tries at the same time. */
export async function cancelOrder(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderDetail> {
  const order = await orderRowOf(ctx, userId, orderNo);
  const now = ctx.now();
  const closed = await ctx.database.db.transaction().execute((trx) => closePending(trx, order.id, "用户取消", now));
  if (!closed) {
    const current = await orderRowOf(ctx, userId, orderNo);
    if (current.state === "cancelled") throw conflict("already_cancelled", "订单已取消");
    throw conflict("not_pending", `订单${ORDER_STATE_LABELS[current.state]}，不能取消`);
  }
  // Tell the provider to stop taking money for it (best effort; a late payment is refunded anyway).
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}

export async function confirmReceipt(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderDetail> {
  const order = await orderRowOf(ctx, userId, orderNo);
  const now = ctx.now();
  const done = await ctx.database.db
    .transaction()
    .execute((trx) => moveOrder(trx, order.id, "shipped", "completed", { completed_at: now, at: now }));
  if (!done)
    throw conflict("not_shipped", order.state === "completed" ? "订单已确认收货" : "订单尚未发货，不能确认收货");
  return orderDetail(ctx, userId, orderNo);
}

/** Operators: awaiting shipment → shipped, with the carrier and tracking number; the learner is told. */
export async function shipOrder(
  ctx: ApiContext,
  orderNo: string,
  input: { carrier: string; trackingNo: string },
  record: (trx: Transaction<DB>, order: OrderRow) => Promise<void> = async () => {},
) {
  const now = ctx.now();
  const order = await ctx.database.db
    .selectFrom("orders")
    .selectAll()
    .where("order_no", "=", orderNo)
    .executeTakeFirst();
  if (!order) throw orderNotFound();
  const shipped = await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await moveOrder(trx, order.id, ["awaiting_shipment", "paid"], "shipped", {
      shipped_at: now,
      carrier: input.carrier,
      tracking_no: input.trackingNo,
      at: now,
    });
    if (!moved) return undefined;
    await record(trx, moved);
    await notify(
      trx,
      moved.user_id,
      NOTICE_ORDER_SHIPPED,
      "订单已发货",
      `订单 ${moved.order_no}（${moved.title}）已由${input.carrier}发出，运单号 ${input.trackingNo}。收到后请确认收货；${AUTO_CONFIRM_DAYS} 天后将自动确认。`,
      now,
    );
    return moved;
  });
  if (!shipped) throw conflict("not_awaiting_shipment", "只有待发货的实物订单可以发货");
  return { orderNo, state: shipped.state };
}
