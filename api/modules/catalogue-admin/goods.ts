/**
 * Books as operators change them, and the stock of books and stationery (stationery itself is in
 * commodities.ts). Stock moves only by a change with a reason: one guarded UPDATE
 * (`stock + delta >= 0`) and its history row in the same transaction, so changes at once (or
 * beside a purchase taking stock) never lose one another nor go below zero.
 */
import { sql } from "kysely";
import type { z } from "zod";
import { INITIAL_STOCK_REASON } from "../../../shared/contracts/admin-catalogue";
import type {
  AdminBook,
  AdminBookDetail,
  StockChange,
  bookCreateSchema,
  bookPatchSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { Selectable, Transaction } from "kysely";
import type { BooksTable, DB, StockItemType } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { conflict, type Db } from "./common";

const HISTORY_SHOWN = 50;

export async function stockHistory(
  db: Db,
  itemType: StockItemType,
  itemIds: number[],
): Promise<Map<number, StockChange[]>> {
  const out = new Map<number, StockChange[]>(itemIds.map((id) => [id, []]));
  if (itemIds.length === 0) return out;
  const rows = await db
    .selectFrom("stock_changes as s")
    .leftJoin("users as u", "u.id", "s.actor_id")
    .select(["s.id", "s.item_id", "s.delta", "s.stock_after", "s.reason", "s.created_at", "u.nickname"])
    .where("s.item_type", "=", itemType)
    .where("s.item_id", "in", itemIds)
    .orderBy("s.id", "desc")
    .limit(HISTORY_SHOWN * itemIds.length)
    .execute();
  for (const r of rows) {
    const list = out.get(r.item_id);
    if (list && list.length < HISTORY_SHOWN)
      list.push({
        id: Number(r.id),
        delta: r.delta,
        stockAfter: r.stock_after,
        reason: r.reason,
        actorName: r.nickname,
        createdAt: r.created_at.toISOString(),
      });
  }
  return out;
}

/** Moves the stock of a book or a SKU by `delta` with its reason; 409 when it would go below zero. */
export async function changeStock(
  db: Db,
  actorId: number,
  itemType: StockItemType,
  itemId: number,
  delta: number,
  reason: string,
  now: Date,
): Promise<{ stock: number; change: StockChange }> {
  return db.transaction().execute((trx) => applyStockChange(trx, actorId, itemType, itemId, delta, reason, now));
}

/** The change itself, inside the caller's transaction (a new item's first stock goes this way too). */
export async function applyStockChange(
  trx: Transaction<DB>,
  actorId: number,
  itemType: StockItemType,
  itemId: number,
  delta: number,
  reason: string,
  now: Date,
): Promise<{ stock: number; change: StockChange }> {
  const table = itemType === "book" ? "books" : "commodity_skus";
  const updated = await trx
    .updateTable(table)
    .set({ stock: sql<number>`stock + ${delta}` })
    .where("id", "=", itemId)
    .where(sql<boolean>`stock + ${delta} >= 0`)
    .returning("stock")
    .executeTakeFirst();
  if (!updated) {
    const current = await trx.selectFrom(table).select("stock").where("id", "=", itemId).executeTakeFirst();
    if (!current) throw notFound();
    throw conflict(`库存不足：现有 ${current.stock} 件，最多可减少 ${current.stock} 件`, "insufficient_stock");
  }
  if (itemType === "book") await trx.updateTable("books").set({ updated_at: now }).where("id", "=", itemId).execute();
  const row = await trx
    .insertInto("stock_changes")
    .values({
      item_type: itemType,
      item_id: itemId,
      delta,
      stock_after: updated.stock,
      reason,
      actor_id: actorId,
      created_at: now,
    })
    .returning(["id"])
    .executeTakeFirstOrThrow();
  const actor = await trx.selectFrom("users").select("nickname").where("id", "=", actorId).executeTakeFirst();
  await recordAudit(trx, {
    actorId,
    action: itemType === "book" ? "book.stock" : "sku.stock",
    targetType: itemType,
    targetId: itemId,
    before: { stock: updated.stock - delta },
    after: { stock: updated.stock },
    reason,
  });
  return {
    stock: updated.stock,
    change: {
      id: Number(row.id),
      delta,
      stockAfter: updated.stock,
      reason,
      actorName: actor?.nickname ?? null,
      createdAt: now.toISOString(),
    },
  };
}

// ---- books ---------------------------------------------------------------------------------------

export function bookOf(b: Selectable<BooksTable>): AdminBook {
  return {
    id: b.id,
    title: b.title,
    author: b.author,
    publisher: b.publisher,
    isbn: b.isbn,
    tab: b.tab,
    priceCents: b.price_cents,
    originalPriceCents: b.original_price_cents,
    stock: b.stock,
    coverChar: b.cover_char,
    coverImage: b.cover_image,
    summary: b.summary,
    pages: b.pages,
    status: b.status,
    updatedAt: b.updated_at.toISOString(),
  };
}

export async function loadBook(db: Db, bookId: number): Promise<AdminBookDetail> {
  const book = await db.selectFrom("books").selectAll().where("id", "=", bookId).executeTakeFirst();
  if (!book) throw notFound();
  const history = await stockHistory(db, "book", [bookId]);
  return { ...bookOf(book), history: history.get(bookId) ?? [] };
}

const BOOK_COLUMNS = {
  title: "title",
  author: "author",
  publisher: "publisher",
  isbn: "isbn",
  tab: "tab",
  priceCents: "price_cents",
  originalPriceCents: "original_price_cents",
  coverChar: "cover_char",
  summary: "summary",
  pages: "pages",
  status: "status",
} as const;

const duplicateIsbn = () => conflict("已有同一 ISBN 的图书", "duplicate_isbn");
export const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === "23505";

/** Only the changed fields, before and after, named as the contract names them. */
export function diff(columns: Record<string, string>, before: Record<string, unknown>, input: Record<string, unknown>) {
  const set: Record<string, unknown> = {};
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = input[key];
    if (value === undefined || before[column] === value) continue;
    set[column] = value;
    was[key] = before[column];
    now[key] = value;
  }
  return { set, was, now };
}

export async function createBook(db: Db, actorId: number, input: z.output<typeof bookCreateSchema>, now: Date) {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("books")
        .values({
          title: input.title,
          author: input.author,
          publisher: input.publisher,
          isbn: input.isbn,
          tab: input.tab,
          price_cents: input.priceCents,
          original_price_cents: input.originalPriceCents,
          cover_char: input.coverChar,
          summary: input.summary,
          pages: input.pages,
          status: input.status,
          stock: 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, { actorId, action: "book.create", targetType: "book", targetId: row.id, after: input });
      if (input.stock > 0) await applyStockChange(trx, actorId, "book", row.id, input.stock, INITIAL_STOCK_REASON, now);
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateIsbn();
    throw err;
  }
}

export async function updateBook(
  db: Db,
  actorId: number,
  bookId: number,
  input: z.output<typeof bookPatchSchema>,
  now: Date,
) {
  try {
    await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("books").selectAll().where("id", "=", bookId).forUpdate().executeTakeFirst();
      if (!before) throw notFound();
      if ((input.originalPriceCents ?? before.original_price_cents) < (input.priceCents ?? before.price_cents))
        throw new ApiError(400, "invalid_input", "划线价不能低于售价");
      const { set, was, now: after } = diff(BOOK_COLUMNS, before, input);
      if (Object.keys(set).length === 0) return;
      await trx
        .updateTable("books")
        .set({ ...set, updated_at: now })
        .where("id", "=", bookId)
        .execute();
      const action =
        input.status && Object.keys(set).length === 1
          ? input.status === "published"
            ? "book.publish"
            : "book.unpublish"
          : "book.update";
      await recordAudit(trx, { actorId, action, targetType: "book", targetId: bookId, before: was, after });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateIsbn();
    throw err;
  }
}

// ---- stationery ----------------------------------------------------------------------------------

/** Sets the cover image of a book or a commodity; returns the one it replaced. */
export async function setGoodsCover(
  db: Db,
  actorId: number,
  table: "books" | "commodities",
  id: number,
  url: string,
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom(table)
      .select("cover_image")
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound();
    await trx.updateTable(table).set({ cover_image: url }).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorId,
      action: table === "books" ? "book.cover" : "commodity.cover",
      targetType: table === "books" ? "book" : "commodity",
      targetId: id,
      before: { coverImage: before.cover_image },
      after: { coverImage: url },
    });
    return before.cover_image;
  });
}
