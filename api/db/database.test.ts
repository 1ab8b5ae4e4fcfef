import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../tests/db";
import { LISTEN_RETRY_BASE_MS, LISTEN_RETRY_MAX_MS, listenRetryDelay } from "./database";
import { migrate } from "./migrate";

const handle = await testDatabase();
afterAll(() => handle.dispose());

describe(`database (${handle.database.kind})`, () => {
  it("is migrated, and migrating again changes nothing", async () => {
    expect(await migrate(handle.database)).toEqual([]);
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = current_schema() order by table_name`.execute(
      handle.database.db,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(["users", "sessions", "otp_challenges", "qr_tickets", "schema_migrations"]),
    );
  });

  it("rolls a failed transaction back", async () => {
    const { db } = handle.database;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("users").values({ phone: "13800000001" }).execute();
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    const rows = await db.selectFrom("users").where("phone", "=", "13800000001").selectAll().execute();
    expect(rows).toEqual([]);
  });

  it("serialises concurrent transactions without losing updates", async () => {
    const { db } = handle.database;
    const { id } = await db
      .insertInto("users")
      .values({ phone: "13800000002", nickname: "0" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom("users")
            .select("nickname")
            .where("id", "=", id)
            .forUpdate()
            .executeTakeFirstOrThrow();
          await trx
            .updateTable("users")
            .set({ nickname: String(Number(row.nickname) + 1) })
            .where("id", "=", id)
            .execute();
        }),
      ),
    );
    const after = await db.selectFrom("users").select("nickname").where("id", "=", id).executeTakeFirstOrThrow();
    expect(after.nickname).toBe("20");
  });

  it("stores bytea and reads it back as a Buffer, byte for byte", async () => {
    const { db } = handle.database;
    const bytes = randomBytes(300_000);
    const empty = new Uint8Array(0);
    // A view into a larger buffer: only its own bytes are stored.
    const slice = new Uint8Array(bytes.buffer, bytes.byteOffset + 7, 5);
    const rows = await sql<{ a: Buffer; b: Buffer; c: Buffer; d: string }>`
      select ${bytes}::bytea as a, ${empty}::bytea as b, ${slice}::bytea as c, md5(${bytes}::bytea) as d`.execute(db);
    const row = rows.rows[0]!;
    expect(Buffer.isBuffer(row.a)).toBe(true);
    expect(row.a.equals(bytes)).toBe(true);
    expect(row.b.length).toBe(0);
    expect([...row.c]).toEqual([...bytes.subarray(7, 12)]);
    expect(row.d).toBe(createHash("md5").update(bytes).digest("hex"));
  });

  it("delivers NOTIFY to listeners", async () => {
    const got: string[] = [];
    const stop = await handle.database.listen("test_channel", (p) => got.push(p));
    await handle.database.notify("test_channel", "hello");
    await expect.poll(() => got).toEqual(["hello"]);
    await stop();
  });
});

describe("LISTEN reconnection delays", () => {
  it("double from a quarter second, stop growing at 10 s, and are jittered within half of each step", () => {
    expect(listenRetryDelay(0, () => 0)).toBe(LISTEN_RETRY_BASE_MS / 2);
    expect(listenRetryDelay(0, () => 1)).toBe(LISTEN_RETRY_BASE_MS);
    expect(listenRetryDelay(3, () => 1)).toBe(LISTEN_RETRY_BASE_MS * 8);
    for (const attempt of [6, 10, 40, 1000]) {
      expect(listenRetryDelay(attempt, () => 1)).toBe(LISTEN_RETRY_MAX_MS);
      expect(listenRetryDelay(attempt, () => 0)).toBe(LISTEN_RETRY_MAX_MS / 2);
    }
    const spread = new Set(Array.from({ length: 20 }, () => listenRetryDelay(5)));
    expect(spread.size).toBeGreaterThan(1);
  });
});
