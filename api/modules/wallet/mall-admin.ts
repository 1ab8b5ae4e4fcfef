/**
 * The operator's side of the exchange mall: items (create, edit, put on or take off the shelf)
 * and their stock. Stock only ever moves by a change (+n or −n with a reason), applied as one
 * guarded update, so it stays right while learners redeem at the same moment; an absolute number
 * typed from a stale screen would overwrite their redemptions. Every change is audited.
 */
import { sql } from "kysely";
import type { z } from "zod";
import type {
  MallItemAdmin,
  mallItemInputSchema,
  mallItemUpdateSchema,
  mallListQuery,
  stockChangeSchema,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import type { Transaction } from "kysely";
import type { DB } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { listPage } from "../../list-page";
import { recordAudit } from "../audit/record";

const itemMissing = () => notFound("兑换物品不存在");

type ItemInput = z.output<typeof mallItemUpdateSchema>;

const columns = [
  "i.id",
  "i.title",
  "i.summary",
  "i.kind",
  "i.ref_id",
  "i.currency",
  "i.price",
  "i.stock",
  "i.per_user_limit",
  "i.cover_char",
  "i.active",
  "i.position",
] as const;

interface ItemRow {
  id: number;
  title: string;
  summary: string;
  kind: MallItemAdmin["kind"];
  ref_id: number;
  currency: MallItemAdmin["currency"];
  price: number;
  stock: number;
  per_user_limit: number;
  cover_char: string;
  active: boolean;
  position: number;
  redeemed_count?: string | number | null;
}

function viewOf(r: ItemRow): MallItemAdmin {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    kind: r.kind,
    refId: r.ref_id,
    currency: r.currency,
    price: r.price,
    stock: r.stock,
    perUserLimit: r.per_user_limit,
    coverChar: r.cover_char,
    active: r.active,
    position: r.position,
    redeemedCount: Number(r.redeemed_count ?? 0),
  };
}

function itemQuery(ctx: ApiContext) {
  return ctx.database.db
    .selectFrom("exchange_items as i")
    .select(columns)
    .select((eb) =>
      eb
        .selectFrom("exchange_redemptions as r")
        .select(eb.fn.countAll<string>().as("n"))
        .whereRef("r.item_id", "=", "i.id")
        .where("r.state", "in", ["pending", "completed"])
        .as("redeemed_count"),
    );
}

export async function listMallItems(ctx: ApiContext, query: z.output<typeof mallListQuery>) {
  let q = itemQuery(ctx);
  if (query.active !== "all") q = q.where("i.active", "=", query.active === "on");
  if (query.kind) q = q.where("i.kind", "=", query.kind);
  if (query.q) q = q.where("i.title", "ilike", `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const page = await listPage<ItemRow>(
    q,
    query,
    { id: "i.id", title: "i.title", price: "i.price", stock: "i.stock", position: "i.position" },
    "i.position",
    "i.id",
  );
  return { ...page, rows: page.rows.map(viewOf) };
}

export async function mallItem(ctx: ApiContext, id: number): Promise<MallItemAdmin> {
  const row = await itemQuery(ctx).where("i.id", "=", id).executeTakeFirst();
  if (!row) throw itemMissing();
  return viewOf(row);
}

/** The thing behind an item must exist: a course, book, stationery item or coupon template. */
async function checkRef(trx: Transaction<DB>, kind: ItemInput["kind"], refId: number) {
  const table = { course: "courses", book: "books", commodity: "commodities", coupon: "coupon_templates" } as const;
  const found = await trx.selectFrom(table[kind]).select("id").where("id", "=", refId).executeTakeFirst();
  if (!found) {
    const name = { course: "课程", book: "书籍", commodity: "文房用品", coupon: "优惠券模板" }[kind];
    throw new ApiError(400, "invalid_input", `关联的${name}（编号 ${refId}）不存在`, {
      fields: { refId: `关联的${name}不存在` },
    });
  }
}

const rowOf = (input: ItemInput) => ({
  title: input.title,
  summary: input.summary,
  kind: input.kind,
  ref_id: input.refId,
  currency: input.currency,
  price: input.price,
  per_user_limit: input.perUserLimit,
  cover_char: input.coverChar,
  active: input.active,
  position: input.position,
});

export async function createMallItem(ctx: ApiContext, actorId: number, input: z.output<typeof mallItemInputSchema>) {
  const id = await ctx.database.db.transaction().execute(async (trx) => {
    await checkRef(trx, input.kind, input.refId);
    const row = await trx
      .insertInto("exchange_items")
      .values({ ...rowOf(input), stock: input.stock })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId,
      action: "mall.item.create",
      targetType: "exchange_item",
      targetId: row.id,
      after: { ...rowOf(input), stock: input.stock },
    });
    return row.id;
  });
  return mallItem(ctx, id);
}

/** The fields that changed, as before → after. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    const same = old instanceof Date && value instanceof Date ? old.getTime() === value.getTime() : old === value;
    if (!same) {
      b[key] = old instanceof Date ? old.toISOString() : old;
      a[key] = value instanceof Date ? value.toISOString() : value;
    }
  }
  return { before: b, after: a, changed: Object.keys(a).length > 0 };
}

export async function updateMallItem(ctx: ApiContext, actorId: number, id: number, input: ItemInput) {
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("exchange_items")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw itemMissing();
    if (current.kind !== input.kind || current.ref_id !== input.refId) await checkRef(trx, input.kind, input.refId);
    const next = rowOf(input);
    const diff = changedFields(current, next);
    if (!diff.changed) return;
    await trx.updateTable("exchange_items").set(next).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorId,
      action: "mall.item.update",
      targetType: "exchange_item",
      targetId: id,
      before: diff.before,
      after: diff.after,
    });
  });
  return mallItem(ctx, id);
}

/** Adds or removes stock in one guarded statement; never below 0 (then 409, nothing changes). */
export async function changeStock(
  ctx: ApiContext,
  actorId: number,
  id: number,
  input: z.output<typeof stockChangeSchema>,
): Promise<MallItemAdmin> {
  await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("exchange_items")
      .set({ stock: sql<number>`stock + ${input.delta}` })
      .where("id", "=", id)
      .where(sql<boolean>`stock + ${input.delta} >= 0`)
      .returning("stock")
      .executeTakeFirst();
    if (!moved) {
      const exists = await trx.selectFrom("exchange_items").select("stock").where("id", "=", id).executeTakeFirst();
      if (!exists) throw itemMissing();
      throw new ApiError(409, "stock_too_low", `库存只有 ${exists.stock} 件，不能减少 ${-input.delta} 件`);
    }
    await recordAudit(trx, {
      actorId,
      action: "mall.item.stock",
      targetType: "exchange_item",
      targetId: id,
      before: { stock: moved.stock - input.delta },
      after: { stock: moved.stock },
      reason: input.reason,
    });
  });
  return mallItem(ctx, id);
}
