/**
 * The learner's pack (卡包): the claim centre, claiming under limits, the coupons by tab, the best
 * coupon for a checkout, and the one-time notice for coupons returned by a cancelled or refunded
 * order. Claiming counts are right under concurrency: the template's claimed count moves by a
 * conditional update (never past its total), and one learner's claims take turns on a row lock.
 */
import type { Selectable } from "kysely";
import type {
  BestCoupon,
  Coupon,
  CouponList,
  CouponTab,
  CouponTemplate,
  ReturnNotice,
} from "../../../shared/contracts/coupons";
import type { ApiContext } from "../../context";
import type { CouponsTable, ItemType } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { appliesTo, discountOf, headlineOf, ruleView, validUntilFor, type TemplateRow } from "./rules";

type CouponRow = Selectable<CouponsTable>;

const STATE_LABELS = {
  available: "可用",
  locked: "使用中",
  used: "已使用",
  returned: "已退回 · 可再次使用",
  expired: "已过期",
} as const;

function viewOf(c: CouponRow, t: TemplateRow, now: Date, orderNo: string | null): Coupon {
  const expired = (c.state === "available" || c.state === "returned") && c.valid_until <= now;
  const state = expired ? "expired" : c.state;
  return {
    ...ruleView(t),
    id: c.id,
    templateId: t.id,
    state,
    stateLabel: STATE_LABELS[state],
    validFrom: c.valid_from.toISOString(),
    validUntil: c.valid_until.toISOString(),
    orderNo,
  };
}

export async function claimableTemplates(ctx: ApiContext, userId: number | null): Promise<CouponTemplate[]> {
  const now = ctx.now();
  const { db } = ctx.database;
  const templates = await db
    .selectFrom("coupon_templates")
    .selectAll()
    .where("claimable", "=", true)
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">", now)]))
    .orderBy("id")
    .execute();
  const mine =
    userId === null || templates.length === 0
      ? []
      : await db
          .selectFrom("coupons")
          .select(["template_id", (eb) => eb.fn.countAll<number>().as("n")])
          .where("user_id", "=", userId)
          .where(
            "template_id",
            "in",
            templates.map((t) => t.id),
          )
          .groupBy("template_id")
          .execute();
  return templates.map((t) => {
    const claimedByMe = Number(mine.find((m) => m.template_id === t.id)?.n ?? 0);
    const remaining = t.total_quantity === null ? null : Math.max(0, t.total_quantity - t.claimed_count);
    return {
      ...ruleView(t),
      id: t.id,
      validDays: t.valid_days,
      validUntil: t.valid_until?.toISOString() ?? null,
      remaining,
      perUserLimit: t.per_user_limit,
      claimedByMe,
      canClaim: claimedByMe < t.per_user_limit && remaining !== 0,
    };
  });
}

export async function claimCoupon(ctx: ApiContext, userId: number, templateId: number): Promise<Coupon> {
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const template = await trx
      .selectFrom("coupon_templates")
      .selectAll()
      .where("id", "=", templateId)
      .where("claimable", "=", true)
      .executeTakeFirst();
    if (!template) throw notFound("优惠券不存在或已停止发放");
    if (template.valid_until !== null && template.valid_until <= now)
      throw new ApiError(409, "coupon_ended", "该优惠券已过期，不能再领取");
    // One learner's claims take turns here, so the per-learner count below is exact.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const mine = await trx
      .selectFrom("coupons")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("template_id", "=", templateId)
      .executeTakeFirstOrThrow();
    if (Number(mine.n) >= template.per_user_limit)
      throw new ApiError(409, "claim_limit", `每人限领 ${template.per_user_limit} 张，你已领取过了`);
    const counted = await trx
      .updateTable("coupon_templates")
      .set((eb) => ({ claimed_count: eb("claimed_count", "+", 1) }))
      .where("id", "=", templateId)
      .where((eb) => eb.or([eb("total_quantity", "is", null), eb("claimed_count", "<", eb.ref("total_quantity"))]))
      .returning("id")
      .executeTakeFirst();
    if (!counted) throw new ApiError(409, "sold_out", "优惠券已被领完");
    const coupon = await trx
      .insertInto("coupons")
      .values({
        template_id: templateId,
        user_id: userId,
        source: "claim",
        valid_from: now,
        valid_until: validUntilFor(template, now),
        claimed_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return viewOf(coupon, template, now, null);
  });
}

async function couponRows(ctx: ApiContext, userId: number) {
  const rows = await ctx.database.db
    .selectFrom("coupons")
    .innerJoin("coupon_templates as t", "t.id", "coupons.template_id")
    .leftJoin("orders", "orders.id", "coupons.order_id")
    .selectAll("coupons")
    .select([
      "t.title",
      "t.kind",
      "t.amount_off_cents",
      "t.percent_off",
      "t.threshold_cents",
      "t.scope",
      "t.scope_ref_id",
      "t.valid_days",
      "t.valid_until as t_valid_until",
      "t.total_quantity",
      "t.claimed_count",
      "t.per_user_limit",
      "t.claimable",
      "t.created_at as t_created_at",
      "t.retired_at",
      "orders.order_no",
    ])
    .where("coupons.user_id", "=", userId)
    .orderBy("coupons.valid_until", "asc")
    .orderBy("coupons.id", "desc")
    .execute();
  return rows.map((r) => {
    const template: TemplateRow = {
      id: r.template_id,
      title: r.title,
      kind: r.kind,
      amount_off_cents: r.amount_off_cents,
      percent_off: r.percent_off,
      threshold_cents: r.threshold_cents,
      scope: r.scope,
      scope_ref_id: r.scope_ref_id,
      valid_days: r.valid_days,
      valid_until: r.t_valid_until,
      total_quantity: r.total_quantity,
      claimed_count: r.claimed_count,
      per_user_limit: r.per_user_limit,
      claimable: r.claimable,
      created_at: r.t_created_at,
      retired_at: r.retired_at,
    };
    const coupon: CouponRow = {
      id: r.id,
      template_id: r.template_id,
      user_id: r.user_id,
      source: r.source,
      state: r.state,
      valid_from: r.valid_from,
      valid_until: r.valid_until,
      order_id: r.order_id,
      used_at: r.used_at,
      returned_at: r.returned_at,
      return_notice_seen_at: r.return_notice_seen_at,
      claimed_at: r.claimed_at,
      issue_key: r.issue_key,
    };
    return { coupon, template, orderNo: r.order_no };
  });
}

/**
 * The tabs a coupon is listed under. A returned coupon can be used again, so it is among the
 * usable ones (可用) as well as in the record of what came back (已退回).
 */
const TABS_OF: Record<Coupon["state"], readonly CouponTab[]> = {
  available: ["可用"],
  returned: ["可用", "已退回"],
  locked: ["已使用"],
  used: ["已使用"],
  expired: ["已过期"],
};

export async function myCoupons(ctx: ApiContext, userId: number, tab: CouponTab): Promise<CouponList> {
  const now = ctx.now();
  const all = (await couponRows(ctx, userId)).map((r) => viewOf(r.coupon, r.template, now, r.orderNo));
  const counts: Record<string, number> = { 可用: 0, 已使用: 0, 已过期: 0, 已退回: 0 };
  for (const c of all) for (const t of TABS_OF[c.state]) counts[t] = (counts[t] ?? 0) + 1;
  return { items: all.filter((c) => TABS_OF[c.state].includes(tab)), counts };
}

/** The item's price for `quantity`, as an order would snapshot it. */
async function totalFor(
  ctx: ApiContext,
  itemType: ItemType,
  itemId: number,
  skuId: number | undefined,
  quantity: number,
) {
  const { db } = ctx.database;
  if (itemType === "course") {
    const c = await db
      .selectFrom("courses")
      .select("price_cents")
      .where("id", "=", itemId)
      .where("status", "=", "published")
      .executeTakeFirst();
    if (!c) throw notFound("课程不存在或已下架");
    return c.price_cents;
  }
  if (itemType === "book") {
    const b = await db
      .selectFrom("books")
      .select("price_cents")
      .where("id", "=", itemId)
      .where("status", "=", "published")
      .executeTakeFirst();
    if (!b) throw notFound("书籍不存在或已下架");
    return b.price_cents * quantity;
  }
  let q = db.selectFrom("commodity_skus").select("price_cents").where("commodity_id", "=", itemId);
  q = skuId !== undefined ? q.where("id", "=", skuId) : q.orderBy("position").orderBy("id");
  const s = await q.executeTakeFirst();
  if (!s) throw notFound("商品或规格不存在");
  return s.price_cents * quantity;
}

/** The coupons that apply to this purchase, best first: biggest discount, then the soonest to expire. */
export async function bestCoupon(
  ctx: ApiContext,
  userId: number,
  input: { itemType: ItemType; itemId: number; skuId?: number; quantity: number },
): Promise<BestCoupon> {
  const now = ctx.now();
  const totalCents = await totalFor(
    ctx,
    input.itemType,
    input.itemId,
    input.skuId,
    input.itemType === "course" ? 1 : input.quantity,
  );
  const applicable = (await couponRows(ctx, userId))
    .filter(
      ({ coupon }) =>
        (coupon.state === "available" || coupon.state === "returned") &&
        coupon.valid_until > now &&
        coupon.valid_from <= now,
    )
    .filter(({ template }) => appliesTo(template, input.itemType, input.itemId))
    .map((r) => ({
      coupon: viewOf(r.coupon, r.template, now, null),
      discountCents: discountOf(r.template, totalCents),
    }))
    .filter((a) => a.discountCents > 0)
    .sort((a, b) => b.discountCents - a.discountCents || a.coupon.validUntil.localeCompare(b.coupon.validUntil));
  return { totalCents, best: applicable[0] ?? null, applicable };
}

/** Coupons returned by a cancelled or refunded order that the learner has not been told about yet. */
export async function returnNotices(ctx: ApiContext, userId: number): Promise<ReturnNotice[]> {
  const rows = await ctx.database.db
    .selectFrom("coupons")
    .innerJoin("coupon_templates as t", "t.id", "coupons.template_id")
    .leftJoin("orders", "orders.id", "coupons.order_id")
    .select([
      "coupons.id",
      "coupons.returned_at",
      "coupons.valid_until",
      "t.title",
      "t.kind",
      "t.amount_off_cents",
      "t.percent_off",
      "t.threshold_cents",
      "orders.order_no",
    ])
    .where("coupons.user_id", "=", userId)
    .where("coupons.state", "=", "returned")
    .where("coupons.returned_at", "is not", null)
    .where("coupons.return_notice_seen_at", "is", null)
    .orderBy("coupons.returned_at", "desc")
    .execute();
  return rows.map((r) => ({
    couponId: r.id,
    title: r.title,
    headline: headlineOf(r),
    orderNo: r.order_no,
    returnedAt: (r.returned_at as Date).toISOString(),
    validUntil: r.valid_until.toISOString(),
  }));
}

export async function markReturnNoticesSeen(ctx: ApiContext, userId: number, couponIds?: number[]): Promise<number> {
  let q = ctx.database.db
    .updateTable("coupons")
    .set({ return_notice_seen_at: ctx.now() })
    .where("user_id", "=", userId)
    .where("state", "=", "returned")
    .where("return_notice_seen_at", "is", null);
  if (couponIds) {
    if (couponIds.length === 0) return 0;
    q = q.where("id", "in", couponIds);
  }
  const rows = await q.returning("id").execute();
  return rows.length;
}
