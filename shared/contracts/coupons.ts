/** Coupons and the learner's pack (/api/coupons). Amounts are integer cents (分). */
import { z } from "zod";
import { itemTypeSchema } from "./orders";
import { INT4_MAX } from "../ids";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

export const couponScopeSchema = z.enum(["all", "course", "book", "commodity"]);

export const couponRuleSchema = z.object({
  title: z.string(),
  kind: z.enum(["amount", "percent"]),
  amountOffCents: z.number().int(),
  percentOff: z.number().int(),
  thresholdCents: z.number().int(),
  scope: couponScopeSchema,
  scopeRefId: z.number().int().nullable(),
  /** "满 199 减 30", "9 折", "无门槛减 5 元". */
  headline: z.string(),
  /** "全部课程可用" … */
  scopeLabel: z.string(),
});

export const couponTemplateSchema = couponRuleSchema.extend({
  id: z.number().int(),
  validDays: z.number().int().nullable(),
  validUntil: z.string().nullable(),
  remaining: z.number().int().nullable(),
  perUserLimit: z.number().int(),
  claimedByMe: z.number().int(),
  canClaim: z.boolean(),
});
export type CouponTemplate = z.infer<typeof couponTemplateSchema>;

export const COUPON_TABS = ["可用", "已使用", "已过期", "已退回"] as const;
export type CouponTab = (typeof COUPON_TABS)[number];

export const couponSchema = couponRuleSchema.extend({
  id: z.number().int(),
  templateId: z.number().int(),
  state: z.enum(["available", "locked", "used", "returned", "expired"]),
  stateLabel: z.string(),
  validFrom: z.string(),
  validUntil: z.string(),
  orderNo: z.string().nullable(),
});
export type Coupon = z.infer<typeof couponSchema>;

export const couponListQuerySchema = z.object({
  state: z.enum(COUPON_TABS, "卡包分类不正确").default("可用"),
});
export const couponListSchema = z.object({
  items: z.array(couponSchema),
  counts: z.record(z.string(), z.number().int()),
});
export type CouponList = z.infer<typeof couponListSchema>;

export const templateListSchema = z.object({ items: z.array(couponTemplateSchema) });

export const claimInputSchema = z.strictObject(
  {
    templateId: z.number("优惠券不正确").int("优惠券不正确").positive("优惠券不正确").max(INT4_MAX, "优惠券不正确"),
  },
  { error: strictError },
);
export const claimResultSchema = z.object({ coupon: couponSchema });

export const bestQuerySchema = z.object({
  itemType: itemTypeSchema,
  itemId: z.coerce
    .number("商品编号不正确")
    .int("商品编号不正确")
    .positive("商品编号不正确")
    .max(INT4_MAX, "商品编号不正确"),
  skuId: z.coerce.number("商品规格不正确").int("商品规格不正确").positive("商品规格不正确").max(INT4_MAX).optional(),
  quantity: z.coerce
    .number("购买数量不正确")
    .int("购买数量不正确")
    .min(1, "购买数量至少为 1")
    .max(99, "每单最多购买 99 件")
    .default(1),
});

export const applicableCouponSchema = z.object({
  coupon: couponSchema,
  discountCents: z.number().int(),
});
export const bestCouponSchema = z.object({
  totalCents: z.number().int(),
  best: applicableCouponSchema.nullable(),
  applicable: z.array(applicableCouponSchema),
});
export type BestCoupon = z.infer<typeof bestCouponSchema>;

export const returnNoticeSchema = z.object({
  couponId: z.number().int(),
  title: z.string(),
  headline: z.string(),
  orderNo: z.string().nullable(),
  returnedAt: z.string(),
  validUntil: z.string(),
});
export const returnNoticeListSchema = z.object({ items: z.array(returnNoticeSchema) });
export type ReturnNotice = z.infer<typeof returnNoticeSchema>;

export const seenInputSchema = z.strictObject(
  { couponIds: z.array(z.number().int().positive()).max(100, "一次最多 100 张").optional() },
  { error: strictError },
);
