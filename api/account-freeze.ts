/**
 * A frozen account (deletion requested, cooling-off running) may sign in, learn and withdraw the
 * request, but may not pay, exchange, earn, book, hand in homework or speak in a live room (the
 * deletion agreement). Endpoints that do
 * one of those call `refuseWhileFrozen` first; coins earned by learning events are skipped in
 * the ledger (wallet/ledger.ts) for the same accounts.
 */
import { frozenAccountMessage } from "../shared/contracts/me";
import type { User } from "./db/schema";
import { ApiError } from "./http";

export type FrozenAction =
  "购买或支付" | "兑换" | "签到领金币" | "领取优惠券" | "预约" | "报名" | "打卡" | "提交作业" | "在直播间发言" | "签到";

export function refuseWhileFrozen(user: Pick<User, "status">, action: FrozenAction): void {
  if (user.status === "deleting") throw new ApiError(403, "account_frozen", frozenAccountMessage(action));
}
