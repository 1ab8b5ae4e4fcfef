/**
 * Gifts (/api/gifts): a course bought for someone else. The buyer pays a gift order and gets a
 * claim link and code; a signed-in recipient claims it once and is enrolled; an unclaimed gift
 * can be refunded once its 30-day claim window has passed.
 */
import { z } from "zod";

/** Days a paid gift can be claimed; after them an unclaimed gift can be refunded. */
export const GIFT_CLAIM_DAYS = 30;

export const GIFT_STATES = ["pending_payment", "unclaimed", "claimed", "refunding", "refunded", "cancelled"] as const;
export const giftStateSchema = z.enum(GIFT_STATES);
export type GiftState = z.infer<typeof giftStateSchema>;

export const GIFT_STATE_LABELS: Record<GiftState, string> = {
  pending_payment: "待支付",
  unclaimed: "待领取",
  claimed: "已领取",
  refunding: "退款中",
  refunded: "已退款",
  cancelled: "已取消",
};

/** What the buyer sees of a gift on the order (detail pop-up, payment result). */
export const giftInfoSchema = z.object({
  code: z.string(),
  /** The claim link's path (`/course/{id}?gift={code}`); the page makes it absolute. */
  claimPath: z.string(),
  state: giftStateSchema,
  stateLabel: z.string(),
  message: z.string(),
  claimUntil: z.string().nullable(),
  claimedBy: z.string().nullable(),
  claimedAt: z.string().nullable(),
  /** Whether the buyer may ask for the money back now, and why not in plain words. */
  refund: z.object({ allowed: z.boolean(), reason: z.string() }),
});
export type GiftInfo = z.infer<typeof giftInfoSchema>;
