import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../../tests/db";
import type { Database } from "../../db/database";
import { migrate } from "../../db/migrate";
import { ApiError } from "../../http";
import { withIdempotency } from "../../idempotency";
import { applyLedgerChange, balances, earnCoins } from "./ledger";

let handle: Awaited<ReturnType<typeof testDatabase>>;
let database: Database;
let serial = 0;

async function newUser(): Promise<number> {
  serial++;
  const row = await database.db
    .insertInto("users")
    .values({ phone: `1390000${String(serial).padStart(4, "0")}`, nickname: `钱包${serial}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const credit = (userId: number, amount: number, key: string) =>
  database.db
    .transaction()
    .execute((trx) =>
      applyLedgerChange(trx, { userId, currency: "coin", amount, reason: "grant", idempotencyKey: key }),
    );

const spend = (userId: number, amount: number, key: string) =>
  database.db
    .transaction()
    .execute((trx) =>
      applyLedgerChange(trx, { userId, currency: "coin", amount: -amount, reason: "redeem", idempotencyKey: key }),
    );

async function ledgerSum(userId: number, currency: "coin" | "bishan") {
  const row = await database.db
    .selectFrom("wallet_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("sum"))
    .where("user_id", "=", userId)
    .where("currency", "=", currency)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

beforeAll(async () => {
  handle = await testDatabase();
  database = handle.database;
  await migrate(database);
});
afterAll(async () => handle.dispose());

describe("the currency ledger", () => {
  it("records each change with the balance after it and a reason", async () => {
    const user = await newUser();
    await credit(user, 120, "k1");
    const result = await spend(user, 20, "s1");
    expect(result).toMatchObject({ applied: true, balance: 100, entry: { amount: -20, balanceAfter: 100 } });
    const entries = await database.db
      .selectFrom("wallet_entries")
      .select(["amount", "balance_after", "reason"])
      .where("user_id", "=", user)
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { amount: 120, balance_after: 120, reason: "grant" },
      { amount: -20, balance_after: 100, reason: "redeem" },
    ]);
  });

  it("applies one idempotency key once", async () => {
    const user = await newUser();
    const first = await credit(user, 50, "same");
    const again = await credit(user, 50, "same");
    expect(first.applied).toBe(true);
    expect(again).toMatchObject({ applied: false, balance: 50, entry: { id: first.entry!.id } });
    expect(await ledgerSum(user, "coin")).toBe(50);
  });

  it("refuses to overdraw, and the database refuses it too", async () => {
    const user = await newUser();
    await credit(user, 10, "k");
    await expect(spend(user, 11, "s")).rejects.toMatchObject({ status: 409, message: "金币余额不足" });
    await expect(
      database.db.updateTable("wallets").set({ balance: -1 }).where("user_id", "=", user).execute(),
    ).rejects.toThrow(/check/i);
    expect((await balances(database.db, user)).coin).toBe(10);
  });

  it("claws back only what is there when asked to", async () => {
    const user = await newUser();
    await credit(user, 30, "k");
    const result = await database.db.transaction().execute((trx) =>
      applyLedgerChange(trx, {
        userId: user,
        currency: "coin",
        amount: -50,
        reason: "order_refund_clawback",
        idempotencyKey: "order-1",
        upToBalance: true,
      }),
    );
    expect(result).toMatchObject({ applied: true, balance: 0, entry: { amount: -30 } });
    const nothingLeft = await database.db.transaction().execute((trx) =>
      applyLedgerChange(trx, {
        userId: user,
        currency: "coin",
        amount: -5,
        reason: "order_refund_clawback",
        idempotencyKey: "order-2",
        upToBalance: true,
      }),
    );
    expect(nothingLeft.applied).toBe(false);
  });

  it("lets exactly one of 20 concurrent spends of the whole balance through", async () => {
    const user = await newUser();
    await credit(user, 100, "k");
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => spend(user, 100, `s${i}`)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(ApiError);
    expect((await balances(database.db, user)).coin).toBe(0);
    expect(await ledgerSum(user, "coin")).toBe(0);
  });

  it("applies one key once even when 10 requests race with it", async () => {
    const user = await newUser();
    const results = await Promise.all(Array.from({ length: 10 }, () => credit(user, 7, "race")));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await ledgerSum(user, "coin")).toBe(7);
  });

  it("keeps every balance equal to the sum of its ledger under a random concurrent load", async () => {
    const users = [await newUser(), await newUser(), await newUser()];
    for (const u of users) await credit(u, 200, "seed");
    let n = 0;
    const jobs = Array.from({ length: 60 }, () => {
      const u = users[n % users.length]!;
      const amount = 1 + ((n * 37) % 60);
      const key = `op${n++}`;
      return n % 3 === 0 ? credit(u, amount, key) : spend(u, amount, key);
    });
    await Promise.allSettled(jobs);
    for (const u of users) {
      const { coin } = await balances(database.db, u);
      expect(coin).toBe(await ledgerSum(u, "coin"));
      expect(coin).toBeGreaterThanOrEqual(0);
      const last = await database.db
        .selectFrom("wallet_entries")
        .select("balance_after")
        .where("user_id", "=", u)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(last.balance_after).toBe(coin);
    }
  });

  it("pays learning events within the daily cap of each rule (China-time days)", async () => {
    const user = await newUser();
    const morning = new Date("2026-11-22T01:00:00Z"); // 09:00 in Beijing
    const earn = (key: string, now: Date) =>
      database.db
        .transaction()
        .execute((trx) => earnCoins(trx, { userId: user, rule: "lesson_finished", idempotencyKey: key, now }));
    const paid = [];
    for (let i = 0; i < 7; i++) paid.push((await earn(`lesson-${i}`, morning)).applied);
    expect(paid).toEqual([true, true, true, true, true, false, false]);
    expect((await balances(database.db, user)).coin).toBe(50);
    // The same lesson never pays twice, even on another day.
    const nextDay = new Date("2026-11-22T17:00:00Z"); // 01:00 on the 23rd in Beijing
    expect((await earn("lesson-0", nextDay)).applied).toBe(false);
    expect((await earn("lesson-9", nextDay)).applied).toBe(true);
  });
});

describe("idempotent requests", () => {
  const route = "POST /api/test/spend";
  const key = () => crypto.randomUUID();

  it("returns the stored response for the same key and refuses the key with another body", async () => {
    const user = await newUser();
    await credit(user, 100, "k");
    let runs = 0;
    const call = (k: string, body: unknown) =>
      withIdempotency(database, { userId: user, route, key: k, body }, async () => {
        runs++;
        const r = await spend(user, 30, `req-${k}`);
        return { status: 201, body: { balance: r.balance } };
      });
    const k = key();
    const first = await call(k, { amount: 30 });
    const second = await call(k, { amount: 30 });
    expect(first).toEqual({ status: 201, body: { balance: 70 }, replayed: false });
    expect(second).toEqual({ status: 201, body: { balance: 70 }, replayed: true });
    expect(runs).toBe(1);
    await expect(call(k, { amount: 31 })).rejects.toMatchObject({ status: 422 });
    expect(await ledgerSum(user, "coin")).toBe(70);
  });

  it("lets one of many concurrent requests with one key run; the others wait their turn (409) or replay", async () => {
    const user = await newUser();
    await credit(user, 100, "k");
    const k = key();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        withIdempotency(database, { userId: user, route, key: k, body: { amount: 10 } }, async () => {
          const r = await spend(user, 10, `req-${k}-${Math.random()}`);
          return { status: 201, body: { balance: r.balance } };
        }),
      ),
    );
    const ran = results.filter((r) => r.status === "fulfilled" && !r.value.replayed);
    expect(ran).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
    }
    expect((await balances(database.db, user)).coin).toBe(90);
  });

  it("stores a refusal so a retry gets the same answer, and frees the key after a crash", async () => {
    const user = await newUser();
    const k = key();
    const refused = await withIdempotency(database, { userId: user, route, key: k, body: {} }, async () => {
      await spend(user, 10, "nothing-there");
      return { status: 201, body: {} };
    });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: "insufficient_balance" } } });
    const k2 = key();
    await expect(
      withIdempotency(database, { userId: user, route, key: k2, body: {} }, async () => {
        throw new Error("connection lost");
      }),
    ).rejects.toThrow("connection lost");
    const retry = await withIdempotency(database, { userId: user, route, key: k2, body: {} }, async () => ({
      status: 200,
      body: { ok: true },
    }));
    expect(retry).toEqual({ status: 200, body: { ok: true }, replayed: false });
  });
});
