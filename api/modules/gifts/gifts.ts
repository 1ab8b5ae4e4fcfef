/**
 * Gifts (DESIGN §4): a course bought for someone else. Buying creates a gift order (paid like any
 * order) and its gift with a secret claim code; a signed-in recipient claims it once and is
 * enrolled; the buyer can take the money back when nobody claimed it within its 30 days.
 *
 * Claim and refund each move the gift by compare-and-set on its state — a claim only while
 * unclaimed and inside the window, a refund only while unclaimed and after it — so many claimers
 * at once, or a claim and a refund at once, change it at most once.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { categoryTones } from "../../../shared/contracts/catalogue";
import {
  formatGiftCode,
  GIFT_CODE_ALPHABET,
  GIFT_CODE_LENGTH,
  GIFT_NOT_FOUND,
  GIFT_STATE_LABELS,
  type GiftClaimResult,
  type GiftView,
} from "../../../shared/contracts/gifts";
import { ORDER_PAY_MINUTES, type OrderDetail } from "../../../shared/contracts/orders";
import { coverUrl } from "../../../shared/media";
import { courseCategoryName } from "../../../shared/catalogue";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { ApiError, forbidden, notFound } from "../../http";
import { enrolLearner, ownsCourse } from "../enrolments/enrolments";
import { insertOrder } from "../orders/create";
import { orderDetail } from "../orders/read";
import { settleRefund } from "../orders/refunds";
import { requireBuying } from "../../providers/payments/gateways";
import { notify } from "../../notices";
import { closePending, moveOrder } from "../orders/state";
import { giftRefundRule, type GiftRow, NOTICE_GIFT_CLAIMED, NOTICE_GIFT_RECEIVED } from "./fulfil";
import { formatDateTime } from "../../../shared/format";
import { maskNickname } from "../../../shared/format";

const conflict = (code: string, message: string) => new ApiError(409, code, message);
const giftNotFound = () => notFound(GIFT_NOT_FOUND);

/** 12 characters of the alphabet from crypto random bytes (256 is a multiple of 32: no bias). */
export function newGiftCode(): string {
  return Array.from(randomBytes(GIFT_CODE_LENGTH), (b) => GIFT_CODE_ALPHABET[b % GIFT_CODE_ALPHABET.length]).join("");
}

/** Why the viewer cannot claim the gift now, or null when they can. */
function claimRefusal(gift: GiftRow, viewerId: number, ownsCourse: boolean, now: Date): ApiError | null {
  if (gift.buyer_id === viewerId) return conflict("own_gift", "不能领取自己赠送的课程");
  switch (gift.state) {
    case "claimed":
      return gift.claimed_by === viewerId
        ? conflict("claimed_by_you", "你已领取这份礼物")
        : conflict("gift_claimed", "礼物已被领取");
    case "pending_payment":
      return conflict("gift_unpaid", "赠送人还没有完成支付，暂时不能领取");
    case "cancelled":
      return conflict("gift_cancelled", "礼物已失效（赠送人没有完成支付）");
    case "refunding":
    case "refunded":
      return conflict("gift_refunded", "礼物已退款，不能再领取");
    case "unclaimed":
      break;
  }
  if (gift.claim_until === null || gift.claim_until <= now) return conflict("gift_expired", "礼物已过领取期限");
  if (ownsCourse) return conflict("already_owned", "你已拥有这门课程，礼物可以留给其他好友领取");
  return null;
}

async function giftByCode(db: Pick<Transaction<DB>, "selectFrom">, code: string): Promise<GiftRow> {
  const gift = await db.selectFrom("gifts").selectAll().where("code", "=", code).executeTakeFirst();
  if (!gift) throw giftNotFound();
  return gift;
}

/** The buyer's unpaid gift order for a course (one at most: the orders' partial unique index). */
function openGiftOrder(db: Pick<Transaction<DB>, "selectFrom">, userId: number, courseId: number) {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("user_id", "=", userId)
    .where("purpose", "=", "gift")
    .where("item_type", "=", "course")
    .where("item_id", "=", courseId)
    .where("state", "=", "pending")
    .executeTakeFirst();
}

/** Thrown inside the transaction when another request created the same open gift order first. */
class ReuseExisting extends Error {}

/**
 * Buys a course as a gift: the order to pay and its gift (pending payment) with a new code. The
 * buyer's unpaid gift order for the same course is reused, with the new message. Owning the
 * course does not matter: the gift is for someone else.
 */
export async function createGift(
  ctx: ApiContext,
  userId: number,
  input: { courseId: number; message: string },
): Promise<{ order: OrderDetail; reused: boolean }> {
  requireBuying(ctx);
  const { db } = ctx.database;
  const now = ctx.now();
  const course = await db
    .selectFrom("courses")
    .select(["id", "title", "price_cents"])
    .where("id", "=", input.courseId)
    .where("status", "=", "published")
    .executeTakeFirst();
  if (!course) throw notFound("课程不存在或已下架");
  if (course.price_cents === 0)
    throw new ApiError(400, "free_course", "这是免费课程，好友直接报名就能学习，不需要购买赠送");

  const reuse = async (orderId: number, orderNo: string) => {
    await db
      .updateTable("gifts")
      .set({ message: input.message })
      .where("order_id", "=", orderId)
      .where("state", "=", "pending_payment")
      .execute();
    return { order: await orderDetail(ctx, userId, orderNo), reused: true };
  };

  const existing = await openGiftOrder(db, userId, course.id);
  if (existing) {
    if (existing.expires_at > now) return reuse(existing.id, existing.order_no);
    await db.transaction().execute((trx) => closePending(trx, existing.id, "超时未支付，订单已自动关闭", now));
  }
  try {
    const created = await db.transaction().execute(async (trx) => {
      const order = await insertOrder(trx, {
        userId,
        purpose: "gift",
        itemType: "course",
        itemId: course.id,
        skuId: null,
        quantity: 1,
        title: course.title,
        skuName: null,
        unitPriceCents: course.price_cents,
        couponId: null,
        couponDiscountCents: 0,
        physical: false,
        address: null,
        groupId: null,
        expiresAt: new Date(now.getTime() + ORDER_PAY_MINUTES * 60_000),
        now,
      });
      if (!order) throw new ReuseExisting();
      // 60 random bits: a clash is all but impossible, and the unique index catches it if it happens.
      for (let attempt = 0; attempt < 5; attempt++) {
        const gift = await trx
          .insertInto("gifts")
          .values({
            order_id: order.id,
            buyer_id: userId,
            course_id: course.id,
            code: newGiftCode(),
            message: input.message,
            created_at: now,
          })
          .onConflict((oc) => oc.column("code").doNothing())
          .returning("id")
          .executeTakeFirst();
        if (gift) return order;
      }
      throw new Error("no free gift code after 5 attempts");
    });
    return { order: await orderDetail(ctx, userId, created.order_no), reused: false };
  } catch (err) {
    if (!(err instanceof ReuseExisting)) throw err;
    const open = await openGiftOrder(db, userId, course.id);
    if (!open) throw conflict("order_busy", "订单正在创建中，请稍后再试");
    return reuse(open.id, open.order_no);
  }
}

/** The gift as its recipient sees it; `viewerId` null for a visitor. */
export async function viewGift(ctx: ApiContext, code: string, viewerId: number | null): Promise<GiftView> {
  const { db } = ctx.database;
  const gift = await giftByCode(db, code);
  const [course, giver, owns] = await Promise.all([
    db
      .selectFrom("courses")
      .innerJoin("teachers", "teachers.id", "courses.teacher_id")
      .select((eb) => [
        "courses.id",
        "courses.title",
        "courses.subtitle",
        "courses.category",
        "courses.cover_char",
        "courses.price_cents",
        "teachers.name as teacher_name",
        eb
          .selectFrom("lessons")
          .select((l) => l.fn.countAll<number>().as("n"))
          .whereRef("lessons.course_id", "=", "courses.id")
          .as("lessons_count"),
      ])
      .where("courses.id", "=", gift.course_id)
      .executeTakeFirstOrThrow(),
    db.selectFrom("users").select(["nickname", "avatar_url"]).where("id", "=", gift.buyer_id).executeTakeFirstOrThrow(),
    viewerId === null ? false : ownsCourse(db, viewerId, gift.course_id),
  ]);
  const refusal = viewerId === null ? null : claimRefusal(gift, viewerId, owns, ctx.now());
  return {
    code: formatGiftCode(gift.code),
    course: {
      id: course.id,
      title: course.title,
      subtitle: course.subtitle,
      teacherName: course.teacher_name,
      lessonsCount: Number(course.lessons_count ?? 0),
      coverUrl: coverUrl(course.cover_char, categoryTones[course.category], "landscape"),
      priceCents: course.price_cents,
      categoryName: courseCategoryName(course.category) ?? "",
    },
    giver: { nickname: maskNickname(giver.nickname), avatarUrl: giver.avatar_url },
    message: gift.message,
    state: gift.state,
    stateLabel: GIFT_STATE_LABELS[gift.state],
    claimUntil: gift.claim_until?.toISOString() ?? null,
    mine: viewerId !== null && gift.buyer_id === viewerId,
    claimedByViewer: viewerId !== null && gift.claimed_by === viewerId,
    claim: viewerId === null ? null : { allowed: refusal === null, reason: refusal?.message ?? "可以领取" },
  };
}

async function firstLessonOf(db: Pick<Transaction<DB>, "selectFrom">, courseId: number) {
  const row = await db
    .selectFrom("lessons")
    .innerJoin("chapters", "chapters.id", "lessons.chapter_id")
    .select("lessons.id")
    .where("lessons.course_id", "=", courseId)
    .orderBy("chapters.position")
    .orderBy("lessons.position")
    .orderBy("lessons.id")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The recipient claims the gift, in one transaction: the gift unclaimed → claimed (inside its
 * window, not the buyer's own), the recipient enrolled, the order paid → completed, a notice to
 * each. A recipient who owns the course already is refused and the gift stays for someone else.
 * Claiming again what one already claimed answers as the first time did.
 */
export async function claimGift(ctx: ApiContext, userId: number, code: string): Promise<GiftClaimResult> {
  const { db } = ctx.database;
  const now = ctx.now();
  const before = await giftByCode(db, code);
  const refusal = claimRefusal(before, userId, await ownsCourse(db, userId, before.course_id), now);
  if (refusal && refusal.code !== "claimed_by_you") throw refusal;
  const course = await db
    .selectFrom("courses")
    .select(["id", "title"])
    .where("id", "=", before.course_id)
    .executeTakeFirstOrThrow();
  const result = { courseId: course.id, courseTitle: course.title, firstLessonId: await firstLessonOf(db, course.id) };
  if (refusal) return result;

  await db.transaction().execute(async (trx) => {
    const gift = await trx
      .updateTable("gifts")
      .set({ state: "claimed", claimed_by: userId, claimed_at: now })
      .where("id", "=", before.id)
      .where("state", "=", "unclaimed")
      .where("claim_until", ">", now)
      .where("buyer_id", "<>", userId)
      .returningAll()
      .executeTakeFirst();
    if (!gift) {
      // Someone else got there first (or a refund started): say what it is now.
      const current = await giftByCode(trx, code);
      throw claimRefusal(current, userId, false, now) ?? conflict("gift_changed", "礼物状态已变化，请刷新后再试");
    }
    // Enrolled meanwhile (bought, another gift): the whole claim is undone, the gift stays unclaimed.
    if (!(await enrolLearner(trx, userId, gift.course_id, "gift", now)))
      throw conflict("already_owned", "你已拥有这门课程，礼物可以留给其他好友领取");
    const order = await moveOrder(trx, gift.order_id, "paid", "completed", { completed_at: now, at: now });
    if (!order) throw conflict("gift_changed", "礼物状态已变化，请刷新后再试");
    const people = await trx
      .selectFrom("users")
      .select(["id", "nickname"])
      .where("id", "in", [gift.buyer_id, userId])
      .execute();
    const nameOf = (id: number) => maskNickname(people.find((p) => p.id === id)?.nickname ?? "");
    await notify(
      trx,
      userId,
      NOTICE_GIFT_RECEIVED,
      "礼物领取成功",
      `你已领取 ${nameOf(gift.buyer_id)} 赠送的《${course.title}》，课程已解锁，现在就可以开始学习。`,
      now,
    );
    await notify(
      trx,
      gift.buyer_id,
      NOTICE_GIFT_CLAIMED,
      "礼物已被领取",
      `你赠送的《${course.title}》已被领取（${nameOf(userId)}，${formatDateTime(now.toISOString())}）。订单号 ${order.order_no}。`,
      now,
    );
  });
  return result;
}

/**
 * The buyer takes back the money of a gift nobody claimed within its window. One transaction
 * starts it (the gift unclaimed → refunding, the order paid → refunding, a refund row); then the
 * provider is asked and the refund finished (api/modules/orders settleRefund); if the provider
 * says no, the order and the gift go back as they were.
 */
export async function refundGift(ctx: ApiContext, userId: number, code: string, reason: string): Promise<OrderDetail> {
  const { db } = ctx.database;
  const now = ctx.now();
  const started = await db.transaction().execute(async (trx) => {
    const gift = await trx.selectFrom("gifts").selectAll().where("code", "=", code).forUpdate().executeTakeFirst();
    if (!gift) throw giftNotFound();
    if (gift.buyer_id !== userId) throw forbidden("只有赠送人可以为礼物申请退款");
    const rule = giftRefundRule(gift, now);
    if (!rule.allowed) throw conflict("refund_not_allowed", rule.reason);
    const held = await trx
      .updateTable("gifts")
      .set({ state: "refunding" })
      .where("id", "=", gift.id)
      .where("state", "=", "unclaimed")
      .where("claim_until", "<=", now)
      .returning("id")
      .executeTakeFirst();
    if (!held) throw conflict("gift_changed", "礼物状态已变化，请刷新后再试");
    const order = await moveOrder(trx, gift.order_id, "paid", "refunding", { refund_reason: reason, at: now });
    if (!order) throw conflict("order_changed", "订单状态已变化，请刷新后再试");
    const refund = await trx
      .insertInto("refunds")
      .values({ order_id: order.id, user_id: userId, amount_cents: order.pay_cents, reason, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { gift, order, refundId: refund.id };
  });
  try {
    await settleRefund(ctx, started.order, started.refundId, "paid", reason);
  } catch (err) {
    // The order is paid again (settleRefund put it back): so is the gift, claimable by nobody but refundable.
    await db
      .updateTable("gifts")
      .set({ state: "unclaimed" })
      .where("id", "=", started.gift.id)
      .where("state", "=", "refunding")
      .execute();
    throw err;
  }
  return orderDetail(ctx, userId, started.order.order_no);
}
