/**
 * The currencies' ledger: one wallet row per learner and currency (a balance that a CHECK keeps
 * at or above zero) and an append-only list of entries, each with the balance after it, a reason,
 * the object it belongs to and an idempotency key unique per learner, currency and reason.
 *
 * Every change runs inside the caller's transaction and first locks the wallet row, so changes to
 * one wallet happen one at a time on PostgreSQL (and a repeated key is seen by the second comer).
 */
import type { Kysely, Transaction } from "kysely";
import { chinaDay } from "../../../shared/china-time";
import type { CoinRule } from "../../../shared/currency";
import { coinRules } from "../../../shared/currency";
import type { Currency, DB } from "../../db/schema";
import { ApiError } from "../../http";

export interface LedgerChange {
  userId: number;
  currency: Currency;
  /** Positive credits, negative debits; never 0. */
  amount: number;
  reason: string;
  refType?: string;
  refId?: string | number;
  /** Unique per learner, currency and reason: the same key twice changes nothing the second time. */
  idempotencyKey: string;
  note?: string;
  /** Debits only: take what there is (down to zero) instead of refusing. Used for claw-backs. */
  upToBalance?: boolean;
  /** When it happened (the injectable clock); default: the database's now(). */
  at?: Date;
}

export interface LedgerEntry {
  id: number;
  amount: number;
  balanceAfter: number;
}

export interface LedgerResult {
  /** false: the key had been used already (entry is the earlier one) or nothing was left to take. */
  applied: boolean;
  entry: LedgerEntry | null;
  balance: number;
}

export const insufficientBalance = (currency: Currency) =>
  new ApiError(409, "insufficient_balance", currency === "coin" ? "金币余额不足" : "笔山余额不足");

export async function lockWallet(trx: Transaction<DB>, userId: number, currency: Currency): Promise<number> {
  await trx
    .insertInto("wallets")
    .values({ user_id: userId, currency })
    .onConflict((oc) => oc.columns(["user_id", "currency"]).doNothing())
    .execute();
  const wallet = await trx
    .selectFrom("wallets")
    .select("balance")
    .where("user_id", "=", userId)
    .where("currency", "=", currency)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return wallet.balance;
}

export async function applyLedgerChange(trx: Transaction<DB>, change: LedgerChange): Promise<LedgerResult> {
  if (!Number.isInteger(change.amount) || change.amount === 0) throw new Error("ledger amounts are non-zero integers");
  const balance = await lockWallet(trx, change.userId, change.currency);
  const earlier = await trx
    .selectFrom("wallet_entries")
    .select(["id", "amount", "balance_after"])
    .where("user_id", "=", change.userId)
    .where("currency", "=", change.currency)
    .where("reason", "=", change.reason)
    .where("idempotency_key", "=", change.idempotencyKey)
    .executeTakeFirst();
  if (earlier) {
    return {
      applied: false,
      entry: { id: earlier.id, amount: earlier.amount, balanceAfter: earlier.balance_after },
      balance,
    };
  }
  let amount = change.amount;
  if (balance + amount < 0) {
    if (!change.upToBalance) throw insufficientBalance(change.currency);
    amount = -balance;
    if (amount === 0) return { applied: false, entry: null, balance };
  }
  const balanceAfter = balance + amount;
  await trx
    .updateTable("wallets")
    .set({ balance: balanceAfter, updated_at: new Date() })
    .where("user_id", "=", change.userId)
    .where("currency", "=", change.currency)
    .execute();
  const shortfall = amount !== change.amount ? `（应扣 ${-change.amount}，余额不足，实扣 ${-amount}）` : "";
  const entry = await trx
    .insertInto("wallet_entries")
    .values({
      user_id: change.userId,
      currency: change.currency,
      amount,
      balance_after: balanceAfter,
      reason: change.reason,
      ref_type: change.refType ?? null,
      ref_id: change.refId === undefined ? null : String(change.refId),
      idempotency_key: change.idempotencyKey,
      note: (change.note ?? "") + shortfall,
      ...(change.at ? { created_at: change.at } : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { applied: true, entry: { id: entry.id, amount, balanceAfter }, balance: balanceAfter };
}

/**
 * Coins for a verified learning event, within the rule's daily cap (China-time day). The key
 * names the event (e.g. the lesson id), so the same event never pays twice.
 */
export async function earnCoins(
  trx: Transaction<DB>,
  input: {
    userId: number;
    rule: CoinRule;
    idempotencyKey: string;
    refType?: string;
    refId?: string | number;
    now: Date;
  },
): Promise<LedgerResult> {
  const rule = coinRules[input.rule];
  const balance = await lockWallet(trx, input.userId, "coin");
  // A frozen account (deletion requested) earns nothing; shared lock: a request waits for this.
  const owner = await trx
    .selectFrom("users")
    .select("status")
    .where("id", "=", input.userId)
    .forShare()
    .executeTakeFirst();
  if (owner?.status !== "active") return { applied: false, entry: null, balance };
  const today = await trx
    .selectFrom("wallet_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("earned"))
    .where("user_id", "=", input.userId)
    .where("currency", "=", "coin")
    .where("reason", "=", input.rule)
    .where("created_at", ">=", chinaDay(input.now).start)
    .executeTakeFirstOrThrow();
  const room = rule.dailyCap - Number(today.earned);
  const amount = Math.min(rule.amount, room);
  if (amount <= 0) return { applied: false, entry: null, balance };
  return applyLedgerChange(trx, {
    userId: input.userId,
    currency: "coin",
    amount,
    reason: input.rule,
    refType: input.refType,
    refId: input.refId,
    idempotencyKey: input.idempotencyKey,
    at: input.now,
  });
}

export async function balances(db: Kysely<DB>, userId: number): Promise<Record<Currency, number>> {
  const rows = await db.selectFrom("wallets").select(["currency", "balance"]).where("user_id", "=", userId).execute();
  return {
    coin: rows.find((r) => r.currency === "coin")?.balance ?? 0,
    bishan: rows.find((r) => r.currency === "bishan")?.balance ?? 0,
  };
}
