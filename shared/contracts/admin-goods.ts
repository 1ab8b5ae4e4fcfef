/**
 * The operator's books and stationery (/api/admin/…): their fields, variants and stock history.
 * Money is integer cents (分).
 */
import { z } from "zod";
import { pagedOf } from "./staff";
import {
  PUBLISH_STATES,
  MAX_STOCK_DELTA,
  text,
  requiredText,
  cents,
  coverChar,
  priceRule,
  PRICE_RULE_MESSAGE,
} from "./admin-catalogue-fields";

export const stockChangeInputSchema = z.object({
  delta: z
    .number()
    .int("数量必须是整数")
    .min(-MAX_STOCK_DELTA, "一次最多调整 100000 件")
    .max(MAX_STOCK_DELTA, "一次最多调整 100000 件")
    .refine((v) => v !== 0, "调整数量不能为 0"),
  reason: requiredText(200, "调整原因"),
});
export type StockChangeInput = z.infer<typeof stockChangeInputSchema>;

export const stockChangeSchema = z.object({
  id: z.number(),
  delta: z.number(),
  stockAfter: z.number(),
  reason: z.string(),
  actorName: z.string().nullable(),
  createdAt: z.string(),
});
export type StockChange = z.infer<typeof stockChangeSchema>;
export const stockResultSchema = z.object({ stock: z.number(), change: stockChangeSchema });

const bookFields = z.object({
  title: requiredText(80, "书名"),
  author: requiredText(60, "作者"),
  publisher: requiredText(60, "出版社"),
  isbn: z
    .string()
    .trim()
    .regex(/^(97[89])?\d{9}[\dX]$/, "ISBN 须是 10 或 13 位"),
  tab: requiredText(20, "分类"),
  priceCents: cents("售价"),
  originalPriceCents: cents("划线价"),
  coverChar,
  summary: text(1000, "简介"),
  pages: z
    .number("页数必须是数字")
    .int("页数必须是整数")
    .positive("页数必须大于 0")
    .max(10_000, "页数不能超过 10000")
    .nullable(),
});
/** The reason written on the stock change a new book or variant starts with. */
export const INITIAL_STOCK_REASON = "初始库存";
/** What a new item starts with on the shelf; kept as its first stock change. */
const initialStock = z
  .number("请填写初始库存（整数）")
  .int("初始库存必须是整数")
  .min(0, "初始库存不能为负")
  .max(MAX_STOCK_DELTA, `初始库存最多 ${MAX_STOCK_DELTA} 件`);
/** A new item is either kept back (未上架) or on sale at once. */
export const CREATE_STATES = ["draft", "published"] as const;
const createStatus = z.enum(CREATE_STATES, "请选择上架状态");

export const bookCreateSchema = bookFields
  .extend({
    summary: bookFields.shape.summary.default(""),
    pages: bookFields.shape.pages.default(null),
    stock: initialStock.default(0),
    status: createStatus.default("draft"),
  })
  .refine(priceRule, PRICE_RULE_MESSAGE);
export type BookCreate = z.input<typeof bookCreateSchema>;
export const bookPatchSchema = bookFields
  .partial()
  .extend({ status: z.enum(PUBLISH_STATES).optional() })
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(priceRule, PRICE_RULE_MESSAGE);

export const adminBookSchema = z.object({
  id: z.number(),
  title: z.string(),
  author: z.string(),
  publisher: z.string(),
  isbn: z.string(),
  tab: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  stock: z.number(),
  coverChar: z.string(),
  coverImage: z.string().nullable(),
  summary: z.string(),
  pages: z.number().nullable(),
  status: z.enum(PUBLISH_STATES),
  updatedAt: z.string(),
});
export type AdminBook = z.infer<typeof adminBookSchema>;
export const adminBookDetailSchema = adminBookSchema.extend({ history: z.array(stockChangeSchema) });
export type AdminBookDetail = z.infer<typeof adminBookDetailSchema>;

const commodityFields = z.object({
  title: requiredText(80, "商品名称"),
  category: requiredText(20, "分类"),
  summary: text(300, "简介"),
  description: text(5000, "详情"),
  coverChar,
});
export const commodityPatchSchema = commodityFields
  .partial()
  .extend({ status: z.enum(PUBLISH_STATES).optional() })
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容");

const skuFields = z.object({
  name: requiredText(40, "规格名称"),
  priceCents: cents("售价"),
  originalPriceCents: cents("划线价"),
});
export const skuCreateSchema = skuFields.refine(priceRule, PRICE_RULE_MESSAGE);

/** Most variants one commodity is created with. */
export const MAX_NEW_SKUS = 20;
export const commodityCreateSchema = commodityFields
  .extend({
    summary: commodityFields.shape.summary.default(""),
    description: commodityFields.shape.description.default(""),
    status: createStatus.default("draft"),
    skus: z
      .array(skuFields.extend({ stock: initialStock.default(0) }).refine(priceRule, PRICE_RULE_MESSAGE))
      .max(MAX_NEW_SKUS, `一次最多新建 ${MAX_NEW_SKUS} 个规格`)
      .default([]),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.skus.forEach((sku, i) => {
      if (seen.has(sku.name)) ctx.addIssue({ code: "custom", message: "规格名称不能重复", path: ["skus", i, "name"] });
      seen.add(sku.name);
    });
    if (v.status === "published" && v.skus.length === 0)
      ctx.addIssue({ code: "custom", message: "至少要有一个规格才能上架", path: ["status"] });
  });
export type CommodityCreate = z.input<typeof commodityCreateSchema>;
export const skuPatchSchema = skuFields
  .partial()
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(priceRule, PRICE_RULE_MESSAGE);

export const adminSkuSchema = z.object({
  id: z.number(),
  name: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  stock: z.number(),
  history: z.array(stockChangeSchema),
});
export type AdminSku = z.infer<typeof adminSkuSchema>;

export const adminCommoditySchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  summary: z.string(),
  description: z.string(),
  coverChar: z.string(),
  coverImage: z.string().nullable(),
  status: z.enum(PUBLISH_STATES),
  updatedAt: z.string(),
  skus: z.array(adminSkuSchema),
});
export type AdminCommodity = z.infer<typeof adminCommoditySchema>;
export const adminCommodityRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  status: z.enum(PUBLISH_STATES),
  skus: z.number(),
  stock: z.number(),
  minPriceCents: z.number().nullable(),
  updatedAt: z.string(),
});
export type AdminCommodityRow = z.infer<typeof adminCommodityRowSchema>;

export const adminBookPageSchema = pagedOf(adminBookSchema);
export const adminCommodityPageSchema = pagedOf(adminCommodityRowSchema);
