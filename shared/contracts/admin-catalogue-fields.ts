/**
 * What the operator's and the teacher's catalogue forms share: the course kinds, levels and
 * publishing states with their labels, the limits, the field rules (text, prices, cover character)
 * and the list query. Money is integer cents (分).
 */
import { z } from "zod";
import { courseCategories } from "../catalogue";
import { staffPageQuery } from "./staff";

export const CATEGORY_KEYS = courseCategories.map((c) => c.key) as [string, ...string[]];
export const COURSE_KINDS = ["recorded", "live", "camp"] as const;
export const COURSE_KIND_LABELS: Record<(typeof COURSE_KINDS)[number], string> = {
  recorded: "录播课",
  live: "直播课",
  camp: "训练营",
};
export const COURSE_LEVELS = ["beginner", "intermediate", "advanced"] as const;
export const COURSE_LEVEL_LABELS: Record<(typeof COURSE_LEVELS)[number], string> = {
  beginner: "入门",
  intermediate: "进阶",
  advanced: "高阶",
};
export const PUBLISH_STATES = ["draft", "published", "archived"] as const;
export const PUBLISH_STATE_LABELS: Record<(typeof PUBLISH_STATES)[number], string> = {
  draft: "未上架",
  published: "已上架",
  archived: "已归档",
};

/** Largest price an operator may type (one million yuan), in cents. */
export const MAX_PRICE_CENTS = 100_000_000;
/** Most a single stock change may move (either way). */
export const MAX_STOCK_DELTA = 100_000;

export const text = (max: number, label: string) => z.string().trim().max(max, `${label}不能超过 ${max} 个字`);
export const requiredText = (max: number, label: string) => text(max, label).min(1, `请填写${label}`);
export const cents = (label: string) =>
  z
    .number(`请填写${label}（元，最多两位小数）`)
    .int(`${label}必须是整数（分）`)
    .min(0, `${label}不能为负`)
    .max(MAX_PRICE_CENTS, `${label}太大了`);
/** One Han character (or any single code point) drawn on the generated cover. */
export const coverChar = z
  .string()
  .trim()
  .refine((v) => [...v].length === 1, "封面字只能是一个字");

export const priceRule = <T extends { priceCents?: number; originalPriceCents?: number }>(v: T) =>
  v.priceCents === undefined || v.originalPriceCents === undefined || v.originalPriceCents >= v.priceCents;
export const PRICE_RULE_MESSAGE = { message: "划线价不能低于售价", path: ["originalPriceCents"] };

// ---- lists (server-side paging, sorting and filtering) --------------------------------------

export const catalogueListQuerySchema = staffPageQuery.extend({
  status: z.enum(PUBLISH_STATES).optional().catch(undefined),
  category: z.string().max(20).optional().catch(undefined),
});
export type CatalogueListQuery = z.infer<typeof catalogueListQuerySchema>;
