/**
 * Coupons and coins on an order: the discount a coupon gives (checked when the order is created
 * and when the learner changes it), changing the coupon of an unpaid order, and putting coins on
 * it or taking them off. Each change locks or releases by compare-and-set under the order's row
 * lock, and a payment already started at the provider is closed (its amount is no longer the
 * order's).
 */
import type { Transaction } from "kysely";
import { maxCoinsFor } from "../../../shared/currency";
import { formatYuan } from "../../../shared/money";
import type { ApiContext } from "../../context";
import type { DB, ItemType } from "../../db/schema";
import { ApiError } from "../../http";
import { gatewayFor } from "../../providers/payments/gateways";
import { appliesTo, discountOf } from "../coupons/rules";
import { returnOrderCoins, setOrderCoins } from "./coins";
import { orderDetail, orderRowOf } from "./read";

const conflict = (code: string, message: string) => new ApiError(409, code, message);

/**
 * The discount a learner's coupon gives on an item at a total, or a 409 saying why it cannot be
 * used (gone, expired, another scope, under the threshold).
 */
export async function couponDiscountFor(
  trx: Transaction<DB>,
  userId: number,
  couponId: number,
  itemType: ItemType,
  itemId: number,
  totalCents: number,
  now: Date,
): Promise<number> {
  const coupon = await trx
    .selectFrom("coupons")
    .innerJoin("coupon_templates as t", "t.id", "coupons.template_id")
    .select([
      "coupons.id",
      "t.kind",
      "t.amount_off_cents",
      "t.percent_off",
      "t.threshold_cents",
      "t.scope",
      "t.scope_ref_id",
    ])
    .where("coupons.id", "=", couponId)
    .where("coupons.user_id", "=", userId)
    .where("coupons.state", "in", ["available", "returned"])
    .where("coupons.valid_from", "<=", now)
    .where("coupons.valid_until", ">", now)
    .executeTakeFirst();
  if (!coupon) throw conflict("coupon_unavailable", "优惠券不可用（已使用、已过期或不存在）");
  if (!appliesTo(coupon, itemType, itemId)) throw conflict("coupon_not_applicable", "该优惠券不适用于此商品");
  const discount = discountOf(coupon, totalCents);
  if (discount === 0)
    throw conflict(
      "coupon_threshold",
      `订单金额未达到优惠券的使用门槛（满 ${formatYuan(coupon.threshold_cents)} 元可用）`,
    );
  return discount;
}

/**
 * Changes the coupon of an unpaid order (or removes it): the old one is released, the new one
 * locked by compare-and-set, the discount and amount to pay recomputed from the snapshotted total.
 * A payment already started at the provider is closed (its amount is no longer the order's).
 */
export async function applyCoupon(ctx: ApiContext, userId: number, orderNo: string, couponId: number | null) {
  const now = ctx.now();
  const order = await orderRowOf(ctx, userId, orderNo);
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", order.id)
      .where("state", "=", "pending")
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw conflict("not_pending", "订单已支付或已关闭，不能更换优惠券");
    if (current.expires_at <= now) throw conflict("order_expired", "订单已超过支付时限，请重新下单");
    if (current.coupon_id === couponId) return;
    if (current.coupon_id !== null) {
      await trx
        .updateTable("coupons")
        .set({ state: "available", order_id: null })
        .where("id", "=", current.coupon_id)
        .where("order_id", "=", current.id)
        .where("state", "=", "locked")
        .execute();
    }
    let discount = 0;
    if (couponId !== null) {
      discount = await couponDiscountFor(
        trx,
        userId,
        couponId,
        current.item_type,
        current.item_id,
        current.total_cents,
        now,
      );
      const locked = await trx
        .updateTable("coupons")
        .set({ state: "locked", order_id: current.id })
        .where("id", "=", couponId)
        .where("state", "in", ["available", "returned"])
        .returning("id")
        .executeTakeFirst();
      if (!locked) throw conflict("coupon_unavailable", "优惠券刚刚已被使用，请重新选择");
    }
    // Coins that no longer fit beside the new coupon (at least 1 fen is always paid) go back.
    let coinDiscount = current.coin_discount_cents;
    if (current.coins_used > 0 && maxCoinsFor(current.total_cents, discount, current.coins_used) < current.coins_used) {
      await returnOrderCoins(trx, current, now);
      coinDiscount = 0;
    }
    await trx
      .updateTable("orders")
      .set({
        coupon_id: couponId,
        coupon_discount_cents: discount,
        ...(coinDiscount === 0 ? { coins_used: 0, coin_discount_cents: 0 } : {}),
        pay_cents: current.total_cents - discount - coinDiscount,
        provider: null,
        updated_at: now,
      })
      .where("id", "=", current.id)
      .where("state", "=", "pending")
      .execute();
  });
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}

/**
 * Puts coins on an unpaid order or takes them off (setOrderCoins: one ledger line each way, under
 * the order's row lock). A payment already started at the provider is closed: its amount changed.
 */
export async function applyOrderCoins(ctx: ApiContext, userId: number, orderNo: string, use: boolean) {
  const now = ctx.now();
  const order = await orderRowOf(ctx, userId, orderNo);
  await ctx.database.db.transaction().execute((trx) => setOrderCoins(trx, order.id, use, now));
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}
