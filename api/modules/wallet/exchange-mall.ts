/**
 * The exchange mall: items bought with coins or bishan, with stock, per-learner limits and an
 * automatic return when fulfilment fails (or a redemption is left pending).
 *
 * Lock order, as everywhere in the wallet: a learner's coin wallet, then their bishan wallet, then
 * an exchange item's row.
 */
import type { AddressInput, ExchangeItem, RedeemResult } from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import type { Database } from "../../db/database";
import type { Currency } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { enrolLearner, ownsCourse } from "../enrolments/enrolments";
import { applyLedgerChange, balances, lockWallet } from "./ledger";

type ItemRow = {
  id: number;
  title: string;
  summary: string;
  kind: ExchangeItem["kind"];
  ref_id: number;
  currency: Currency;
  price: number;
  stock: number;
  per_user_limit: number;
  cover_char: string;
};

const itemColumns = [
  "id",
  "title",
  "summary",
  "kind",
  "ref_id",
  "currency",
  "price",
  "stock",
  "per_user_limit",
  "cover_char",
] as const;

const isPhysical = (kind: ExchangeItem["kind"]) => kind === "commodity" || kind === "book";

function itemOf(row: ItemRow, redeemed: number): ExchangeItem {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    kind: row.kind,
    physical: isPhysical(row.kind),
    currency: row.currency,
    price: row.price,
    stock: row.stock,
    perUserLimit: row.per_user_limit,
    redeemed,
    coverChar: row.cover_char,
    refId: row.ref_id,
  };
}

async function redeemedCounts(database: Database, userId: number | null, itemIds: number[]) {
  const counts = new Map<number, number>();
  if (userId === null || itemIds.length === 0) return counts;
  const rows = await database.db
    .selectFrom("exchange_redemptions")
    .select(["item_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("user_id", "=", userId)
    .where("item_id", "in", itemIds)
    .where("state", "in", ["pending", "completed"])
    .groupBy("item_id")
    .execute();
  for (const r of rows) counts.set(r.item_id, Number(r.n));
  return counts;
}

export async function listItems(ctx: ApiContext, userId: number | null): Promise<ExchangeItem[]> {
  const rows = await ctx.database.db
    .selectFrom("exchange_items")
    .select(itemColumns)
    .where("active", "=", true)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const counts = await redeemedCounts(
    ctx.database,
    userId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => itemOf(r, counts.get(r.id) ?? 0));
}

export async function itemById(ctx: ApiContext, userId: number | null, id: number): Promise<ExchangeItem> {
  const row = await ctx.database.db
    .selectFrom("exchange_items")
    .select(itemColumns)
    .where("id", "=", id)
    .where("active", "=", true)
    .executeTakeFirst();
  if (!row) throw notFound("兑换物品不存在或已下架");
  const counts = await redeemedCounts(ctx.database, userId, [id]);
  return itemOf(row, counts.get(id) ?? 0);
}

/** A snapshot of one of the learner's saved addresses (the shop checkout's address book). */
async function addressFromBook(ctx: ApiContext, userId: number, addressId: number): Promise<AddressInput> {
  const row = await ctx.database.db
    .selectFrom("addresses")
    .select(["recipient", "phone", "region", "detail"])
    .where("id", "=", addressId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(400, "address_required", "收货地址不存在，请重新选择");
  return row;
}

const soldOut = () => new ApiError(409, "sold_out", "已兑完");

/** Thrown by fulfilment when the thing behind an item cannot be handed out. */
class FulfilmentError extends Error {}

export async function redeemItem(
  ctx: ApiContext,
  userId: number,
  itemId: number,
  given: AddressInput | undefined,
  addressId?: number,
): Promise<RedeemResult> {
  let address = given;
  const db = ctx.database.db;
  const now = ctx.now();
  const item = await itemById(ctx, userId, itemId);
  if (item.physical && addressId !== undefined) address = await addressFromBook(ctx, userId, addressId);
  if (item.physical && !address) throw new ApiError(400, "address_required", "实物兑换请填写收货地址");

  // 1. Charge: lock the learner's wallet (serialises their redemptions), check the limit,
  //    take one from stock, record the redemption and debit the currency — all or nothing.
  const redemptionId = await db.transaction().execute(async (trx) => {
    await lockWallet(trx, userId, item.currency);
    if (item.kind === "course" && (await ownsCourse(trx, userId, item.refId)))
      throw new ApiError(409, "already_enrolled", "你已拥有这门课程，无需兑换");
    const taken = await trx
      .selectFrom("exchange_redemptions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("item_id", "=", itemId)
      .where("state", "in", ["pending", "completed"])
      .executeTakeFirstOrThrow();
    if (Number(taken.n) >= item.perUserLimit) {
      throw new ApiError(409, "limit_reached", `每人限兑 ${item.perUserLimit} 件，你已兑换过了`);
    }
    const stock = await trx
      .updateTable("exchange_items")
      .set((eb) => ({ stock: eb("stock", "-", 1) }))
      .where("id", "=", itemId)
      .where("active", "=", true)
      .where("stock", ">", 0)
      .returning("stock")
      .executeTakeFirst();
    if (!stock) throw soldOut();
    const created = await trx
      .insertInto("exchange_redemptions")
      .values({
        user_id: userId,
        item_id: itemId,
        currency: item.currency,
        price: item.price,
        address: item.physical && address ? JSON.stringify(address) : null,
        created_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await applyLedgerChange(trx, {
      userId,
      currency: item.currency,
      amount: -item.price,
      reason: "redeem",
      refType: "redemption",
      refId: created.id,
      idempotencyKey: String(created.id),
      note: item.title,
      at: now,
    });
    return created.id;
  });

  // 2. Fulfil. If that fails the redemption fails and everything it took goes back.
  let couponId: number | null = null;
  let courseId: number | null = null;
  let failure: string | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      if (item.kind === "coupon") {
        const template = await trx
          .selectFrom("coupon_templates")
          .select(["id", "valid_days", "valid_until"])
          .where("id", "=", item.refId)
          .executeTakeFirst();
        if (!template) throw new FulfilmentError("优惠券已停止发放");
        const validUntil = template.valid_days
          ? new Date(now.getTime() + template.valid_days * 86_400_000)
          : (template.valid_until as Date);
        const coupon = await trx
          .insertInto("coupons")
          .values({
            template_id: template.id,
            user_id: userId,
            source: "exchange",
            valid_from: now,
            valid_until: validUntil,
            claimed_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        couponId = coupon.id;
      } else if (item.kind === "course") {
        const course = await trx.selectFrom("courses").select("id").where("id", "=", item.refId).executeTakeFirst();
        if (!course) throw new FulfilmentError("课程已下架");
        await enrolLearner(trx, userId, course.id, "exchange", now);
        courseId = course.id;
      }
      const done = await trx
        .updateTable("exchange_redemptions")
        .set({ state: "completed", completed_at: now, delivery_state: item.physical ? "awaiting_shipment" : null })
        .where("id", "=", redemptionId)
        .where("state", "=", "pending")
        .returning("id")
        .executeTakeFirst();
      if (!done) throw new FulfilmentError("兑换状态已变化");
    });
  } catch (err) {
    failure = err instanceof FulfilmentError ? err.message : "发放失败";
    if (!(err instanceof FulfilmentError)) ctx.logger.error({ err, redemptionId }, "exchange fulfilment failed");
    await failRedemption(ctx, redemptionId, failure);
  }

  const title = item.title;
  const state = failure ? "failed" : "completed";
  return {
    redemption: {
      id: redemptionId,
      itemId,
      title,
      state,
      currency: item.currency,
      price: item.price,
      failure,
      couponId,
      courseId,
    },
    balances: await balances(db, userId),
    message: failure
      ? `兑换失败：${failure}。已自动退回 ${item.price} ${item.currency === "coin" ? "金币" : "笔山"}`
      : item.kind === "coupon"
        ? "兑换成功，优惠券已放入你的卡包"
        : item.kind === "course"
          ? "兑换成功，课程已加入“我的课程”"
          : "兑换成功，我们会尽快为你寄出",
  };
}

/**
 * Marks a pending redemption failed and returns its currency and stock — once: only the call that
 * moves it from pending does anything (compare-and-set), and the return's key is the redemption id.
 */
export async function failRedemption(ctx: ApiContext, redemptionId: number, failure: string): Promise<boolean> {
  return ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("exchange_redemptions")
      .select(["user_id", "currency"])
      .where("id", "=", redemptionId)
      .executeTakeFirst();
    if (!row) return false;
    await lockWallet(trx, row.user_id, row.currency);
    const failed = await trx
      .updateTable("exchange_redemptions")
      .set({ state: "failed", failure, completed_at: ctx.now() })
      .where("id", "=", redemptionId)
      .where("state", "=", "pending")
      .returning(["user_id", "item_id", "currency", "price"])
      .executeTakeFirst();
    if (!failed) return false;
    await applyLedgerChange(trx, {
      userId: failed.user_id,
      currency: failed.currency,
      amount: failed.price,
      reason: "redeem_returned",
      refType: "redemption",
      refId: redemptionId,
      idempotencyKey: String(redemptionId),
      note: failure,
      at: ctx.now(),
    });
    await trx
      .updateTable("exchange_items")
      .set((eb) => ({ stock: eb("stock", "+", 1) }))
      .where("id", "=", failed.item_id)
      .execute();
    return true;
  });
}

/** A redemption still pending this long was cut off between charge and fulfilment (a crash, a lost node). */
export const STALE_REDEMPTION_MS = 10 * 60_000;

/**
 * Fails redemptions left pending past STALE_REDEMPTION_MS, returning their currency and stock
 * (failRedemption's compare-and-set makes each return happen once, whichever node runs this).
 */
export async function sweepStaleRedemptions(ctx: ApiContext): Promise<number[]> {
  const stale = await ctx.database.db
    .selectFrom("exchange_redemptions")
    .select("id")
    .where("state", "=", "pending")
    .where("created_at", "<=", new Date(ctx.now().getTime() - STALE_REDEMPTION_MS))
    .orderBy("id")
    .limit(100)
    .execute();
  const returned: number[] = [];
  for (const { id } of stale) {
    if (await failRedemption(ctx, id, "发放超时未完成，已自动退回")) returned.push(id);
  }
  return returned;
}
