/**
 * What other modules call to move currency, inside their own transaction: coins for verified
 * learning events, bishan for a paid order, and the claw-back when that order is refunded.
 */
import type { Transaction } from "kysely";
import { bishanForPayment, type CoinRule } from "../../../shared/currency";
import type { DB } from "../../db/schema";
import { applyLedgerChange, earnCoins, type LedgerResult } from "./ledger";

/**
 * Coins for one learning event (lesson finished, live attended, homework, the day's check-in …)
 * within the daily cap. The key defaults to the rule and event; the check-in keeps its own (the date).
 */
export function awardLearningCoins(
  trx: Transaction<DB>,
  input: {
    userId: number;
    rule: CoinRule;
    refType: string;
    refId: string | number;
    now: Date;
    idempotencyKey?: string;
  },
): Promise<LedgerResult> {
  return earnCoins(trx, {
    userId: input.userId,
    rule: input.rule,
    refType: input.refType,
    refId: input.refId,
    idempotencyKey: input.idempotencyKey ?? `${input.rule}:${input.refType}:${input.refId}`,
    now: input.now,
  });
}

export interface PaidOrder {
  id: number;
  user_id: number;
  pay_cents: number;
}

async function nothing(trx: Transaction<DB>, userId: number): Promise<LedgerResult> {
  const wallet = await trx
    .selectFrom("wallets")
    .select("balance")
    .where("user_id", "=", userId)
    .where("currency", "=", "bishan")
    .executeTakeFirst();
  return { applied: false, entry: null, balance: wallet?.balance ?? 0 };
}

/** Bishan for a paid order (1 per full 10 yuan paid); once per order. */
export async function grantOrderBishan(trx: Transaction<DB>, order: PaidOrder, at?: Date): Promise<LedgerResult> {
  const amount = bishanForPayment(order.pay_cents);
  if (amount <= 0) return nothing(trx, order.user_id);
  return applyLedgerChange(trx, {
    userId: order.user_id,
    currency: "bishan",
    amount,
    reason: "order_paid",
    refType: "order",
    refId: order.id,
    idempotencyKey: String(order.id),
    at,
  });
}

/**
 * Takes back the bishan an order earned when (part of) it is refunded: what the order's line
 * credited minus what the amount still kept earns, less what earlier partial refunds took — down
 * to zero at most (the shortfall is noted on the line). Once per refund: a whole refund's key is
 * the order, a partial one's the refund.
 */
export async function clawBackOrderBishan(
  trx: Transaction<DB>,
  order: PaidOrder,
  at?: Date,
  part?: { refundId: number; keptCents: number },
): Promise<LedgerResult> {
  const lines = await trx
    .selectFrom("wallet_entries")
    .select(["reason", "amount"])
    .where("user_id", "=", order.user_id)
    .where("currency", "=", "bishan")
    .where("ref_type", "=", "order")
    .where("ref_id", "=", String(order.id))
    .where("reason", "in", ["order_paid", "order_refund_clawback"])
    .execute();
  const earned = lines.filter((l) => l.reason === "order_paid").reduce((sum, l) => sum + l.amount, 0);
  const clawed = -lines.filter((l) => l.reason === "order_refund_clawback").reduce((sum, l) => sum + l.amount, 0);
  const kept = part ? Math.min(earned, bishanForPayment(part.keptCents)) : 0;
  const amount = earned - kept - clawed;
  if (amount <= 0) return nothing(trx, order.user_id);
  return applyLedgerChange(trx, {
    userId: order.user_id,
    currency: "bishan",
    amount: -amount,
    reason: "order_refund_clawback",
    refType: "order",
    refId: order.id,
    idempotencyKey: part ? `${order.id}:r${part.refundId}` : String(order.id),
    upToBalance: true,
    at,
  });
}
