import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../../tests/db";
import type { Database } from "../../db/database";
import type { DB } from "../../db/schema";
import { awardLearningCoins, clawBackOrderBishan, grantOrderBishan } from "./hooks";
import { applyLedgerChange, balances } from "./ledger";

let handle: Awaited<ReturnType<typeof testDatabase>>;
let database: Database;
let serial = 0;

async function newUser(): Promise<number> {
  serial++;
  const row = await database.db
    .insertInto("users")
    .values({ phone: `1391111${String(serial).padStart(4, "0")}`, nickname: `钩子${serial}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
const inTrx = <T>(fn: (trx: Transaction<DB>) => Promise<T>) => database.db.transaction().execute(fn);

beforeAll(async () => {
  handle = await testDatabase();
  database = handle.database;
});
afterAll(async () => handle.dispose());

describe("hooks for other modules", () => {
  it("awardLearningCoins pays one event once, within the daily cap", async () => {
    const userId = await newUser();
    const now = new Date("2026-11-22T03:00:00Z");
    const award = (lessonId: number) =>
      inTrx((trx) => awardLearningCoins(trx, { userId, rule: "live_attended", refType: "live", refId: lessonId, now }));
    expect((await award(1)).applied).toBe(true);
    expect((await award(1)).applied).toBe(false);
    expect((await award(2)).applied).toBe(true);
    expect((await award(3)).applied).toBe(false); // cap 20 a day
    const lines = await database.db
      .selectFrom("wallet_entries")
      .select(["idempotency_key", "ref_type", "ref_id", "amount"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute();
    expect(lines).toEqual([
      { idempotency_key: "live_attended:live:1", ref_type: "live", ref_id: "1", amount: 10 },
      { idempotency_key: "live_attended:live:2", ref_type: "live", ref_id: "2", amount: 10 },
    ]);
  });

  it("grantOrderBishan credits 1 per full 10 yuan once; clawBackOrderBishan takes it back once, never below zero", async () => {
    const userId = await newUser();
    const order = { id: 9001, user_id: userId, pay_cents: 25_990 }; // 259.90 yuan → 25
    expect(await inTrx((trx) => grantOrderBishan(trx, order))).toMatchObject({ applied: true, balance: 25 });
    expect(await inTrx((trx) => grantOrderBishan(trx, order))).toMatchObject({ applied: false, balance: 25 });
    expect(await inTrx((trx) => grantOrderBishan(trx, { id: 9002, user_id: userId, pay_cents: 999 }))).toMatchObject({
      applied: false,
      entry: null,
    });
    // The learner spent 20 of them meanwhile: the claw-back takes what is left.
    await inTrx((trx) =>
      applyLedgerChange(trx, { userId, currency: "bishan", amount: -20, reason: "redeem", idempotencyKey: "r1" }),
    );
    const back = await inTrx((trx) => clawBackOrderBishan(trx, order));
    expect(back).toMatchObject({ applied: true, balance: 0, entry: { amount: -5 } });
    expect(await inTrx((trx) => clawBackOrderBishan(trx, order))).toMatchObject({ applied: false });
    expect((await balances(database.db, userId)).bishan).toBe(0);
    const line = await database.db
      .selectFrom("wallet_entries")
      .select(["note", "ref_type", "ref_id"])
      .where("user_id", "=", userId)
      .where("reason", "=", "order_refund_clawback")
      .executeTakeFirstOrThrow();
    expect(line).toMatchObject({ ref_type: "order", ref_id: "9001" });
    expect(line.note).toContain("余额不足");
    // An order that earned nothing has nothing to take back.
    expect(
      await inTrx((trx) => clawBackOrderBishan(trx, { id: 9003, user_id: userId, pay_cents: 5000 })),
    ).toMatchObject({
      applied: false,
    });
  });
});
