/**
 * Stationery as operators change it: the item and its SKUs (each with its own price and stock).
 * Stock moves as for books (goods.ts): a guarded change with a reason and its history row.
 */
import { sql } from "kysely";
import type { z } from "zod";
import { INITIAL_STOCK_REASON } from "../../../shared/contracts/admin-catalogue";
import type {
  AdminCommodity,
  commodityCreateSchema,
  commodityPatchSchema,
  skuCreateSchema,
  skuPatchSchema,
} from "../../../shared/contracts/admin-catalogue";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { conflict, type Db } from "./common";
import { applyStockChange, diff, isUniqueViolation, stockHistory } from "./goods";

export async function loadCommodity(db: Db, commodityId: number): Promise<AdminCommodity> {
  const c = await db.selectFrom("commodities").selectAll().where("id", "=", commodityId).executeTakeFirst();
  if (!c) throw notFound();
  const skus = await db
    .selectFrom("commodity_skus")
    .selectAll()
    .where("commodity_id", "=", commodityId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const history = await stockHistory(
    db,
    "sku",
    skus.map((s) => s.id),
  );
  return {
    id: c.id,
    title: c.title,
    category: c.category,
    summary: c.summary,
    description: c.description,
    coverChar: c.cover_char,
    coverImage: c.cover_image,
    status: c.status,
    updatedAt: c.updated_at.toISOString(),
    skus: skus.map((s) => ({
      id: s.id,
      name: s.name,
      priceCents: s.price_cents,
      originalPriceCents: s.original_price_cents,
      stock: s.stock,
      history: history.get(s.id) ?? [],
    })),
  };
}

const COMMODITY_COLUMNS = {
  title: "title",
  category: "category",
  summary: "summary",
  description: "description",
  coverChar: "cover_char",
  status: "status",
} as const;

export async function createCommodity(
  db: Db,
  actorId: number,
  input: z.output<typeof commodityCreateSchema>,
  now: Date,
) {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("commodities")
      .values({
        title: input.title,
        category: input.category,
        summary: input.summary,
        description: input.description,
        cover_char: input.coverChar,
        gallery: "[]",
        status: input.status,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { skus, ...fields } = input;
    await recordAudit(trx, {
      actorId,
      action: "commodity.create",
      targetType: "commodity",
      targetId: row.id,
      after: { ...fields, skus: skus.map((sku) => sku.name) },
    });
    for (const [position, sku] of skus.entries()) {
      const { stock, ...skuInput } = sku;
      const created = await trx
        .insertInto("commodity_skus")
        .values({
          commodity_id: row.id,
          name: sku.name,
          price_cents: sku.priceCents,
          original_price_cents: sku.originalPriceCents,
          stock: 0,
          position,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorId,
        action: "sku.create",
        targetType: "sku",
        targetId: created.id,
        after: { commodityId: row.id, ...skuInput },
      });
      if (stock > 0) await applyStockChange(trx, actorId, "sku", created.id, stock, INITIAL_STOCK_REASON, now);
    }
    return row.id;
  });
}

export async function updateCommodity(
  db: Db,
  actorId: number,
  commodityId: number,
  input: z.output<typeof commodityPatchSchema>,
  now: Date,
) {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("commodities")
      .selectAll()
      .where("id", "=", commodityId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound();
    if (input.status === "published") {
      const sku = await trx
        .selectFrom("commodity_skus")
        .select("id")
        .where("commodity_id", "=", commodityId)
        .executeTakeFirst();
      if (!sku) throw conflict("至少要有一个规格才能上架", "no_skus");
    }
    const { set, was, now: after } = diff(COMMODITY_COLUMNS, before, input);
    if (Object.keys(set).length === 0) return;
    await trx
      .updateTable("commodities")
      .set({ ...set, updated_at: now })
      .where("id", "=", commodityId)
      .execute();
    const action =
      input.status && Object.keys(set).length === 1
        ? input.status === "published"
          ? "commodity.publish"
          : "commodity.unpublish"
        : "commodity.update";
    await recordAudit(trx, { actorId, action, targetType: "commodity", targetId: commodityId, before: was, after });
  });
}

const duplicateSku = () => conflict("这个商品已有同名规格", "duplicate_sku");

export async function addSku(
  db: Db,
  actorId: number,
  commodityId: number,
  input: z.output<typeof skuCreateSchema>,
  now: Date,
) {
  try {
    return await db.transaction().execute(async (trx) => {
      const c = await trx
        .selectFrom("commodities")
        .select("id")
        .where("id", "=", commodityId)
        .forUpdate()
        .executeTakeFirst();
      if (!c) throw notFound();
      const last = await trx
        .selectFrom("commodity_skus")
        .select(sql<number>`coalesce(max(position), -1)::int`.as("p"))
        .where("commodity_id", "=", commodityId)
        .executeTakeFirstOrThrow();
      const row = await trx
        .insertInto("commodity_skus")
        .values({
          commodity_id: commodityId,
          name: input.name,
          price_cents: input.priceCents,
          original_price_cents: input.originalPriceCents,
          stock: 0,
          position: Number(last.p) + 1,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.updateTable("commodities").set({ updated_at: now }).where("id", "=", commodityId).execute();
      await recordAudit(trx, {
        actorId,
        action: "sku.create",
        targetType: "sku",
        targetId: row.id,
        after: { commodityId, ...input },
      });
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSku();
    throw err;
  }
}

const SKU_COLUMNS = { name: "name", priceCents: "price_cents", originalPriceCents: "original_price_cents" } as const;

export async function updateSku(
  db: Db,
  actorId: number,
  skuId: number,
  input: z.output<typeof skuPatchSchema>,
  now: Date,
) {
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom("commodity_skus")
        .selectAll()
        .where("id", "=", skuId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound();
      if ((input.originalPriceCents ?? before.original_price_cents) < (input.priceCents ?? before.price_cents))
        throw new ApiError(400, "invalid_input", "划线价不能低于售价");
      const { set, was, now: after } = diff(SKU_COLUMNS, before, input);
      if (Object.keys(set).length > 0) {
        await trx.updateTable("commodity_skus").set(set).where("id", "=", skuId).execute();
        await trx.updateTable("commodities").set({ updated_at: now }).where("id", "=", before.commodity_id).execute();
        await recordAudit(trx, {
          actorId,
          action: "sku.update",
          targetType: "sku",
          targetId: skuId,
          before: was,
          after,
        });
      }
      return before.commodity_id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSku();
    throw err;
  }
}

export async function skuCommodity(db: Db, skuId: number): Promise<number> {
  const row = await db.selectFrom("commodity_skus").select("commodity_id").where("id", "=", skuId).executeTakeFirst();
  if (!row) throw notFound();
  return row.commodity_id;
}
