/**
 * The two currencies (DESIGN §4): 金币 (coins) earned from learning, 笔山 (bishan) earned from
 * paid orders and by one-way exchange from coins. Neither can be bought or withdrawn.
 */
export const currencies = { coin: "金币", bishan: "笔山" } as const;
export type CurrencyKey = keyof typeof currencies;

/** Learning events that earn coins: amount per event and the most a learner earns per day. */
export const coinRules = {
  daily_check_in: { name: "每日签到", amount: 5, dailyCap: 5 },
  lesson_finished: { name: "学完一课", amount: 10, dailyCap: 50 },
  live_attended: { name: "参加直播", amount: 10, dailyCap: 20 },
  homework_submitted: { name: "提交作业", amount: 10, dailyCap: 30 },
  homework_excellent: { name: "作业获评优秀", amount: 50, dailyCap: 100 },
} as const;
export type CoinRule = keyof typeof coinRules;

/** 笔山 earned per paid order: 1 per full 10 yuan paid. */
const BISHAN_PER_YUAN_DIVISOR = 10;
export function bishanForPayment(payCents: number): number {
  return Math.floor(payCents / 100 / BISHAN_PER_YUAN_DIVISOR);
}

/** One-way exchange: 100 金币 → 1 笔山, whole bishan only. */
export const COINS_PER_BISHAN = 100;

/** Coins as a deduction at checkout: 100 金币 take 1 yuan off, on at most 30 % of an order's price. */
export const COIN_CENTS = 1;
export const COIN_DEDUCTION_MAX_PERCENT = 30;

/**
 * The most coins an order can take: 30 % of its price, never more than is left to pay after the
 * coupon (at least 1 fen is always paid), never more than the learner has.
 */
export function maxCoinsFor(totalCents: number, couponDiscountCents: number, balance: number): number {
  const byShare = Math.floor((totalCents * COIN_DEDUCTION_MAX_PERCENT) / 100 / COIN_CENTS);
  const byRest = Math.floor((totalCents - couponDiscountCents - 1) / COIN_CENTS);
  return Math.max(0, Math.min(byShare, byRest, balance));
}

/** Why a ledger line exists, in words for the records page. */
export const ledgerReasons: Record<string, string> = {
  ...Object.fromEntries(Object.entries(coinRules).map(([k, v]) => [k, v.name])),
  order_paid: "订单支付奖励",
  order_refund_clawback: "订单退款收回",
  exchange_out: "兑换笔山",
  exchange_in: "金币兑换",
  redeem: "兑换商城",
  redeem_returned: "兑换失败退回",
  order_coin_deduction: "下单抵扣",
  order_coin_returned: "订单取消退回",
  grant: "平台发放",
};
