/**
 * The operators' order desk (/api/admin/orders) and dashboard (/api/admin/dashboard): every
 * learner's orders, searched and filtered on the server, an order's detail with its payments and
 * refunds, and the operators' moves — ship, review a return, retry a refused refund, refund by
 * hand. Amounts are integer cents (分).
 */
import { z } from "zod";
import {
  orderDetailSchema,
  orderStateSchema,
  refundInputSchema,
  rejectRefundSchema,
  reviewRefundSchema,
} from "./orders";
import { staffPageQuery, pagedOf } from "./staff";
import { INT4_MAX } from "../ids";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

/** Filters beside the order states: returns waiting for review, refunds the provider refused. */
const ADMIN_ORDER_FILTERS = ["return_requested", "refund_failed"] as const;
const adminOrderStateFilter = z.union([orderStateSchema, z.enum(ADMIN_ORDER_FILTERS)]);
export type AdminOrderStateFilter = z.infer<typeof adminOrderStateFilter>;

export const ADMIN_ORDER_KINDS = ["course", "book", "commodity", "gift", "group"] as const;
export const ADMIN_ORDER_KIND_LABELS: Record<(typeof ADMIN_ORDER_KINDS)[number], string> = {
  course: "课程",
  book: "书籍",
  commodity: "文房",
  gift: "赠课",
  group: "拼团",
};

const ADMIN_ORDER_SORTS = ["createdAt", "payCents", "orderNo", "state"] as const;

const chinaDateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为 YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "日期不正确");

/** Empty strings from a form's untouched fields count as absent. */
const blankAsUndefined = (v: unknown) => (v === "" ? undefined : v);

export const adminOrderQuerySchema = staffPageQuery.extend({
  sort: z.preprocess(blankAsUndefined, z.enum(ADMIN_ORDER_SORTS, "不支持的排序").optional()),
  state: z.preprocess(blankAsUndefined, adminOrderStateFilter.optional()),
  kind: z.preprocess(blankAsUndefined, z.enum(ADMIN_ORDER_KINDS, "不支持的订单类型").optional()),
  /** China calendar dates, both included. */
  from: z.preprocess(blankAsUndefined, chinaDateParam.optional()),
  to: z.preprocess(blankAsUndefined, chinaDateParam.optional()),
  /** One learner's orders (the account page links here). */
  userId: z.preprocess(blankAsUndefined, z.coerce.number().int().positive().max(INT4_MAX).optional()),
});
export type AdminOrderQuery = z.infer<typeof adminOrderQuerySchema>;

const adminOrderRowSchema = z.object({
  orderNo: z.string(),
  createdAt: z.string(),
  userId: z.number().int(),
  learner: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  title: z.string(),
  skuName: z.string().nullable(),
  quantity: z.number().int(),
  itemType: z.string(),
  purpose: z.string(),
  payCents: z.number().int(),
  refundedCents: z.number().int(),
  state: orderStateSchema,
  stateLabel: z.string(),
  physical: z.boolean(),
  /** A return waits for review / the latest refund was refused by the provider. */
  returnRequested: z.boolean(),
  refundFailed: z.boolean(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;
export const adminOrderPageSchema = pagedOf(adminOrderRowSchema);
export type AdminOrderPage = z.infer<typeof adminOrderPageSchema>;

const adminRefundSchema = z.object({
  id: z.number().int(),
  state: z.string(),
  stateLabel: z.string(),
  amountCents: z.number().int(),
  quantity: z.number().int().nullable(),
  reason: z.string(),
  reviewNote: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  providerRefundId: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

const adminPaymentSchema = z.object({
  provider: z.string(),
  txnId: z.string(),
  amountCents: z.number().int(),
  outcome: z.string(),
  receivedAt: z.string(),
});

export const adminOrderDetailSchema = z.object({
  order: orderDetailSchema,
  learner: z.object({
    id: z.number().int(),
    nickname: z.string(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    status: z.string(),
  }),
  payments: z.array(adminPaymentSchema),
  refunds: z.array(adminRefundSchema),
  actions: z.object({
    ship: z.boolean(),
    reviewReturn: z.boolean(),
    /** The refused refund that can be asked for again, or null. */
    retryRefundId: z.number().int().nullable(),
    refund: z.object({ allowed: z.boolean(), reason: z.string(), maxQuantity: z.number().int() }),
  }),
});
export type AdminOrderDetail = z.infer<typeof adminOrderDetailSchema>;

export const adminShipSchema = z.strictObject(
  {
    carrier: z.string("请填写快递公司").trim().min(2, "请填写快递公司").max(20, "快递公司名称最多 20 字"),
    trackingNo: z
      .string("请填写快递单号")
      .trim()
      .regex(/^[A-Za-z0-9-]{6,40}$/, "快递单号应为 6–40 位字母或数字"),
  },
  { error: strictError },
);
export const adminApproveReturnSchema = reviewRefundSchema;
export const adminRejectReturnSchema = rejectRefundSchema;
export const adminRefundInputSchema = refundInputSchema;
export const adminRetryRefundSchema = z.strictObject(
  { refundId: z.number("退款编号不正确").int().positive().max(INT4_MAX) },
  { error: strictError },
);

/** The operator's dashboard: what waits, today by the China day. Each figure links to its list. */
export const adminDashboardSchema = z.object({
  day: z.string(),
  ordersToday: z.number().int(),
  paidToday: z.number().int(),
  revenueTodayCents: z.number().int(),
  toShip: z.number().int(),
  /** Goods redeemed in the exchange mall waiting to be shipped (/admin/shipping). */
  redemptionsToShip: z.number().int(),
  returnsWaiting: z.number().int(),
  refundsProcessing: z.number().int(),
  refundsFailed: z.number().int(),
  homeworkWaiting: z.number().int(),
  homeworkOldestAt: z.string().nullable(),
  liveToday: z.number().int(),
  liveOnAir: z.number().int(),
  failedJobs: z.array(
    z.object({ job: z.string(), at: z.string(), error: z.string().nullable(), failedRuns: z.number().int() }),
  ),
  serverNow: z.string(),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
