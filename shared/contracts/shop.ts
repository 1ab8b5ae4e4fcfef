/**
 * Books and stationery (/api/shop): list queries with tabs, sorts and pages, the detail of a
 * book and of a commodity with its SKUs, and the small formatting both sides need (ISBN, stock).
 */
import { z } from "zod";
import { bookSummarySchema, commoditySummarySchema } from "./catalogue";

/** Unknown query parameters are refused by name, in Chinese. */
export const strictQueryError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的参数：${(issue.keys ?? []).join("、")}` : undefined;

/** A positive whole number from the query string ("2"), with a default and an upper bound. */
export function pageNumberParam(label: string, max: number, fallback: number) {
  return z
    .string(`${label}必须是正整数`)
    .regex(/^\d{1,6}$/, `${label}必须是正整数`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label}必须是正整数`).max(max, `${label}不能超过 ${max}`))
    .optional()
    .transform((v) => v ?? fallback);
}

/** A tab or category name from the query string; empty means "all". */
const nameParam = (label: string) =>
  z
    .string(`${label}格式不正确`)
    .trim()
    .max(20, `${label}最多 20 个字`)
    .optional()
    .transform((v) => (v ? v : null));

export const SHOP_PAGE_SIZE = 12;
export const SHOP_PAGE_SIZE_MAX = 48;

const paged = {
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  total: z.number().int(),
};
/** The page fields of a list answer: `total` items in pages of `query.pageSize`, at least one page. */
export function pageOf(query: { page: number; pageSize: number }, total: number) {
  return {
    total,
    page: query.page,
    pageSize: query.pageSize,
    pageCount: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}
const namedCount = z.object({ name: z.string(), count: z.number().int() });
export type NamedCount = z.infer<typeof namedCount>;

// ---------- Books ----------

export const bookSorts = {
  newest: "最新上架",
  popular: "热门",
  price_asc: "价格从低到高",
  price_desc: "价格从高到低",
} as const;
export type BookSort = keyof typeof bookSorts;
const bookSortKeys = Object.keys(bookSorts) as [BookSort, ...BookSort[]];

export const bookListQuerySchema = z.strictObject(
  {
    tab: nameParam("分类"),
    sort: z.enum(bookSortKeys, "排序方式不正确").default("newest"),
    page: pageNumberParam("页码", 1000, 1),
    pageSize: pageNumberParam("每页数量", SHOP_PAGE_SIZE_MAX, SHOP_PAGE_SIZE),
  },
  { error: strictQueryError },
);
export type BookListQuery = z.infer<typeof bookListQuerySchema>;

export const bookListSchema = z.object({
  items: z.array(bookSummarySchema),
  ...paged,
  tab: z.string().nullable(),
  sort: z.enum(bookSortKeys),
  /** Every tab with its number of books, in shelf order; `allCount` is the sum. */
  tabs: z.array(namedCount),
  allCount: z.number().int(),
});
export type BookList = z.infer<typeof bookListSchema>;

export const bookOverviewSchema = z.object({
  newest: z.array(bookSummarySchema),
  tabs: z.array(namedCount.extend({ books: z.array(bookSummarySchema) })),
  allCount: z.number().int(),
});
export type BookOverview = z.infer<typeof bookOverviewSchema>;

export const bookDetailSchema = bookSummarySchema.extend({
  isbn: z.string(),
  summary: z.string(),
  pages: z.number().int().nullable(),
  /** YYYY-MM-DD */
  publishedOn: z.string().nullable(),
  /** The page's public address (canonical, for structured data and sharing). */
  url: z.string(),
  related: z.array(bookSummarySchema),
});
export type BookDetail = z.infer<typeof bookDetailSchema>;

/** At or under this many left, the page says "仅剩 N 本/件". */
export const LOW_STOCK = 10;
/** Never more than this many of one thing in one order. */
export const MAX_QUANTITY = 99;

export function bookStockLabel(stock: number): string {
  if (stock <= 0) return "暂时缺货";
  if (stock <= LOW_STOCK) return `仅剩 ${stock} 本`;
  return "有货";
}

/** Registrant (publisher) code lengths in the 978-7 (China) group, by the code's first digits. */
function chinaRegistrantLength(rest: string): number {
  const two = Number(rest.slice(0, 2));
  if (two <= 9) return 2;
  if (two <= 49) return 3;
  if (two <= 79) return 4;
  if (two <= 89) return 5;
  return 6;
}

/** "9787547901006" → "978-7-5479-0100-6"; other groups keep prefix and check digit apart. */
export function formatIsbn(isbn: string): string {
  const digits = isbn.replace(/[^0-9Xx]/g, "");
  if (digits.length !== 13) return isbn;
  const prefix = digits.slice(0, 3);
  const check = digits.slice(12);
  if (digits[3] !== "7") return `${prefix}-${digits.slice(3, 12)}-${check}`;
  const rest = digits.slice(4, 12);
  const registrant = chinaRegistrantLength(rest);
  return `${prefix}-7-${rest.slice(0, registrant)}-${rest.slice(registrant)}-${check}`;
}

// ---------- Stationery ----------

export const commoditySorts = {
  sales: "销量",
  newest: "最新上架",
  price_asc: "价格从低到高",
  price_desc: "价格从高到低",
} as const;
export type CommoditySort = keyof typeof commoditySorts;
const commoditySortKeys = Object.keys(commoditySorts) as [CommoditySort, ...CommoditySort[]];

const flagParam = z
  .enum(["1", "0", "true", "false"], "只看有货的取值不正确")
  .optional()
  .transform((v) => v === "1" || v === "true");

export const commodityListQuerySchema = z.strictObject(
  {
    category: nameParam("分类"),
    sort: z.enum(commoditySortKeys, "排序方式不正确").default("sales"),
    inStock: flagParam,
    page: pageNumberParam("页码", 1000, 1),
    pageSize: pageNumberParam("每页数量", SHOP_PAGE_SIZE_MAX, SHOP_PAGE_SIZE),
  },
  { error: strictQueryError },
);
export type CommodityListQuery = z.infer<typeof commodityListQuerySchema>;

export const commodityListSchema = z.object({
  items: z.array(commoditySummarySchema),
  ...paged,
  category: z.string().nullable(),
  sort: z.enum(commoditySortKeys),
  inStock: z.boolean(),
  /** Every category with its number of items under the same in-stock filter. */
  categories: z.array(namedCount),
  allCount: z.number().int(),
});
export type CommodityList = z.infer<typeof commodityListSchema>;

export const skuSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  priceCents: z.number().int(),
  originalPriceCents: z.number().int(),
  stock: z.number().int(),
});
export type Sku = z.infer<typeof skuSchema>;

export const commodityDetailSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: z.string(),
  summary: z.string(),
  description: z.string(),
  coverChar: z.string(),
  coverImage: z.string().nullable().optional(),
  /** Pictures in order, the cover first. */
  gallery: z.array(z.object({ char: z.string(), url: z.string() })),
  sales: z.number().int(),
  skus: z.array(skuSchema),
  lowPriceCents: z.number().int(),
  highPriceCents: z.number().int(),
  inStock: z.boolean(),
  url: z.string(),
  related: z.array(commoditySummarySchema),
});
export type CommodityDetail = z.infer<typeof commodityDetailSchema>;

export function skuStockLabel(stock: number): string {
  if (stock <= 0) return "已售罄";
  if (stock <= LOW_STOCK) return `仅剩 ${stock} 件`;
  return `库存 ${stock} 件`;
}
