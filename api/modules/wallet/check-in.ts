/**
 * The 签到 button on the wallet page (/wallet/check-in). The check-in is today's practice-diary
 * entry, which pays the 每日签到 coins through the wallet (practice calls awardLearningCoins), so
 * practice's check-in is registered here at the composition root (server/services.ts) and the
 * wallet imports nothing from practice.
 */
import type { CheckInResult } from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";

export type CheckIn = (ctx: ApiContext, userId: number) => Promise<CheckInResult>;

let registered: CheckIn | null = null;

export const dailyCheckIn = {
  /** Registers the check-in (the composition root does, once; a second registration replaces the first). */
  register(checkIn: CheckIn) {
    registered = checkIn;
  },
  run(ctx: ApiContext, userId: number): Promise<CheckInResult> {
    if (!registered) throw new Error("no daily check-in registered");
    return registered(ctx, userId);
  },
};
