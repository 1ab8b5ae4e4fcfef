/**
 * Orders for courses, books and stationery SKUs (DESIGN §4): creation with the price, SKU,
 * coupon and address snapshotted and stock reserved, the learner's list and detail, cancel,
 * refund, confirm receipt, and shipping by operators. The learner's open (unpaid) order for the
 * same item is reused, not duplicated: a partial unique index allows one, and a racing second
 * insert does nothing and reads the first.
 */
import type { Selectable, Transaction } from "kysely";
import {
  AUTO_CONFIRM_DAYS,
  ORDER_PAY_MINUTES,
  ORDER_STATE_LABELS,
  ORDER_TABS,
  orderStateLabel,
  REFUND_STATE_LABELS,
  refundAmountFor,
  refundNeedsReview,
  REFUND_DAYS,
  type CreateOrderInput,
  type OrderDetail,
  type OrderList,
  type OrderSummary,
  type OrderTab,
} from "../../../shared/contracts/orders";
import { coverUrl } from "../../../shared/media";
import { COIN_CENTS, maxCoinsFor } from "../../../shared/currency";
import { formatMoney, formatYuan } from "../../../shared/money";
import type { ApiContext } from "../../context";
import type { AddressSnapshot, DB, ItemType, OrderPurpose, RefundsTable } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { refundOutcomes } from "../../metrics";
import { ownsCourse } from "../enrolments/enrolments";
import { appliesTo, discountOf } from "../coupons/rules";
import { notify } from "../../notices";
import { gatewayFor, requireBuying } from "../../providers/payments/gateways";
import { returnOrderCoins, setOrderCoins } from "../wallet/order-coins";
import { orderPurposes } from "./purposes";
import {
  closePending,
  finishRefund,
  moveOrder,
  newOrderNo,
  NOTICE_ORDER_REFUNDED,
  NOTICE_ORDER_SHIPPED,
  type OrderRow,
} from "./state";

const DAY_MS = 86_400_000;
export const ORDER_PAGE_SIZE = 10;

const conflict = (code: string, message: string) => new ApiError(409, code, message);
const orderNotFound = () => notFound("订单不存在");

interface Priced {
  title: string;
  skuName: string | null;
  unitPriceCents: number;
  physical: boolean;
  itemId: number;
  skuId: number | null;
}

/** The item as it is for sale right now: title, price and whether it ships. */
async function priceItem(
  trx: Transaction<DB>,
  userId: number,
  input: { itemType: ItemType; itemId: number; skuId?: number; quantity: number },
): Promise<Priced> {
  if (input.itemType === "course") {
    if (input.skuId !== undefined) throw new ApiError(400, "invalid_input", "课程没有规格可选");
    if (input.quantity !== 1) throw new ApiError(400, "invalid_input", "课程每单只能购买 1 份");
    const course = await trx
      .selectFrom("courses")
      .select(["id", "title", "price_cents"])
      .where("id", "=", input.itemId)
      .where("status", "=", "published")
      .executeTakeFirst();
    if (!course) throw notFound("课程不存在或已下架");
    if (course.price_cents === 0) throw new ApiError(400, "free_course", "这是免费课程，直接报名即可学习，无需下单");
    if (await ownsCourse(trx, userId, course.id)) throw conflict("already_owned", "你已拥有该课程");
    return {
      title: course.title,
      skuName: null,
      unitPriceCents: course.price_cents,
      physical: false,
      itemId: course.id,
      skuId: null,
    };
  }
  if (input.itemType === "book") {
    if (input.skuId !== undefined) throw new ApiError(400, "invalid_input", "书籍没有规格可选");
    const book = await trx
      .selectFrom("books")
      .select(["id", "title", "price_cents"])
      .where("id", "=", input.itemId)
      .where("status", "=", "published")
      .executeTakeFirst();
    if (!book) throw notFound("书籍不存在或已下架");
    return {
      title: book.title,
      skuName: null,
      unitPriceCents: book.price_cents,
      physical: true,
      itemId: book.id,
      skuId: null,
    };
  }
  if (input.skuId === undefined) throw new ApiError(400, "sku_required", "请选择商品规格");
  const sku = await trx
    .selectFrom("commodity_skus")
    .innerJoin("commodities", "commodities.id", "commodity_skus.commodity_id")
    .select([
      "commodities.id as commodityId",
      "commodities.title",
      "commodity_skus.id",
      "commodity_skus.name",
      "commodity_skus.price_cents",
    ])
    .where("commodity_skus.id", "=", input.skuId)
    .where("commodities.id", "=", input.itemId)
    .where("commodities.status", "=", "published")
    .executeTakeFirst();
  if (!sku) throw notFound("商品或规格不存在，请重新选择");
  return {
    title: sku.title,
    skuName: sku.name,
    unitPriceCents: sku.price_cents,
    physical: true,
    itemId: sku.commodityId,
    skuId: sku.id,
  };
}

/** Takes `quantity` from the stock if there is that much (0 rows: not enough). */
async function reserveStock(trx: Transaction<DB>, item: Priced, itemType: ItemType, quantity: number) {
  if (itemType === "course") return;
  const row =
    itemType === "book"
      ? await trx
          .updateTable("books")
          .set((eb) => ({ stock: eb("stock", "-", quantity) }))
          .where("id", "=", item.itemId)
          .where("stock", ">=", quantity)
          .returning("id")
          .executeTakeFirst()
      : await trx
          .updateTable("commodity_skus")
          .set((eb) => ({ stock: eb("stock", "-", quantity) }))
          .where("id", "=", item.skuId ?? 0)
          .where("stock", ">=", quantity)
          .returning("id")
          .executeTakeFirst();
  if (!row) throw conflict("out_of_stock", "库存不足");
}

async function addressSnapshot(trx: Transaction<DB>, userId: number, addressId: number | undefined) {
  if (addressId === undefined) throw new ApiError(400, "address_required", "请选择收货地址");
  const a = await trx
    .selectFrom("addresses")
    .select(["recipient", "phone", "region", "detail"])
    .where("id", "=", addressId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!a) throw new ApiError(400, "address_not_found", "收货地址不存在，请重新选择");
  return a satisfies AddressSnapshot;
}

/**
 * The discount a learner's coupon gives on an item at a total, or a 409 saying why it cannot be
 * used (gone, expired, another scope, under the threshold).
 */
export async function couponDiscountFor(
  trx: Transaction<DB>,
  userId: number,
  couponId: number,
  itemType: ItemType,
  itemId: number,
  totalCents: number,
  now: Date,
): Promise<number> {
  const coupon = await trx
    .selectFrom("coupons")
    .innerJoin("coupon_templates as t", "t.id", "coupons.template_id")
    .select([
      "coupons.id",
      "t.kind",
      "t.amount_off_cents",
      "t.percent_off",
      "t.threshold_cents",
      "t.scope",
      "t.scope_ref_id",
    ])
    .where("coupons.id", "=", couponId)
    .where("coupons.user_id", "=", userId)
    .where("coupons.state", "in", ["available", "returned"])
    .where("coupons.valid_from", "<=", now)
    .where("coupons.valid_until", ">", now)
    .executeTakeFirst();
  if (!coupon) throw conflict("coupon_unavailable", "优惠券不可用（已使用、已过期或不存在）");
  if (!appliesTo(coupon, itemType, itemId)) throw conflict("coupon_not_applicable", "该优惠券不适用于此商品");
  const discount = discountOf(coupon, totalCents);
  if (discount === 0)
    throw conflict(
      "coupon_threshold",
      `订单金额未达到优惠券的使用门槛（满 ${formatYuan(coupon.threshold_cents)} 元可用）`,
    );
  return discount;
}

/** A new order row as the callers build it; the rest (numbers, states, times) is filled in here. */
export interface NewOrder {
  userId: number;
  purpose: OrderPurpose;
  itemType: ItemType;
  itemId: number;
  skuId: number | null;
  quantity: number;
  title: string;
  skuName: string | null;
  unitPriceCents: number;
  couponId: number | null;
  couponDiscountCents: number;
  physical: boolean;
  address: AddressSnapshot | null;
  groupId: number | null;
  expiresAt: Date;
  now: Date;
}

/**
 * Inserts an order (pending) in the caller's transaction. Undefined when the learner already has
 * an open order for the same purpose, item and group (the partial unique index): reuse that one.
 * A coupon named on the order is locked to it by compare-and-set.
 */
export async function insertOrder(trx: Transaction<DB>, o: NewOrder): Promise<OrderRow | undefined> {
  const totalCents = o.unitPriceCents * o.quantity;
  const order = await trx
    .insertInto("orders")
    .values({
      order_no: newOrderNo(o.now),
      user_id: o.userId,
      purpose: o.purpose,
      item_type: o.itemType,
      item_id: o.itemId,
      sku_id: o.skuId,
      quantity: o.quantity,
      title: o.title,
      sku_name: o.skuName,
      unit_price_cents: o.unitPriceCents,
      total_cents: totalCents,
      coupon_id: o.couponId,
      coupon_discount_cents: o.couponDiscountCents,
      pay_cents: totalCents - o.couponDiscountCents,
      physical: o.physical,
      address: o.address ? JSON.stringify(o.address) : null,
      group_id: o.groupId,
      expires_at: o.expiresAt,
      created_at: o.now,
      updated_at: o.now,
      // Courses reserve nothing: mark them released so the release step is a no-op.
      stock_released_at: o.itemType === "course" ? o.now : null,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!order) return undefined;
  if (o.couponId !== null) {
    const locked = await trx
      .updateTable("coupons")
      .set({ state: "locked", order_id: order.id })
      .where("id", "=", o.couponId)
      .where("user_id", "=", o.userId)
      .where("state", "in", ["available", "returned"])
      .returning("id")
      .executeTakeFirst();
    if (!locked) throw conflict("coupon_unavailable", "优惠券刚刚已被使用，请重新选择");
  }
  return order;
}

/** Thrown inside the transaction when another request created the same open order first. */
class ReuseExisting extends Error {}

async function openOrderFor(ctx: ApiContext, userId: number, itemType: ItemType, itemId: number, skuId: number | null) {
  return ctx.database.db
    .selectFrom("orders")
    .selectAll()
    .where("user_id", "=", userId)
    .where("purpose", "=", "buy")
    .where("item_type", "=", itemType)
    .where("item_id", "=", itemId)
    .where((eb) => (skuId === null ? eb("sku_id", "is", null) : eb("sku_id", "=", skuId)))
    .where("group_id", "is", null)
    .where("state", "=", "pending")
    .executeTakeFirst();
}

export async function createOrder(
  ctx: ApiContext,
  userId: number,
  input: CreateOrderInput & { quantity: number },
): Promise<{ order: OrderDetail; reused: boolean }> {
  requireBuying(ctx);
  const now = ctx.now();
  const skuKey = input.itemType === "commodity" ? (input.skuId ?? null) : null;
  // An open order for the same item is reused (unless it is past its time: then it is closed first).
  const existing = await openOrderFor(ctx, userId, input.itemType, input.itemId, skuKey);
  if (existing) {
    if (existing.expires_at > now) return { order: await orderDetail(ctx, userId, existing.order_no), reused: true };
    await ctx.database.db
      .transaction()
      .execute((trx) => closePending(trx, existing.id, "超时未支付，订单已自动关闭", now));
  }
  try {
    const created = await ctx.database.db.transaction().execute(async (trx) => {
      const item = await priceItem(trx, userId, input);
      const address = item.physical ? await addressSnapshot(trx, userId, input.addressId) : null;
      const totalCents = item.unitPriceCents * input.quantity;
      const couponDiscount =
        input.couponId === undefined
          ? 0
          : await couponDiscountFor(trx, userId, input.couponId, input.itemType, item.itemId, totalCents, now);
      await reserveStock(trx, item, input.itemType, input.quantity);
      const order = await insertOrder(trx, {
        userId,
        purpose: "buy",
        itemType: input.itemType,
        itemId: item.itemId,
        skuId: item.skuId,
        quantity: input.quantity,
        title: item.title,
        skuName: item.skuName,
        unitPriceCents: item.unitPriceCents,
        couponId: input.couponId ?? null,
        couponDiscountCents: couponDiscount,
        physical: item.physical,
        address,
        groupId: null,
        expiresAt: new Date(now.getTime() + ORDER_PAY_MINUTES * 60_000),
        now,
      });
      if (!order) throw new ReuseExisting();
      return order;
    });
    return { order: await orderDetail(ctx, userId, created.order_no), reused: false };
  } catch (err) {
    if (!(err instanceof ReuseExisting)) throw err;
    const open = await openOrderFor(ctx, userId, input.itemType, input.itemId, skuKey);
    if (!open) throw conflict("order_busy", "订单正在创建中，请稍后再试");
    return { order: await orderDetail(ctx, userId, open.order_no), reused: true };
  }
}

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

function summaryOf(o: OrderRow, covers: Map<string, string>): OrderSummary {
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
  const covers = await coverOf(ctx, rows);
  return {
    items: rows.map((o) => summaryOf(o, covers)),
    page,
    pageSize: ORDER_PAGE_SIZE,
    total: Number(total.n),
    counts,
    serverNow: ctx.now().toISOString(),
  };
}

/** Whether the learner may ask for a refund now, and why not in plain words. */
export async function refundRule(
  ctx: ApiContext,
  order: OrderRow,
  now: Date,
  db: Pick<Transaction<DB>, "selectFrom"> = ctx.database.db,
): Promise<{ allowed: boolean; reason: string }> {
  const within = (from: Date | null) => from !== null && now.getTime() - from.getTime() <= REFUND_DAYS * DAY_MS;
  if (order.purpose === "gift")
    return { allowed: false, reason: "赠送的课程请在礼物信息中申请退款（领取期满仍未被领取时可退）" };
  if (order.purpose === "group" && order.state === "paid")
    return { allowed: false, reason: "拼团进行中，未能成团时会自动全额退款" };
  switch (order.state) {
    case "pending":
      return { allowed: false, reason: "订单尚未支付，可直接取消订单" };
    case "cancelled":
      return { allowed: false, reason: "订单已取消" };
    case "refunding":
      return { allowed: false, reason: "退款正在处理中" };
    case "refunded":
      return { allowed: false, reason: "订单已退款" };
    default:
      break;
  }
  if (!order.physical) {
    if (!within(order.paid_at)) return { allowed: false, reason: `已超过 ${REFUND_DAYS} 天退款期限，无法退款` };
    const consumed = await db
      .selectFrom("lesson_progress")
      .innerJoin("lessons", "lessons.id", "lesson_progress.lesson_id")
      .select("lesson_progress.lesson_id")
      .where("lesson_progress.user_id", "=", order.user_id)
      .where("lessons.course_id", "=", order.item_id)
      .limit(1)
      .executeTakeFirst();
    if (consumed) return { allowed: false, reason: "课程已开始学习，按退款规则不能再申请退款" };
    return { allowed: true, reason: `购买 ${REFUND_DAYS} 天内且未开始学习，可全额退款` };
  }
  if (order.state === "paid" || order.state === "awaiting_shipment")
    return { allowed: true, reason: "商品尚未发货，可全额退款" };
  if (order.state === "shipped") return { allowed: true, reason: `收货后 ${REFUND_DAYS} 天内可退货退款` };
  if (order.state === "completed" || (order.state === "partially_refunded" && order.completed_at)) {
    if (!within(order.completed_at)) return { allowed: false, reason: `已超过确认收货后 ${REFUND_DAYS} 天的退货期限` };
    return { allowed: true, reason: `确认收货 ${REFUND_DAYS} 天内可退货退款` };
  }
  return { allowed: false, reason: "当前状态不能申请退款" };
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
    ...summaryOf(o, covers),
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

/** The learner cancels an unpaid order: stock and coupon come back once, whoever else tries at the same time. */
export async function cancelOrder(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderDetail> {
  const order = await orderRowOf(ctx, userId, orderNo);
  const now = ctx.now();
  const closed = await ctx.database.db.transaction().execute((trx) => closePending(trx, order.id, "用户取消", now));
  if (!closed) {
    const current = await orderRowOf(ctx, userId, orderNo);
    if (current.state === "cancelled") throw conflict("already_cancelled", "订单已取消");
    throw conflict("not_pending", `订单${ORDER_STATE_LABELS[current.state]}，不能取消`);
  }
  // Tell the provider to stop taking money for it (best effort; a late payment is refunded anyway).
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}

/** Pieces of a physical order not yet refunded (refunds in progress count as refunded). */
function piecesLeft(order: OrderRow, refunds: Pick<Selectable<RefundsTable>, "state" | "quantity">[]): number {
  if (!order.physical) return order.refunded_cents > 0 ? 0 : order.quantity;
  const taken = refunds
    .filter((r) => r.state === "requested" || r.state === "processing" || r.state === "succeeded")
    .reduce((sum, r) => sum + (r.quantity ?? 0), 0);
  return Math.max(0, order.quantity - taken);
}

async function refundableQuantity(db: Pick<Transaction<DB>, "selectFrom">, order: OrderRow): Promise<number> {
  const refunds = await db
    .selectFrom("refunds")
    .select(["state", "quantity"])
    .where("order_id", "=", order.id)
    .execute();
  return piecesLeft(order, refunds);
}

/**
 * Refunds a paid order — in full, or for physical goods some of its pieces (the money for them in
 * proportion; the last pieces get whatever is left, so the parts add up to what was paid). Checked
 * against the rules, moved to 退款中 by compare-and-set (a second request sees it moved and is
 * refused), refunded at the provider, then finished in one transaction (finishRefund).
 */
export async function refundOrder(
  ctx: ApiContext,
  userId: number,
  orderNo: string,
  reason: string,
  quantity?: number,
): Promise<OrderDetail> {
  const now = ctx.now();
  const order = await orderRowOf(ctx, userId, orderNo);
  const started = await ctx.database.db.transaction().execute(async (trx) => {
    const rule = await refundRule(ctx, order, now, trx);
    if (!rule.allowed) throw conflict("refund_not_allowed", rule.reason);
    const left = await refundableQuantity(trx, order);
    const pieces = quantity ?? left;
    if (!order.physical && pieces !== order.quantity) throw new ApiError(400, "invalid_input", "课程只能整单退款");
    if (pieces < 1 || pieces > left) throw conflict("refund_quantity", `最多可退 ${left} 件`);
    // Part of an order only once it is received: before that the order is still to ship as a whole.
    if (pieces < left && order.state !== "completed" && order.state !== "partially_refunded")
      throw conflict("refund_quantity", "确认收货后可以退回部分商品；发货前或运输途中请整单退款");
    const amount = refundAmountFor(
      { payCents: order.pay_cents, refundedCents: order.refunded_cents, quantity: order.quantity },
      pieces,
      left,
    );
    if (amount <= 0) throw conflict("refund_not_allowed", "这笔订单没有可退的金额");
    const moved = await moveOrder(trx, order.id, order.state, "refunding", { refund_reason: reason, at: now });
    if (!moved) throw conflict("order_changed", "订单状态已变化，请刷新后再试");
    const review = refundNeedsReview(order);
    const refund = await trx
      .insertInto("refunds")
      .values({
        order_id: order.id,
        user_id: userId,
        amount_cents: amount,
        quantity: order.physical ? pieces : null,
        reason,
        state: review ? "requested" : "processing",
        previous_state: order.state,
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (review) {
      await notify(
        trx,
        userId,
        NOTICE_ORDER_REFUNDED,
        "退货申请已提交",
        `订单 ${order.order_no}（${order.title}）的退货申请已提交，审核通过后退款 ${formatMoney(amount)} 将原路退回。请先不要寄回商品，审核后我们会告诉你寄回地址。`,
        now,
      );
    }
    return { refundId: refund.id, previous: order.state, review };
  });
  if (!started.review) await settleRefund(ctx, order, started.refundId, started.previous, reason);
  return orderDetail(ctx, userId, orderNo);
}

/** Asks the provider for the money back and finishes the refund, or puts the order back. */
export async function settleRefund(
  ctx: ApiContext,
  order: OrderRow,
  refundId: number,
  previous: OrderRow["state"],
  reason: string,
) {
  const gateway = gatewayFor(ctx, order.provider ?? "sandbox");
  const { amount_cents: amountCents } = await ctx.database.db
    .selectFrom("refunds")
    .select("amount_cents")
    .where("id", "=", refundId)
    .executeTakeFirstOrThrow();
  let result: { ok: boolean; refundId: string; message?: string };
  try {
    result = gateway
      ? await gateway.refund({
          orderNo: order.order_no,
          txnId: order.provider_txn_id ?? "",
          refundNo: `R${order.order_no.slice(1)}${refundId}`,
          amountCents,
          totalCents: order.pay_cents,
          reason,
        })
      : { ok: false, refundId: "", message: "支付方式不可用" };
  } catch (err) {
    ctx.logger.error({ err, orderNo: order.order_no }, "refund request failed");
    result = { ok: false, refundId: "" };
  }
  const now = ctx.now();
  refundOutcomes.inc({ outcome: result.ok ? "succeeded" : "failed" });
  if (result.ok) {
    await ctx.database.db.transaction().execute((trx) => finishRefund(trx, order.id, refundId, result.refundId, now));
    return;
  }
  await ctx.database.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("refunds")
      .set({ state: "failed", completed_at: now })
      .where("id", "=", refundId)
      .where("state", "=", "processing")
      .execute();
    await moveOrder(trx, order.id, "refunding", previous, { at: now });
  });
  throw new ApiError(502, "refund_failed", "退款暂时没有成功，请稍后再试或联系客服");
}

/**
 * Changes the coupon of an unpaid order (or removes it): the old one is released, the new one
 * locked by compare-and-set, the discount and amount to pay recomputed from the snapshotted total.
 * A payment already started at the provider is closed (its amount is no longer the order's).
 */
export async function applyCoupon(ctx: ApiContext, userId: number, orderNo: string, couponId: number | null) {
  const now = ctx.now();
  const order = await orderRowOf(ctx, userId, orderNo);
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", order.id)
      .where("state", "=", "pending")
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw conflict("not_pending", "订单已支付或已关闭，不能更换优惠券");
    if (current.expires_at <= now) throw conflict("order_expired", "订单已超过支付时限，请重新下单");
    if (current.coupon_id === couponId) return;
    if (current.coupon_id !== null) {
      await trx
        .updateTable("coupons")
        .set({ state: "available", order_id: null })
        .where("id", "=", current.coupon_id)
        .where("order_id", "=", current.id)
        .where("state", "=", "locked")
        .execute();
    }
    let discount = 0;
    if (couponId !== null) {
      discount = await couponDiscountFor(
        trx,
        userId,
        couponId,
        current.item_type,
        current.item_id,
        current.total_cents,
        now,
      );
      const locked = await trx
        .updateTable("coupons")
        .set({ state: "locked", order_id: current.id })
        .where("id", "=", couponId)
        .where("state", "in", ["available", "returned"])
        .returning("id")
        .executeTakeFirst();
      if (!locked) throw conflict("coupon_unavailable", "优惠券刚刚已被使用，请重新选择");
    }
    // Coins that no longer fit beside the new coupon (at least 1 fen is always paid) go back.
    let coinDiscount = current.coin_discount_cents;
    if (current.coins_used > 0 && maxCoinsFor(current.total_cents, discount, current.coins_used) < current.coins_used) {
      await returnOrderCoins(trx, current, now);
      coinDiscount = 0;
    }
    await trx
      .updateTable("orders")
      .set({
        coupon_id: couponId,
        coupon_discount_cents: discount,
        ...(coinDiscount === 0 ? { coins_used: 0, coin_discount_cents: 0 } : {}),
        pay_cents: current.total_cents - discount - coinDiscount,
        provider: null,
        updated_at: now,
      })
      .where("id", "=", current.id)
      .where("state", "=", "pending")
      .execute();
  });
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}

/**
 * Puts coins on an unpaid order or takes them off (setOrderCoins: one ledger line each way, under
 * the order's row lock). A payment already started at the provider is closed: its amount changed.
 */
export async function applyOrderCoins(ctx: ApiContext, userId: number, orderNo: string, use: boolean) {
  const now = ctx.now();
  const order = await orderRowOf(ctx, userId, orderNo);
  await ctx.database.db.transaction().execute((trx) => setOrderCoins(trx, order.id, use, now));
  if (order.provider) {
    await gatewayFor(ctx, order.provider)
      ?.close(order.order_no)
      .catch((err: unknown) => ctx.logger.warn({ err, orderNo }, "payment close failed"));
  }
  return orderDetail(ctx, userId, orderNo);
}

export async function confirmReceipt(ctx: ApiContext, userId: number, orderNo: string): Promise<OrderDetail> {
  const order = await orderRowOf(ctx, userId, orderNo);
  const now = ctx.now();
  const done = await ctx.database.db
    .transaction()
    .execute((trx) => moveOrder(trx, order.id, "shipped", "completed", { completed_at: now, at: now }));
  if (!done)
    throw conflict("not_shipped", order.state === "completed" ? "订单已确认收货" : "订单尚未发货，不能确认收货");
  return orderDetail(ctx, userId, orderNo);
}

/** Operators: awaiting shipment → shipped, with the carrier and tracking number; the learner is told. */
export async function shipOrder(ctx: ApiContext, orderNo: string, input: { carrier: string; trackingNo: string }) {
  const now = ctx.now();
  const order = await ctx.database.db
    .selectFrom("orders")
    .selectAll()
    .where("order_no", "=", orderNo)
    .executeTakeFirst();
  if (!order) throw orderNotFound();
  const shipped = await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await moveOrder(trx, order.id, ["awaiting_shipment", "paid"], "shipped", {
      shipped_at: now,
      carrier: input.carrier,
      tracking_no: input.trackingNo,
      at: now,
    });
    if (!moved) return undefined;
    await notify(
      trx,
      moved.user_id,
      NOTICE_ORDER_SHIPPED,
      "订单已发货",
      `订单 ${moved.order_no}（${moved.title}）已由${input.carrier}发出，运单号 ${input.trackingNo}。收到后请确认收货；${AUTO_CONFIRM_DAYS} 天后将自动确认。`,
      now,
    );
    return moved;
  });
  if (!shipped) throw conflict("not_awaiting_shipment", "只有待发货的实物订单可以发货");
  return { orderNo, state: shipped.state };
}
