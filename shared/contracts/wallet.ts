/**
 * Coins (金币) and bishan (笔山): balances, daily check-in, one-way exchange, the exchange mall
 * and the ledger records (/api/wallet). The API validates with these schemas and the pages
 * check their forms with the same ones before sending.
 */
import { z } from "zod";
import { phoneSchema } from "./auth";
import { INT4_MAX } from "../ids";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

export const currencySchema = z.enum(["coin", "bishan"], "请选择金币或笔山");
export type WalletCurrency = z.infer<typeof currencySchema>;

export const balancesSchema = z.object({ coin: z.number().int(), bishan: z.number().int() });
export type Balances = z.infer<typeof balancesSchema>;

export const walletSchema = z.object({
  balances: balancesSchema,
  /** Coins earned today (China time) per learning rule, with the rule's amount and daily cap. */
  today: z.array(
    z.object({
      rule: z.string(),
      name: z.string(),
      amount: z.number().int(),
      dailyCap: z.number().int(),
      earned: z.number().int(),
    }),
  ),
  checkedInToday: z.boolean(),
  rate: z.object({ coinsPerBishan: z.number().int(), maxBishanPerExchange: z.number().int() }),
});
export type Wallet = z.infer<typeof walletSchema>;

export const checkInResultSchema = z.object({
  already: z.boolean(),
  earned: z.number().int(),
  balance: z.number().int(),
  message: z.string(),
});
export type CheckInResult = z.infer<typeof checkInResultSchema>;

export const MAX_BISHAN_PER_EXCHANGE = 100;

export const exchangeInputSchema = z.strictObject(
  {
    bishan: z
      .number("请输入要兑换的笔山数量")
      .int("笔山只能按整数兑换")
      .min(1, "至少兑换 1 个笔山")
      .max(MAX_BISHAN_PER_EXCHANGE, `一次最多兑换 ${MAX_BISHAN_PER_EXCHANGE} 个笔山`),
  },
  { error: strictError },
);
export type ExchangeInput = z.infer<typeof exchangeInputSchema>;

export const exchangeResultSchema = z.object({
  exchangeId: z.string(),
  coinsSpent: z.number().int(),
  bishanGained: z.number().int(),
  balances: balancesSchema,
  message: z.string(),
});
export type ExchangeResult = z.infer<typeof exchangeResultSchema>;

export const exchangeItemKinds = { commodity: "文房用品", book: "书籍", coupon: "优惠券", course: "课程" } as const;
export type ExchangeItemKind = keyof typeof exchangeItemKinds;

export const exchangeItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  kind: z.enum(["commodity", "book", "coupon", "course"]),
  /** Physical goods need a delivery address. */
  physical: z.boolean(),
  currency: currencySchema,
  price: z.number().int(),
  stock: z.number().int(),
  perUserLimit: z.number().int(),
  /** How many this learner has redeemed (completed or in progress); 0 when signed out. */
  redeemed: z.number().int(),
  coverChar: z.string(),
  /** The catalogue object behind the item (course, book or commodity id; coupon template id). */
  refId: z.number().int(),
});
export type ExchangeItem = z.infer<typeof exchangeItemSchema>;

export const exchangeItemListSchema = z.object({ items: z.array(exchangeItemSchema) });
export type ExchangeItemList = z.infer<typeof exchangeItemListSchema>;

export const exchangeItemDetailSchema = z.object({ item: exchangeItemSchema, balances: balancesSchema.nullable() });
export type ExchangeItemDetail = z.infer<typeof exchangeItemDetailSchema>;

const trimmed = (min: number, max: number, empty: string, long: string) =>
  z.string(empty).trim().min(min, empty).max(max, long);

export const addressSchema = z.strictObject(
  {
    recipient: trimmed(1, 20, "请填写收件人", "收件人最多 20 个字"),
    phone: z.string("请填写收件人手机号").pipe(phoneSchema),
    region: trimmed(2, 40, "请填写所在地区（省 市 区）", "所在地区最多 40 个字"),
    detail: trimmed(4, 120, "请填写详细地址（至少 4 个字）", "详细地址最多 120 个字"),
  },
  { error: strictError },
);
export type AddressInput = z.infer<typeof addressSchema>;

/** A physical item goes to an address typed in, or to one from the learner's address book (addressId). */
export const redeemInputSchema = z
  .strictObject(
    {
      address: addressSchema.optional(),
      addressId: z
        .number("请选择收货地址")
        .int("请选择收货地址")
        .positive("请选择收货地址")
        .max(INT4_MAX, "请选择收货地址")
        .optional(),
    },
    { error: strictError },
  )
  .refine((v) => !(v.address && v.addressId), "请只选择一个收货地址");
export type RedeemInput = z.infer<typeof redeemInputSchema>;

export const redemptionStates = { pending: "处理中", completed: "已完成", failed: "失败（已退回）" } as const;

export const redeemResultSchema = z.object({
  redemption: z.object({
    id: z.number().int(),
    itemId: z.number().int(),
    title: z.string(),
    state: z.enum(["pending", "completed", "failed"]),
    currency: currencySchema,
    price: z.number().int(),
    failure: z.string().nullable(),
    couponId: z.number().int().nullable(),
    courseId: z.number().int().nullable(),
  }),
  balances: balancesSchema,
  message: z.string(),
});
export type RedeemResult = z.infer<typeof redeemResultSchema>;

export const ENTRIES_PAGE_SIZE = 20;

export const entriesQuerySchema = z.object({
  currency: currencySchema,
  page: z.coerce.number("页码不正确").int("页码不正确").min(1, "页码不正确").max(10_000, "页码不正确").default(1),
});

export const ledgerLineSchema = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  balanceAfter: z.number().int(),
  reason: z.string(),
  reasonName: z.string(),
  ref: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
  note: z.string(),
  createdAt: z.string(),
});
export type LedgerLine = z.infer<typeof ledgerLineSchema>;

export const ledgerPageSchema = z.object({
  currency: currencySchema,
  items: z.array(ledgerLineSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  balance: z.number().int(),
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

export const grantInputSchema = z.strictObject(
  { currency: currencySchema, amount: z.number().int().min(1).max(1_000_000) },
  { error: strictError },
);
