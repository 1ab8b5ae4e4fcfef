/**
 * What a gift order's moves do to its gift — the gift purpose's hooks (`giftPurpose`, registered
 * at the composition root and called by the order state machine inside the move's transaction:
 * api/modules/orders/purposes.ts) — and what an order shows of its gift. Each
 * change of a gift is a compare-and-set on its state, like the order's own moves.
 */
import type { Kysely, Selectable, Transaction } from "kysely";
import {
  formatGiftCode,
  GIFT_CLAIM_DAYS,
  GIFT_STATE_LABELS,
  giftClaimPath,
  type GiftInfo,
} from "../../../shared/contracts/gifts";
import type { DB, GiftsTable } from "../../db/schema";
import { notify } from "../../notices";
import type { OrderPurposeHooks } from "../orders/purposes";
import type { OrderRow } from "../orders/order-row";
import { formatDateTime } from "../../../shared/format";

export type GiftRow = Selectable<GiftsTable>;

export const NOTICE_GIFT_READY = "gift_ready";
export const NOTICE_GIFT_CLAIMED = "gift_claimed";
export const NOTICE_GIFT_RECEIVED = "gift_received";

const DAY_MS = 86_400_000;

/** Whether the buyer may take the money back now, and why not in plain words. */
export function giftRefundRule(gift: Pick<GiftRow, "state" | "claim_until">, now: Date) {
  switch (gift.state) {
    case "pending_payment":
      return { allowed: false, reason: "订单尚未支付，可直接取消订单" };
    case "cancelled":
      return { allowed: false, reason: "订单已取消" };
    case "claimed":
      return { allowed: false, reason: "礼物已被好友领取，不能退款" };
    case "refunding":
      return { allowed: false, reason: "退款正在处理中" };
    case "refunded":
      return { allowed: false, reason: "礼物已退款" };
    case "unclaimed":
      break;
  }
  if (gift.claim_until && gift.claim_until > now)
    return {
      allowed: false,
      reason: `礼物领取期至 ${formatDateTime(gift.claim_until.toISOString())}，期满仍未被领取时可申请退款`,
    };
  return { allowed: true, reason: `礼物 ${GIFT_CLAIM_DAYS} 天内未被领取，可全额退款` };
}

/** pending → paid of a gift order: the gift becomes claimable for 30 days, and the buyer gets its code. */
export async function giftPaid(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<OrderRow> {
  const claimUntil = new Date(at.getTime() + GIFT_CLAIM_DAYS * DAY_MS);
  const gift = await trx
    .updateTable("gifts")
    .set({ state: "unclaimed", claim_until: claimUntil })
    .where("order_id", "=", order.id)
    .where("state", "=", "pending_payment")
    .returning(["code", "course_id"])
    .executeTakeFirst();
  if (gift) {
    await notify(
      trx,
      order.user_id,
      NOTICE_GIFT_READY,
      "礼物已备好，快发给好友吧",
      `你为好友购买的《${order.title}》已支付成功。领取码 ${formatGiftCode(gift.code)}，领取链接 ${giftClaimPath(gift.course_id, gift.code)}。好友登录后打开链接或输入领取码即可领取；${formatDateTime(claimUntil.toISOString())} 前未被领取可申请退款。订单号 ${order.order_no}。`,
      at,
    );
  }
  // The order stays paid (待领取) until the gift is claimed or refunded.
  return order;
}

/** A gift order closed unpaid: its gift can never be claimed. */
export async function giftClosed(trx: Transaction<DB>, order: OrderRow, _at: Date): Promise<void> {
  await trx
    .updateTable("gifts")
    .set({ state: "cancelled" })
    .where("order_id", "=", order.id)
    .where("state", "=", "pending_payment")
    .execute();
}

/** A gift order's refund finished (the refund itself started from the unclaimed gift). */
export async function giftRefunded(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<void> {
  await trx
    .updateTable("gifts")
    .set({ state: "refunded", refunded_at: at })
    .where("order_id", "=", order.id)
    .where("state", "in", ["refunding", "unclaimed"])
    .execute();
}

/** The gift of a gift order, as its buyer sees it. */
export async function giftInfoOf(db: Kysely<DB>, order: OrderRow, now: Date): Promise<GiftInfo | null> {
  const gift = await db
    .selectFrom("gifts")
    .leftJoin("users", "users.id", "gifts.claimed_by")
    .selectAll("gifts")
    .select("users.nickname as claimer")
    .where("gifts.order_id", "=", order.id)
    .executeTakeFirst();
  if (!gift) return null;
  return {
    code: formatGiftCode(gift.code),
    claimPath: giftClaimPath(gift.course_id, gift.code),
    state: gift.state,
    stateLabel: GIFT_STATE_LABELS[gift.state],
    message: gift.message,
    claimUntil: gift.claim_until?.toISOString() ?? null,
    claimedBy: gift.claimed_by === null ? null : gift.claimer || "好友",
    claimedAt: gift.claimed_at?.toISOString() ?? null,
    refund: giftRefundRule(gift, now),
  };
}

/** The gift purpose's hooks. The recipient's enrolment comes with the claim, not the payment. */
export const giftPurpose: OrderPurposeHooks = {
  paid: giftPaid,
  closed: giftClosed,
  refunded: giftRefunded,
  details: async (db, order, now) => ({ gift: await giftInfoOf(db, order, now) }),
};
