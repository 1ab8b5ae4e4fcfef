/**
 * The operator's commerce pages (/api/admin/…): exchange-mall items and stock, the shipping list
 * of redeemed goods, coupon templates and issuing, group-buy campaigns; and the learner's own
 * redemptions with their delivery. Amounts of money are integer cents (分).
 */
import { z } from "zod";
import { currencySchema } from "./wallet";
import { couponScopeSchema } from "./coupons";
import { pagedOf, staffPageQuery, type StaffPageQuery } from "./staff";
import { INT4_MAX } from "../ids";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;
const int = (message: string, min: number, max: number) =>
  z.number(message).int(message).min(min, message).max(max, message);
const text = (min: number, max: number, empty: string, long: string) =>
  z.string(empty).trim().min(min, empty).max(max, long);

/** Server-side paging, sorting and a search box, as every staff table takes them in its URL. */
export const adminListQuery = staffPageQuery;
export type AdminListQuery = StaffPageQuery;
export const pageOfRows = pagedOf;

// ---------------------------------------------------------------- the exchange mall

export const exchangeKindSchema = z.enum(["commodity", "book", "coupon", "course"], "请选择物品类型");

export const mallItemAdminSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  kind: exchangeKindSchema,
  refId: z.number().int(),
  currency: currencySchema,
  price: z.number().int(),
  stock: z.number().int(),
  perUserLimit: z.number().int(),
  coverChar: z.string(),
  active: z.boolean(),
  position: z.number().int(),
  /** Redemptions that went through or are in progress. */
  redeemedCount: z.number().int(),
});
export type MallItemAdmin = z.infer<typeof mallItemAdminSchema>;
export const mallItemPageSchema = pageOfRows(mallItemAdminSchema);

export const mallListQuery = adminListQuery.extend({
  active: z.enum(["all", "on", "off"], "上下架筛选不正确").default("all"),
  kind: exchangeKindSchema.optional(),
});

const mallItemFields = {
  title: text(2, 40, "请填写物品名称（至少 2 个字）", "物品名称最多 40 字"),
  summary: z.string("简介不正确").trim().max(200, "简介最多 200 字").default(""),
  kind: exchangeKindSchema,
  refId: int("请填写关联的课程、书籍、文房或优惠券编号", 1, INT4_MAX),
  currency: z.enum(["coin", "bishan"], "请选择金币或笔山"),
  price: int("价格应为 1–1000000 的整数", 1, 1_000_000),
  perUserLimit: int("每人限兑应为 1–99", 1, 99),
  coverChar: z
    .string("请填写封面字")
    .trim()
    .refine((v) => [...v].length === 1, "封面字只能是一个字"),
  active: z.boolean("上架状态不正确").default(true),
  position: int("排序应为 0–9999", 0, 9999).default(0),
};
export const mallItemInputSchema = z.strictObject(
  { ...mallItemFields, stock: int("初始库存应为 0–100000", 0, 100_000) },
  { error: strictError },
);
export const mallItemUpdateSchema = z.strictObject(mallItemFields, { error: strictError });
export type MallItemInput = z.input<typeof mallItemInputSchema>;

export const stockChangeSchema = z.strictObject(
  {
    delta: int("库存变动应为 -100000–100000 之间的非零整数", -100_000, 100_000).refine(
      (v) => v !== 0,
      "库存变动不能为 0",
    ),
    reason: text(2, 60, "请填写库存变动原因", "原因最多 60 字"),
  },
  { error: strictError },
);

// ---------------------------------------------------------------- delivery of redeemed goods

export const DELIVERY_STATES = ["awaiting_shipment", "shipped", "delivered"] as const;
export const deliveryStateSchema = z.enum(DELIVERY_STATES);
export type DeliveryState = z.infer<typeof deliveryStateSchema>;
export const deliveryLabels: Record<DeliveryState, string> = {
  awaiting_shipment: "待发货",
  shipped: "已发货",
  delivered: "已签收",
};

const addressView = z.object({ recipient: z.string(), phone: z.string(), region: z.string(), detail: z.string() });

export const shipmentSchema = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  title: z.string(),
  kind: exchangeKindSchema,
  userId: z.number().int(),
  nickname: z.string(),
  address: addressView.nullable(),
  deliveryState: deliveryStateSchema,
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  createdAt: z.string(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type Shipment = z.infer<typeof shipmentSchema>;
export const shipmentPageSchema = pageOfRows(shipmentSchema);
export const shippingQuery = adminListQuery.extend({
  state: z.enum(["awaiting_shipment", "shipped", "delivered", "all"], "发货状态不正确").default("awaiting_shipment"),
});

export const redemptionShipSchema = z.strictObject(
  {
    carrier: z.string("请填写快递公司").trim().min(2, "请填写快递公司").max(20, "快递公司名称最多 20 字"),
    trackingNo: z
      .string("请填写快递单号")
      .trim()
      .regex(/^[A-Za-z0-9-]{6,40}$/, "快递单号应为 6–40 位字母或数字"),
  },
  { error: strictError },
);

/** One of the learner's own redemptions, as 兑换记录 lists them. */
export const myRedemptionSchema = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  title: z.string(),
  kind: exchangeKindSchema,
  currency: currencySchema,
  price: z.number().int(),
  state: z.enum(["pending", "completed", "failed"]),
  stateLabel: z.string(),
  failure: z.string().nullable(),
  deliveryState: deliveryStateSchema.nullable(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  address: addressView.nullable(),
  createdAt: z.string(),
  shippedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type MyRedemption = z.infer<typeof myRedemptionSchema>;
export const myRedemptionPageSchema = z.object({
  items: z.array(myRedemptionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type MyRedemptionPage = z.infer<typeof myRedemptionPageSchema>;
export const REDEMPTIONS_PAGE_SIZE = 10;
export const myRedemptionQuery = z.object({
  page: z.coerce.number("页码不正确").int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
});

// ---------------------------------------------------------------- coupons

export const couponTemplateAdminSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  kind: z.enum(["amount", "percent"]),
  amountOffCents: z.number().int(),
  percentOff: z.number().int(),
  thresholdCents: z.number().int(),
  scope: couponScopeSchema,
  scopeRefId: z.number().int().nullable(),
  headline: z.string(),
  scopeLabel: z.string(),
  validDays: z.number().int().nullable(),
  validUntil: z.string().nullable(),
  totalQuantity: z.number().int().nullable(),
  claimedCount: z.number().int(),
  perUserLimit: z.number().int(),
  claimable: z.boolean(),
  retiredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CouponTemplateAdmin = z.infer<typeof couponTemplateAdminSchema>;
export const couponTemplatePageSchema = pageOfRows(couponTemplateAdminSchema);
export const couponListQuery = adminListQuery.extend({
  status: z.enum(["all", "active", "retired"], "状态筛选不正确").default("all"),
});

export const couponTemplateInputSchema = z
  .strictObject(
    {
      title: text(2, 30, "请填写优惠券名称（至少 2 个字）", "优惠券名称最多 30 字"),
      kind: z.enum(["amount", "percent"], "请选择满减或折扣"),
      amountOffCents: int("减免金额应为 0–100000 分", 0, 100_000).default(0),
      percentOff: int("折扣应为 0–90（减免的百分比）", 0, 90).default(0),
      thresholdCents: int("门槛应为 0–10000000 分", 0, 10_000_000).default(0),
      scope: z.enum(["all", "course", "book", "commodity"], "请选择适用范围"),
      scopeRefId: int("指定商品编号不正确", 1, INT4_MAX).nullable().default(null),
      validDays: int("领取后有效天数应为 1–3650", 1, 3650).nullable().default(null),
      validUntil: z.iso.datetime({ offset: true, error: "截止时间不正确" }).nullable().default(null),
      totalQuantity: int("发放总量应为 0–10000000", 0, 10_000_000).nullable().default(null),
      perUserLimit: int("每人限领应为 1–99", 1, 99).default(1),
      claimable: z.boolean("是否可在领券中心领取不正确").default(true),
    },
    { error: strictError },
  )
  .refine((t) => t.kind !== "amount" || t.amountOffCents > 0, {
    message: "满减券请填写减免金额",
    path: ["amountOffCents"],
  })
  .refine((t) => t.kind !== "percent" || t.percentOff > 0, { message: "折扣券请填写折扣", path: ["percentOff"] })
  .refine((t) => t.validDays !== null || t.validUntil !== null, {
    message: "请填写领取后有效天数或截止时间",
    path: ["validDays"],
  })
  .refine((t) => t.scope !== "all" || t.scopeRefId === null, {
    message: "全场通用的券不能指定商品",
    path: ["scopeRefId"],
  });
export type CouponTemplateInput = z.input<typeof couponTemplateInputSchema>;

/** Most recipients one issue takes (phone numbers, e-mail addresses or account ids). */
export const ISSUE_MAX_RECIPIENTS = 500;
export const couponIssueSchema = z.strictObject(
  {
    recipients: z
      .string("请填写发放对象")
      .max(20_000, "发放对象太多")
      .transform((v) =>
        v
          .split(/[\s,，;；]+/)
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(
        z
          .array(z.string())
          .min(1, "请填写发放对象：手机号、邮箱或学员编号，每行一个")
          .max(ISSUE_MAX_RECIPIENTS, `一次最多发放给 ${ISSUE_MAX_RECIPIENTS} 人`),
      ),
  },
  { error: strictError },
);
export const couponIssueResultSchema = z.object({
  /** Coupons newly given by this call. */
  issued: z.number().int(),
  /** Learners who had already received one from this same batch (a repeated call). */
  already: z.number().int(),
  /** Entries no account was found for. */
  unknown: z.array(z.string()),
  message: z.string(),
});
export type CouponIssueResult = z.infer<typeof couponIssueResultSchema>;

// ---------------------------------------------------------------- group-buy campaigns

export const campaignAdminSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  courseTitle: z.string(),
  groupSize: z.number().int(),
  groupPriceCents: z.number().int(),
  validHours: z.number().int(),
  startsAt: z.string(),
  endsAt: z.string(),
  active: z.boolean(),
  status: z.enum(["upcoming", "running", "ended"]),
  statusLabel: z.string(),
  groupsOpen: z.number().int(),
  groupsComplete: z.number().int(),
});
export type CampaignAdmin = z.infer<typeof campaignAdminSchema>;
export const campaignPageSchema = pageOfRows(campaignAdminSchema);
export const campaignListQuery = adminListQuery.extend({
  status: z.enum(["all", "upcoming", "running", "ended"], "状态筛选不正确").default("all"),
});
export const campaignInputSchema = z
  .strictObject(
    {
      courseId: int("请填写课程编号", 1, INT4_MAX),
      groupSize: int("成团人数应为 2–10", 2, 10),
      groupPriceCents: int("拼团价应为 1–10000000 分", 1, 10_000_000),
      validHours: int("组团时限应为 1–72 小时", 1, 72),
      startsAt: z.iso.datetime({ offset: true, error: "开始时间不正确" }),
      endsAt: z.iso.datetime({ offset: true, error: "结束时间不正确" }),
    },
    { error: strictError },
  )
  .refine((c) => Date.parse(c.endsAt) > Date.parse(c.startsAt), {
    message: "结束时间应晚于开始时间",
    path: ["endsAt"],
  });
export type CampaignInput = z.input<typeof campaignInputSchema>;
