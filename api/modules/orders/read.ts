/**
 * Reading orders: the learner's list (by tab, with the counts per tab) and an order's detail —
 * its timeline, refund rule and request, coin offer, and what its purpose shows (a gift, a group).
 */
import type { Selectable } from "kysely";
import { COIN_CENTS, maxCoinsFor } from "../../../shared/currency";
import {
  ORDER_TABS,
  orderStateLabel,
  REFUND_STATE_LABELS,
  refundNeedsReview,
  type OrderDetail,
  type OrderList,
  type OrderSummary,
  type OrderTab,
} from "../../../shared/contracts/orders";
import { coverUrl } from "../../../shared/media";
import { formatMoney } from "../../../shared/money";
import type { ApiContext } from "../../context";
import type { ItemType, RefundsTable } from "../../db/schema";
import { notFound } from "../../http";
import { orderPurposes } from "./purposes";
import { piecesLeft, refundRule } from "./refund-rules";
import type { OrderRow } from "./order-row";

export const ORDER_PAGE_SIZE = 10;

export const orderNotFound = () => notFound("订单不存在");

async function coverOf(ctx: ApiContext, orders: OrderRow[]): Promise<Map<string, string>> {
  const ids = (t: ItemType) => [...new Set(orders.filter((o) => o.item_type === t).map((o) => o.item_id))];
  const { db } = ctx.database;
  const covers = new Map<string, string>();
  const [courses, books, commodities] = await Promise.all([
    ids("course").length
      ? db.selectFrom("courses").select(["id", "cover_char"]).where("id", "in", ids("course")).execute()
      : [],
    ids("book").length
      ? db.selectFrom("books").select(["id", "cover_char"]).where("id", "in", ids("book")).execute()
      : [],
    ids("commodity").length
      ? db.selectFrom("commodities").select(["id", "cover_char"]).where("id", "in", ids("commodity")).execute()
      : [],
  ]);
  for (const c of courses) covers.set(`course:${c.id}`, coverUrl(c.cover_char, "ink", "landscape"));
  for (const b of books) covers.set(`book:${b.id}`, coverUrl(b.cover_char, "gold", "portrait"));
  for (const c of commodities) covers.set(`commodity:${c.id}`, coverUrl(c.cover_char, "jade", "square"));
  return covers;
}

function summaryOf(o: OrderRow, covers: Map<string, string>, refund: OrderSummary["refund"]): OrderSummary {
  return {
    orderNo: o.order_no,
    purpose: o.purpose,
    itemType: o.item_type,
    itemId: o.item_id,
    skuId: o.sku_id,
    title: o.title,
    skuName: o.sku_name,
    coverUrl: covers.get(`${o.item_type}:${o.item_id}`) ?? coverUrl("墨", "ink", "square"),
    quantity: o.quantity,
    unitPriceCents: o.unit_price_cents,
    totalCents: o.total_cents,
    couponDiscountCents: o.coupon_discount_cents,
    coinDiscountCents: o.coin_discount_cents,
    payCents: o.pay_cents,
    physical: o.physical,
    state: o.state,
    stateLabel: orderStateLabel(o.purpose, o.state),
    createdAt: o.created_at.toISOString(),
    expiresAt: o.expires_at.toISOString(),
    refund,
  };
}

export async function listOrders(ctx: ApiContext, userId: number, tab: OrderTab, page: number): Promise<OrderList> {
  const { db } = ctx.database;
  const states = ORDER_TABS.find((t) => t.key === tab)?.states ?? [];
  let query = db.selectFrom("orders").where("user_id", "=", userId);
  if (states.length) query = query.where("state", "in", states);
  const [rows, total, byState] = await Promise.all([
    query
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(ORDER_PAGE_SIZE)
      .offset((page - 1) * ORDER_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
      .where("user_id", "=", userId)
      .groupBy("state")
      .execute(),
  ]);
  const counts: Record<string, number> = {};
  for (const t of ORDER_TABS) {
    counts[t.key] = byState
      .filter((r) => t.states.length === 0 || (t.states as readonly string[]).includes(r.state))
      .reduce((sum, r) => sum + Number(r.n), 0);
  }
  const now = ctx.now();
  const [covers, refunds] = await Promise.all([
    coverOf(ctx, rows),
    Promise.all(rows.map((o) => refundRule(ctx, o, now))),
  ]);
  return {
    items: rows.map((o, i) => summaryOf(o, covers, refunds[i] ?? { allowed: false, reason: "" })),
    page,
    pageSize: ORDER_PAGE_SIZE,
    total: Number(total.n),
    counts,
    serverNow: ctx.now().toISOString(),
  };
}

function timelineOf(o: OrderRow, refunds: Selectable<RefundsTable>[]) {
  const entries: { at: Date; label: string; detail: string }[] = [
    { at: o.created_at, label: "提交订单", detail: `订单号 ${o.order_no}` },
  ];
  if (o.paid_at) entries.push({ at: o.paid_at, label: "支付成功", detail: `实付 ${formatMoney(o.pay_cents)}` });
  if (o.paid_at && o.physical && o.state !== "cancelled")
    entries.push({ at: o.paid_at, label: "等待发货", detail: "我们会在 48 小时内发货" });
  if (o.shipped_at)
    entries.push({ at: o.shipped_at, label: "已发货", detail: `${o.carrier ?? "快递"} ${o.tracking_no ?? ""}`.trim() });
  if (o.completed_at)
    entries.push({
      at: o.completed_at,
      label: "订单完成",
      detail: o.physical ? "已确认收货" : o.purpose === "gift" ? "好友已领取礼物" : "课程已解锁",
    });
  if (o.cancelled_at) entries.push({ at: o.cancelled_at, label: "订单已取消", detail: o.cancel_reason ?? "" });
  for (const r of refunds) {
    const pieces = r.quantity !== null && r.quantity < o.quantity ? ` · ${r.quantity} 件` : "";
    const asked = r.previous_state !== null && refundNeedsReview({ physical: o.physical, state: r.previous_state });
    entries.push({
      at: r.created_at,
      label: asked ? "申请退货" : "申请退款",
      detail: `退款 ${formatMoney(r.amount_cents)}${pieces}`,
    });
    if (r.reviewed_at && r.state !== "withdrawn")
      entries.push({
        at: r.reviewed_at,
        label: r.state === "rejected" ? "退货申请未通过" : "退货申请已通过",
        detail: r.review_note ?? "",
      });
    if (r.completed_at && (r.state === "succeeded" || r.state === "failed"))
      entries.push({
        at: r.completed_at,
        label: r.state === "succeeded" ? "退款完成" : "退款失败",
        detail: r.state === "succeeded" ? "款项原路退回" : "请稍后再试或联系客服",
      });
    if (r.completed_at && r.state === "withdrawn")
      entries.push({ at: r.completed_at, label: "已撤销退货申请", detail: "" });
  }
  return entries
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((e) => ({ at: e.at.toISOString(), label: e.label, detail: e.detail }));
}

function requestView(r: Selectable<RefundsTable> | undefined): OrderDetail["refundRequest"] {
  if (!r) return null;
  return {
    id: r.id,
    state: r.state,
    stateLabel: REFUND_STATE_LABELS[r.state],
    amountCents: r.amount_cents,
    quantity: r.quantity,
    reason: r.reason,
    reviewNote: r.review_note,
    createdAt: r.created_at.toISOString(),
  };
}

export async function orderRowOf(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderRow> {
  const order = await ctx.database.db
    .selectFrom("orders")
    .selectAll()
    .where("order_no", "=", orderNo)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!order) throw orderNotFound();
  return order;
}

/** What coins could do for an unpaid order: the balance, and the coins (and yuan) it can take now. */
async function coinOfferFor(db: ApiContext["database"]["db"], o: OrderRow) {
  const wallet = await db
    .selectFrom("wallets")
    .select("balance")
    .where("user_id", "=", o.user_id)
    .where("currency", "=", "coin")
    .executeTakeFirst();
  const balance = wallet?.balance ?? 0;
  // Coins already on the order count as available to it.
  const maxCoins = maxCoinsFor(o.total_cents, o.coupon_discount_cents, balance + o.coins_used);
  return { balance, maxCoins, discountCents: maxCoins * COIN_CENTS };
}

const noPurposeDetails: Partial<Pick<OrderDetail, "gift" | "group">> = {};

export async function orderDetail(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderDetail> {
  const now = ctx.now();
  const o = await orderRowOf(ctx, userId, orderNo);
  const { db } = ctx.database;
  const [covers, refunds, coupon, firstLesson, refund, purpose, coinOffer] = await Promise.all([
    coverOf(ctx, [o]),
    db.selectFrom("refunds").selectAll().where("order_id", "=", o.id).orderBy("id").execute(),
    o.coupon_id === null
      ? undefined
      : db
          .selectFrom("coupons")
          .innerJoin("coupon_templates as t", "t.id", "coupons.template_id")
          .select("t.title")
          .where("coupons.id", "=", o.coupon_id)
          .executeTakeFirst(),
    o.item_type === "course"
      ? db
          .selectFrom("lessons")
          .innerJoin("chapters", "chapters.id", "lessons.chapter_id")
          .select("lessons.id")
          .where("lessons.course_id", "=", o.item_id)
          .orderBy("chapters.position")
          .orderBy("lessons.position")
          .limit(1)
          .executeTakeFirst()
      : undefined,
    refundRule(ctx, o, now),
    o.purpose === "buy" ? noPurposeDetails : orderPurposes.of(o.purpose).details(db, o, now),
    o.state === "pending" ? coinOfferFor(db, o) : null,
  ]);
  return {
    ...summaryOf(o, covers, refund),
    couponTitle: coupon?.title ?? null,
    coinsUsed: o.coins_used,
    address: o.address,
    provider: o.provider,
    paidAt: o.paid_at?.toISOString() ?? null,
    shippedAt: o.shipped_at?.toISOString() ?? null,
    completedAt: o.completed_at?.toISOString() ?? null,
    cancelledAt: o.cancelled_at?.toISOString() ?? null,
    cancelReason: o.cancel_reason,
    refundedCents: o.refunded_cents,
    carrier: o.carrier,
    trackingNo: o.tracking_no,
    timeline: timelineOf(o, refunds),
    refund,
    firstLessonId: firstLesson?.id ?? null,
    coinOffer,
    refundRequest: requestView(refunds.at(-1)),
    refundableQuantity: piecesLeft(o, refunds),
    gift: purpose.gift ?? null,
    group: purpose.group ?? null,
    serverNow: now.toISOString(),
  };
}
