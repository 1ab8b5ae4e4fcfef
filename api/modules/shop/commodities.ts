/** Stationery: the list by category with filters, sorts and pages, and one item with its SKUs. */
import { sql } from "kysely";
import {
  type CommodityDetail,
  type CommodityList,
  type CommodityListQuery,
  type NamedCount,
  pageOf,
} from "../../../shared/contracts/shop";
import type { CommoditySummary } from "../../../shared/contracts/catalogue";
import { coverUrl } from "../../../shared/media";
import type { Database } from "../../db/database";
import { publishedCommodities, toCommoditySummary } from "../courses/summaries";

const RELATED_COMMODITIES = 4;

/** For a row of `commodities`: whether any of its SKUs has stock. */
const hasStock = sql<boolean>`exists (
  select 1 from commodity_skus s where s.commodity_id = commodities.id and s.stock > 0
)`;

type CommodityRow = Parameters<typeof toCommoditySummary>[0];

/** `in_stock` arrives as the driver's boolean; the summary wants a plain one. */
export function commoditySummaryOf(row: Omit<CommodityRow, "in_stock"> & { in_stock: unknown }): CommoditySummary {
  return toCommoditySummary({ ...row, in_stock: Boolean(row.in_stock) });
}

/** Every category with its number of listed items (only those in stock if asked), in shelf order. */
async function commodityCategories(database: Database, inStock: boolean): Promise<NamedCount[]> {
  let select = database.db
    .selectFrom(publishedCommodities(database.db).as("c"))
    .select((eb) => ["c.category", eb.fn.countAll<number>().as("count"), eb.fn.min("c.id").as("first")])
    .groupBy("c.category")
    .orderBy("first");
  if (inStock) select = select.where("c.in_stock", "=", true);
  const rows = await select.execute();
  return rows.map((r) => ({ name: r.category, count: Number(r.count) }));
}

export async function listCommodities(database: Database, query: CommodityListQuery): Promise<CommodityList> {
  const categories = await commodityCategories(database, query.inStock);
  const allCount = categories.reduce((sum, c) => sum + c.count, 0);
  const total = query.category === null ? allCount : (categories.find((c) => c.name === query.category)?.count ?? 0);

  let select = publishedCommodities(database.db);
  if (query.category !== null) select = select.where("commodities.category", "=", query.category);
  if (query.inStock) select = select.where(hasStock);
  switch (query.sort) {
    case "sales":
      select = select.orderBy("commodities.sales", "desc");
      break;
    case "newest":
      select = select.orderBy("commodities.created_at", "desc");
      break;
    case "price_asc":
      select = select.orderBy("price_cents", "asc");
      break;
    case "price_desc":
      select = select.orderBy("price_cents", "desc");
      break;
  }
  const rows = await select
    .orderBy("commodities.id", "desc")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return {
    items: rows.map(commoditySummaryOf),
    ...pageOf(query, total),
    category: query.category,
    sort: query.sort,
    inStock: query.inStock,
    categories,
    allCount,
  };
}

export async function commodityDetail(
  database: Database,
  id: number,
  publicOrigin: string,
): Promise<CommodityDetail | null> {
  const { db } = database;
  const commodity = await db
    .selectFrom("commodities")
    .where("id", "=", id)
    .where("status", "=", "published")
    .select(["id", "title", "category", "summary", "description", "cover_char", "cover_image", "gallery", "sales"])
    .executeTakeFirst();
  if (!commodity) return null;
  const skus = await db
    .selectFrom("commodity_skus")
    .where("commodity_id", "=", id)
    .select(["id", "name", "price_cents", "original_price_cents", "stock"])
    .orderBy("position")
    .orderBy("id")
    .execute();
  if (skus.length === 0) return null;
  const related = await publishedCommodities(db)
    .where("commodities.category", "=", commodity.category)
    .where("commodities.id", "!=", id)
    .orderBy("commodities.sales", "desc")
    .orderBy("commodities.id")
    .limit(RELATED_COMMODITIES)
    .execute();
  const chars =
    Array.isArray(commodity.gallery) && commodity.gallery.length > 0 ? commodity.gallery : [commodity.cover_char];
  const prices = skus.map((s) => s.price_cents);
  return {
    id: commodity.id,
    title: commodity.title,
    category: commodity.category,
    summary: commodity.summary,
    description: commodity.description,
    coverChar: commodity.cover_char,
    coverImage: commodity.cover_image,
    // An uploaded cover leads the pictures; the generated ones of the gallery's characters follow.
    gallery: [
      ...(commodity.cover_image ? [{ char: commodity.cover_char, url: commodity.cover_image }] : []),
      ...chars.map((char) => ({ char, url: coverUrl(char, "jade", "square") })),
    ],
    sales: commodity.sales,
    skus: skus.map((s) => ({
      id: s.id,
      name: s.name,
      priceCents: s.price_cents,
      originalPriceCents: s.original_price_cents,
      stock: s.stock,
    })),
    lowPriceCents: Math.min(...prices),
    highPriceCents: Math.max(...prices),
    inStock: skus.some((s) => s.stock > 0),
    url: `${publicOrigin}/commodity/${commodity.id}`,
    related: related.map(commoditySummaryOf),
  };
}
