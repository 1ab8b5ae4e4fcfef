/**
 * Creating orders for courses, books and stationery SKUs (DESIGN §4): the price, SKU, coupon and
 * address snapshotted and stock reserved, in one transaction. The learner's open (unpaid) order
 * for the same item is reused, not duplicated: a partial unique index allows one, and a racing
 * second insert does nothing and reads the first. Gift and group orders are inserted here too
 * (insertOrder), by their own modules.
 */
import type { Transaction } from "kysely";
import { coursePurchaseRule } from "../../../shared/action-rules";
import { ORDER_PAY_MINUTES, type CreateOrderInput, type OrderDetail } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { AddressSnapshot, DB, ItemType, OrderPurpose } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { requireBuying } from "../../providers/payments/gateways";
import { enforce } from "../../rate-limit";
import { ownsCourse } from "../enrolments/enrolments";
import { couponDiscountFor } from "./discounts";
import { orderDetail } from "./read";
import type { OrderRow } from "./order-row";
import { closePending, newOrderNo } from "./state";

const conflict = (code: string, message: string) => new ApiError(409, code, message);

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
      .leftJoin("teachers", "teachers.id", "courses.teacher_id")
      .select(["courses.id", "courses.title", "courses.price_cents", "teachers.user_id as teacher_user_id"])
      .where("courses.id", "=", input.itemId)
      .where("courses.status", "=", "published")
      .executeTakeFirst();
    if (!course) throw notFound("课程不存在或已下架");
    if (course.price_cents === 0) throw new ApiError(400, "free_course", "这是免费课程，直接报名即可学习，无需下单");
    // The same rule the course page asks before offering 立即购买.
    const teaches = course.teacher_user_id === userId;
    const rule = coursePurchaseRule({ teaches, enrolled: await ownsCourse(trx, userId, course.id) });
    if (!rule.ok) throw conflict(teaches ? "own_course" : "already_owned", rule.reason);
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

/** Orders a learner may open in ten minutes, whatever they buy: purchases and gifts count together. */
export function limitOrderCreation(ctx: ApiContext, userId: number) {
  return enforce(
    ctx.database,
    [{ key: `orders:create:${userId}`, max: 30, windowSeconds: 600, message: "下单太频繁，请稍后再试" }],
    ctx.now(),
  );
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
