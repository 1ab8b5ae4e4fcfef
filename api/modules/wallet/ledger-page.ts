/** A page of a learner's ledger records in one currency, each with a readable label for what it points at. */
import { ledgerReasons } from "../../../shared/currency";
import { ENTRIES_PAGE_SIZE, type LedgerPage } from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import type { Database } from "../../db/database";
import type { Currency } from "../../db/schema";
import { balances } from "./ledger";

/** Readable labels for the objects ledger lines point at, looked up in one query per type. */
async function labelsFor(database: Database, refs: { type: string; id: string }[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const idsOf = (type: string) => [
    ...new Set(refs.filter((r) => r.type === type && /^\d{1,9}$/.test(r.id)).map((r) => Number(r.id))),
  ];
  const db = database.db;
  const orders = idsOf("order");
  if (orders.length) {
    for (const r of await db
      .selectFrom("orders")
      .select(["id", "order_no", "title"])
      .where("id", "in", orders)
      .execute())
      labels.set(`order:${r.id}`, `订单 ${r.order_no}（${r.title}）`);
  }
  const lessons = idsOf("lesson");
  if (lessons.length) {
    for (const r of await db.selectFrom("lessons").select(["id", "title"]).where("id", "in", lessons).execute())
      labels.set(`lesson:${r.id}`, r.title);
  }
  const lives = idsOf("live");
  if (lives.length) {
    for (const r of await db.selectFrom("live_sessions").select(["id", "title"]).where("id", "in", lives).execute())
      labels.set(`live:${r.id}`, `直播：${r.title}`);
  }
  const redemptions = idsOf("redemption");
  if (redemptions.length) {
    const rows = await db
      .selectFrom("exchange_redemptions as r")
      .innerJoin("exchange_items as i", "i.id", "r.item_id")
      .select(["r.id", "i.title"])
      .where("r.id", "in", redemptions)
      .execute();
    for (const r of rows) labels.set(`redemption:${r.id}`, `兑换：${r.title}`);
  }
  for (const r of refs) {
    if (r.type === "check_in") labels.set(`check_in:${r.id}`, `${r.id} 签到`);
  }
  return labels;
}

export async function ledgerPage(
  ctx: ApiContext,
  userId: number,
  currency: Currency,
  page: number,
): Promise<LedgerPage> {
  const db = ctx.database.db;
  const base = db.selectFrom("wallet_entries").where("user_id", "=", userId).where("currency", "=", currency);
  const total = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await base
    .select(["id", "amount", "balance_after", "reason", "ref_type", "ref_id", "note", "created_at"])
    .orderBy("id", "desc")
    .limit(ENTRIES_PAGE_SIZE)
    .offset((page - 1) * ENTRIES_PAGE_SIZE)
    .execute();
  const refs = rows.flatMap((r) => (r.ref_type && r.ref_id ? [{ type: r.ref_type, id: r.ref_id }] : []));
  const labels = await labelsFor(ctx.database, refs);
  const wallet = await balances(db, userId);
  return {
    currency,
    items: rows.map((r) => ({
      id: Number(r.id),
      amount: r.amount,
      balanceAfter: r.balance_after,
      reason: r.reason,
      reasonName: ledgerReasons[r.reason] ?? r.reason,
      ref:
        r.ref_type && r.ref_id
          ? {
              type: r.ref_type,
              id: r.ref_id,
              label: labels.get(`${r.ref_type}:${r.ref_id}`) ?? (r.ref_type === "exchange" ? r.note || null : null),
            }
          : null,
      note: r.note,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    page,
    pageSize: ENTRIES_PAGE_SIZE,
    total: Number(total.n),
    balance: wallet[currency],
  };
}
