/**
 * The wallet itself: balances and today's earnings and the one-way exchange of coins for bishan
 * (the daily check-in is a practice-diary entry, in the practice module). The exchange mall is in `exchange-mall.ts`, the ledger records in
 * `ledger-page.ts`.
 *
 * Lock order, the same everywhere so PostgreSQL never deadlocks: a learner's coin wallet, then
 * their bishan wallet, then an exchange item's row.
 */
import { randomUUID } from "node:crypto";
import { coinExchangeRule } from "../../../shared/action-rules";
import { chinaDate, chinaDay } from "../../../shared/china-time";
import { COINS_PER_BISHAN, coinRules, type CoinRule } from "../../../shared/currency";
import {
  type Balances,
  type ExchangeResult,
  MAX_BISHAN_PER_EXCHANGE,
  type Wallet,
} from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import type { Currency } from "../../db/schema";
import { ApiError } from "../../http";
import { applyLedgerChange, balances, lockWallet } from "./ledger";

export async function walletOf(ctx: ApiContext, userId: number): Promise<Wallet> {
  const db = ctx.database.db;
  const now = ctx.now();
  const earned = await db
    .selectFrom("wallet_entries")
    .select(["reason", (eb) => eb.fn.sum<number>("amount").as("sum")])
    .where("user_id", "=", userId)
    .where("currency", "=", "coin")
    .where("reason", "in", Object.keys(coinRules))
    .where("created_at", ">=", chinaDay(now).start)
    .groupBy("reason")
    .execute();
  const checkedIn = await db
    .selectFrom("wallet_entries")
    .select("id")
    .where("user_id", "=", userId)
    .where("currency", "=", "coin")
    .where("reason", "=", "daily_check_in")
    .where("idempotency_key", "=", chinaDate(now))
    .executeTakeFirst();
  return {
    balances: await balances(db, userId),
    today: (Object.keys(coinRules) as CoinRule[]).map((rule) => ({
      rule,
      name: coinRules[rule].name,
      amount: coinRules[rule].amount,
      dailyCap: coinRules[rule].dailyCap,
      earned: Number(earned.find((e) => e.reason === rule)?.sum ?? 0),
    })),
    checkedInToday: Boolean(checkedIn),
    rate: { coinsPerBishan: COINS_PER_BISHAN, maxBishanPerExchange: MAX_BISHAN_PER_EXCHANGE },
  };
}

/** Coins → bishan: both legs in one transaction, linked by one exchange id. */
export async function exchangeCoins(ctx: ApiContext, userId: number, bishan: number): Promise<ExchangeResult> {
  const exchangeId = randomUUID();
  const coins = bishan * COINS_PER_BISHAN;
  const at = ctx.now();
  const result = await ctx.database.db.transaction().execute(async (trx) => {
    // The page's rule, on the locked balance: the same words beside its disabled button.
    const rule = coinExchangeRule({
      coins: await lockWallet(trx, userId, "coin"),
      bishan,
      coinsPerBishan: COINS_PER_BISHAN,
    });
    if (!rule.ok) throw new ApiError(409, "insufficient_balance", rule.reason);
    const out = await applyLedgerChange(trx, {
      userId,
      currency: "coin",
      amount: -coins,
      reason: "exchange_out",
      refType: "exchange",
      refId: exchangeId,
      idempotencyKey: exchangeId,
      note: `${coins} 金币兑换 ${bishan} 笔山`,
      at,
    });
    const into = await applyLedgerChange(trx, {
      userId,
      currency: "bishan",
      amount: bishan,
      reason: "exchange_in",
      refType: "exchange",
      refId: exchangeId,
      idempotencyKey: exchangeId,
      note: `${coins} 金币兑换 ${bishan} 笔山`,
      at,
    });
    return { coin: out.balance, bishan: into.balance };
  });
  return {
    exchangeId,
    coinsSpent: coins,
    bishanGained: bishan,
    balances: result,
    message: `兑换成功：消耗 ${coins} 金币，获得 ${bishan} 笔山`,
  };
}

/** Test fixtures only: hand a learner some currency. */
export async function grant(ctx: ApiContext, userId: number, currency: Currency, amount: number): Promise<Balances> {
  await ctx.database.db.transaction().execute((trx) =>
    applyLedgerChange(trx, {
      userId,
      currency,
      amount,
      reason: "grant",
      idempotencyKey: randomUUID(),
      note: "测试发放",
      at: ctx.now(),
    }),
  );
  return balances(ctx.database.db, userId);
}
