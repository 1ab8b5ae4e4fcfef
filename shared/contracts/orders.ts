/**
 * Orders (/api/orders): creating an order for a course, a book or a stationery SKU, the
 * learner's list and detail with its snapshots and timeline, cancel, refund, confirm receipt,
 * shipping (operators) and the address book. Amounts are integer cents (分).
 */
import { z } from "zod";
import { phoneSchema } from "./auth";
import { giftInfoSchema } from "./gifts";
import { groupInfoSchema } from "./groups";
import { INT4_MAX } from "../ids";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

const id = (message: string) => z.number(message).int(message).positive(message).max(INT4_MAX, message);

export const itemTypeSchema = z.enum(["course", "book", "commodity"], "请选择要购买的商品类型");
export type ItemType = z.infer<typeof itemTypeSchema>;

export const createOrderSchema = z.strictObject(
  {
    itemType: itemTypeSchema,
    itemId: id("商品编号不正确"),
    skuId: id("请选择商品规格").optional(),
    quantity: z
      .number("购买数量不正确")
      .int("购买数量必须是整数")
      .min(1, "购买数量至少为 1")
      .max(99, "每单最多购买 99 件")
      .default(1),
    couponId: id("优惠券不正确").optional(),
    addressId: id("请选择收货地址").optional(),
  },
  { error: strictError },
);
export type CreateOrderInput = z.input<typeof createOrderSchema>;

export const ORDER_STATES = [
  "pending",
  "paid",
  "awaiting_shipment",
  "shipped",
  "completed",
  "cancelled",
  "refunding",
  "refunded",
  "partially_refunded",
] as const;
export const orderStateSchema = z.enum(ORDER_STATES);
export type OrderState = z.infer<typeof orderStateSchema>;

export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  pending: "待支付",
  paid: "已支付",
  awaiting_shipment: "待发货",
  shipped: "已发货",
  completed: "已完成",
  cancelled: "已取消",
  refunding: "退款中",
  refunded: "已退款",
  partially_refunded: "部分退款",
};

export const REFUND_STATES = ["requested", "processing", "succeeded", "failed", "rejected", "withdrawn"] as const;
export type RefundState = (typeof REFUND_STATES)[number];
export const REFUND_STATE_LABELS: Record<RefundState, string> = {
  requested: "退货待审核",
  processing: "退款处理中",
  succeeded: "已退款",
  failed: "退款失败",
  rejected: "退货申请未通过",
  withdrawn: "已撤销退货申请",
};

/** Whether a refund waits for an operator first: physical goods with the learner must come back. */
export function refundNeedsReview(order: { physical: boolean; state: OrderState }): boolean {
  return (
    order.physical && (order.state === "shipped" || order.state === "completed" || order.state === "partially_refunded")
  );
}

/** The money a refund of `pieces` gives back: in proportion, the last pieces take whatever is left. */
export function refundAmountFor(
  order: { payCents: number; refundedCents: number; quantity: number },
  pieces: number,
  piecesLeft: number,
): number {
  return pieces === piecesLeft
    ? order.payCents - order.refundedCents
    : Math.floor((order.payCents * pieces) / order.quantity);
}

/** The state as the learner reads it: a paid group seat is 拼团中 until the group resolves, a paid gift 待领取. */
export function orderStateLabel(purpose: OrderPurpose, state: OrderState): string {
  if (state === "paid" && purpose === "group") return "拼团中";
  if (state === "paid" && purpose === "gift") return "待领取";
  return ORDER_STATE_LABELS[state];
}

/** The list's tabs and the states each one shows. */
export const ORDER_TABS = [
  { key: "all", label: "全部", states: [] as OrderState[] },
  { key: "pending", label: "待支付", states: ["pending"] as OrderState[] },
  { key: "paid", label: "已支付", states: ["paid", "awaiting_shipment", "shipped"] as OrderState[] },
  { key: "completed", label: "已完成", states: ["completed"] as OrderState[] },
  { key: "cancelled", label: "已取消", states: ["cancelled"] as OrderState[] },
  { key: "refund", label: "退款", states: ["refunding", "refunded", "partially_refunded"] as OrderState[] },
] as const;
export type OrderTab = (typeof ORDER_TABS)[number]["key"];

export const orderListQuerySchema = z.object({
  state: z.enum(["all", "pending", "paid", "completed", "cancelled", "refund"], "订单状态不正确").default("all"),
  page: z.coerce.number("页码不正确").int("页码不正确").min(1, "页码不正确").max(1000, "页码不正确").default(1),
});

export const addressSnapshotSchema = z.object({
  recipient: z.string(),
  phone: z.string(),
  region: z.string(),
  detail: z.string(),
});

export const timelineEntrySchema = z.object({ at: z.string(), label: z.string(), detail: z.string() });

export const ORDER_PURPOSES = ["buy", "gift", "group"] as const;
export const orderPurposeSchema = z.enum(ORDER_PURPOSES);
export type OrderPurpose = z.infer<typeof orderPurposeSchema>;

export const orderSummarySchema = z.object({
  orderNo: z.string(),
  /** buy: for oneself; gift: a course bought for someone else; group: a group-buy seat. */
  purpose: orderPurposeSchema,
  itemType: itemTypeSchema,
  itemId: z.number().int(),
  skuId: z.number().int().nullable(),
  title: z.string(),
  skuName: z.string().nullable(),
  coverUrl: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  totalCents: z.number().int(),
  couponDiscountCents: z.number().int(),
  coinDiscountCents: z.number().int(),
  payCents: z.number().int(),
  physical: z.boolean(),
  state: orderStateSchema,
  stateLabel: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** 申请退款: whether the rules allow it now, and why (not). */
  refund: z.object({ allowed: z.boolean(), reason: z.string() }),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const refundRuleSchema = z.object({ allowed: z.boolean(), reason: z.string() });

export const orderDetailSchema = orderSummarySchema.extend({
  couponTitle: z.string().nullable(),
  coinsUsed: z.number().int(),
  address: addressSnapshotSchema.nullable(),
  provider: z.string().nullable(),
  paidAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  refundedCents: z.number().int(),
  carrier: z.string().nullable(),
  trackingNo: z.string().nullable(),
  timeline: z.array(timelineEntrySchema),
  refund: refundRuleSchema,
  /** The first lesson of a course order (the "开始学习" link once paid). */
  firstLessonId: z.number().int().nullable(),
  /** Unpaid orders: how many coins the learner has and how many this order can take (null once paid or closed). */
  coinOffer: z
    .object({ balance: z.number().int(), maxCoins: z.number().int(), discountCents: z.number().int() })
    .nullable(),
  /** The latest refund or return request of the order and where it stands. */
  refundRequest: z
    .object({
      id: z.number().int(),
      state: z.enum(REFUND_STATES),
      stateLabel: z.string(),
      amountCents: z.number().int(),
      quantity: z.number().int().nullable(),
      reason: z.string(),
      reviewNote: z.string().nullable(),
      createdAt: z.string(),
    })
    .nullable(),
  /** Pieces that can still be refunded (physical goods may be returned in part). */
  refundableQuantity: z.number().int(),
  /** Gift orders: the gift's code, claim link and state. */
  gift: giftInfoSchema.nullable(),
  /** Group-buy orders: the group and how far it is. */
  group: groupInfoSchema.nullable(),
  /** The server's clock when answering: the countdown to expiresAt runs on it. */
  serverNow: z.string(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderListSchema = z.object({
  items: z.array(orderSummarySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  serverNow: z.string(),
});
export type OrderList = z.infer<typeof orderListSchema>;

export const createOrderResultSchema = z.object({ order: orderDetailSchema, reused: z.boolean() });
export type CreateOrderResult = z.infer<typeof createOrderResultSchema>;

export const refundInputSchema = z.strictObject(
  {
    reason: z.string("请填写退款原因").trim().min(2, "请填写退款原因（至少 2 个字）").max(200, "退款原因最多 200 字"),
    /** Physical goods: how many pieces to return (default: all that are left). */
    quantity: z
      .number("退货数量不正确")
      .int("退货数量必须是整数")
      .min(1, "退货数量至少为 1")
      .max(99, "退货数量不正确")
      .optional(),
  },
  { error: strictError },
);

/** POST /api/orders/:orderNo/coins: put coins on the unpaid order (as many as allowed) or take them off. */
export const orderCoinsSchema = z.strictObject({ use: z.boolean("请选择是否使用金币抵扣") }, { error: strictError });

/** Operators: approving (optional note) or rejecting (a reason the learner reads) a return. */
export const reviewRefundSchema = z.strictObject(
  { note: z.string("请填写审核说明").trim().max(200, "审核说明最多 200 字").optional() },
  { error: strictError },
);
export const rejectRefundSchema = z.strictObject(
  {
    note: z.string("请填写不通过的原因").trim().min(2, "请填写不通过的原因（至少 2 个字）").max(200, "原因最多 200 字"),
  },
  { error: strictError },
);

/** Operators: returns waiting for review, oldest first. */
export const refundReviewListSchema = z.object({
  items: z.array(
    z.object({
      refundId: z.number().int(),
      orderNo: z.string(),
      title: z.string(),
      quantity: z.number().int().nullable(),
      amountCents: z.number().int(),
      reason: z.string(),
      createdAt: z.string(),
    }),
  ),
});

export const applyCouponSchema = z.strictObject({ couponId: id("优惠券不正确").nullable() }, { error: strictError });

export const shipInputSchema = z.strictObject(
  {
    carrier: z.string("请填写快递公司").trim().min(2, "请填写快递公司").max(20, "快递公司名称最多 20 字"),
    trackingNo: z
      .string("请填写快递单号")
      .trim()
      .regex(/^[A-Za-z0-9-]{6,40}$/, "快递单号应为 6–40 位字母或数字"),
  },
  { error: strictError },
);

export const addressInputSchema = z.strictObject(
  {
    recipient: z.string("请填写收货人").trim().min(1, "请填写收货人").max(20, "收货人最多 20 字"),
    phone: phoneSchema,
    region: z.string("请选择所在地区").trim().min(2, "请填写所在地区（省 市 区）").max(60, "所在地区最多 60 字"),
    detail: z.string("请填写详细地址").trim().min(5, "详细地址至少 5 个字").max(120, "详细地址最多 120 字"),
    isDefault: z.boolean("默认地址的设置不正确").default(false),
  },
  { error: strictError },
);
export type AddressInput = z.input<typeof addressInputSchema>;

export const addressSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  phone: z.string(),
  region: z.string(),
  detail: z.string(),
  isDefault: z.boolean(),
});
export type Address = z.infer<typeof addressSchema>;
export const addressListSchema = z.object({ items: z.array(addressSchema) });

/** Minutes an unpaid order stays open. */
export const ORDER_PAY_MINUTES = 30;
/** Days after payment (virtual) or confirmation (physical) a refund may be asked for. */
export const REFUND_DAYS = 7;
/** Days after shipping an order is confirmed automatically. */
export const AUTO_CONFIRM_DAYS = 7;
