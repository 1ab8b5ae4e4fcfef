/**
 * Coins spent as a deduction on an unpaid order, and given back when the order is cancelled or
 * refunded or the learner takes them off. The order row remembers the ledger key of the coins it
 * holds (`coins_applied_key`); giving them back clears it by compare-and-set under the order's
 * row lock and credits the same key, so they come back exactly once whoever asks.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import { COIN_CENTS, maxCoinsFor } from "../../../shared/currency";
import type { DB } from "../../db/schema";
import { ApiError } from "../../http";
import { applyLedgerChange, lockWallet } from "../wallet/ledger";
import type { OrderRow } from "./order-row";

/** Gives back the coins an order holds (cancel, refund, taking them off). False when it held none. */
export async function returnOrderCoins(
  trx: Transaction<DB>,
  order: Pick<OrderRow, "id" | "user_id" | "order_no">,
  at: Date,
) {
  const held = await trx
    .selectFrom("orders")
    .select(["coins_used", "coins_applied_key"])
    .where("id", "=", order.id)
    .forUpdate()
    .executeTakeFirst();
  if (!held?.coins_applied_key || held.coins_used <= 0) return false;
  const cleared = await trx
    .updateTable("orders")
    .set({ coins_applied_key: null })
    .where("id", "=", order.id)
    .where("coins_applied_key", "=", held.coins_applied_key)
    .returning("id")
    .executeTakeFirst();
  if (!cleared) return false;
  await applyLedgerChange(trx, {
    userId: order.user_id,
    currency: "coin",
    amount: held.coins_used,
    reason: "order_coin_returned",
    refType: "order",
    refId: order.id,
    idempotencyKey: held.coins_applied_key,
    at,
  });
  return true;
}

/**
 * Puts coins on a pending order (as many as the rule allows) or takes them off, in the caller's
 * transaction; the order row must be pending and is locked here. Returns the order after.
 */
export async function setOrderCoins(trx: Transaction<DB>, orderId: number, use: boolean, at: Date): Promise<OrderRow> {
  const order = await trx
    .selectFrom("orders")
    .selectAll()
    .where("id", "=", orderId)
    .where("state", "=", "pending")
    .forUpdate()
    .executeTakeFirst();
  if (!order) throw new ApiError(409, "not_pending", "订单已支付或已关闭，不能再使用金币");
  if (order.expires_at <= at) throw new ApiError(409, "order_expired", "订单已超过支付时限，请重新下单");
  const holds = order.coins_applied_key !== null && order.coins_used > 0;
  if (use === holds) return order;
  if (!use) {
    await returnOrderCoins(trx, order, at);
  } else {
    const balance = await lockWallet(trx, order.user_id, "coin");
    const coins = maxCoinsFor(order.total_cents, order.coupon_discount_cents, balance);
    if (coins <= 0) throw new ApiError(409, "no_coins", balance <= 0 ? "金币余额不足" : "这笔订单已不能再用金币抵扣");
    const key = `${order.id}:${randomUUID()}`;
    await applyLedgerChange(trx, {
      userId: order.user_id,
      currency: "coin",
      amount: -coins,
      reason: "order_coin_deduction",
      refType: "order",
      refId: order.id,
      idempotencyKey: key,
      at,
    });
    return trx
      .updateTable("orders")
      .set({
        coins_used: coins,
        coin_discount_cents: coins * COIN_CENTS,
        pay_cents: order.total_cents - order.coupon_discount_cents - coins * COIN_CENTS,
        coins_applied_key: key,
        provider: null,
        updated_at: at,
      })
      .where("id", "=", order.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return trx
    .updateTable("orders")
    .set({
      coins_used: 0,
      coin_discount_cents: 0,
      pay_cents: order.total_cents - order.coupon_discount_cents,
      provider: null,
      updated_at: at,
    })
    .where("id", "=", order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
