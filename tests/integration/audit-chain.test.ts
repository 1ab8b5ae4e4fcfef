/**
 * The audit log's hash chain (issue "Hardening", item 12; migration 021): whole after staff
 * actions, broken where a row was changed or deleted, whole under many staff acting at once
 * (on PostgreSQL a real race), chained over existing rows by the migration, checked by the
 * console and by `cli.js audit:verify`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "../../api/db/migrate";
import { migrations } from "../../api/db/migrations";
import type { DB } from "../../api/db/schema";
import { AUDIT_CHAIN_GENESIS, verifyAuditChain } from "../../api/modules/audit/chain";
import { AUDIT_FULL_CHECK_EVERY_MS } from "../../api/modules/audit/endpoints";
import { recordAudit } from "../../api/modules/audit/record";
import { testDatabase } from "../db";
import { staffHarness } from "./staff-harness";

const h = staffHarness("137");
const tmp = mkdtempSync(path.join(tmpdir(), "audit-chain-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const allRows = (db: Kysely<DB>) => db.selectFrom("audit_log").selectAll().orderBy("id").execute();

/** What someone with write access to the database could do: the triggers off, the change, back on. */
async function intrude(db: Kysely<DB>, change: (db: Kysely<DB>) => Promise<unknown>) {
  await sql`alter table audit_log disable trigger user`.execute(db);
  try {
    await change(db);
  } finally {
    await sql`alter table audit_log enable trigger user`.execute(db);
  }
}

/**
 * Deletes rows as an intruder would, and returns how to put them back exactly (copied in SQL:
 * a time read into JavaScript loses its microseconds).
 */
async function deleteRows(db: Kysely<DB>, ids: number[]) {
  await sql`create table audit_log_kept as select * from audit_log where id = any(${ids})`.execute(db);
  await intrude(db, (d) => d.deleteFrom("audit_log").where("id", "in", ids).execute());
  return () =>
    intrude(db, async (d) => {
      await sql`insert into audit_log select * from audit_log_kept`.execute(d);
      await sql`drop table audit_log_kept`.execute(d);
    });
}

async function someActions(count: number) {
  const operator = await h.account("operator");
  for (let i = 0; i < count; i++) {
    await recordAudit(h.db(), {
      actorId: operator.id,
      action: i % 2 ? "course.update" : "coupon.issue",
      targetType: i % 2 ? "course" : "coupon_template",
      targetId: 500 + i,
      before: { price: i * 100, note: "旧" },
      after: { price: i * 100 + 50, note: '新\n"引号"', list: [1, 2.5, null] },
      reason: i % 3 ? null : "价格调整",
    });
  }
  return operator;
}

const chainOf = async (operator: { cookie: string; id: number; nickname: string }) => {
  const res = await h.call(operator, "GET", "/api/admin/audit/chain");
  expect(res.status).toBe(200);
  return res.body;
};

/** Moves the API's clock past the console's next full walk. */
const nextFullWalk = (minutes = 1) => {
  const at = new Date(Date.now() + AUDIT_FULL_CHECK_EVERY_MS + minutes * 60_000);
  h.api().now = () => at;
};

describe("the audit log's hash chain", () => {
  it("is whole after staff actions: gapless ids, each row chained to the one before, from the genesis", async () => {
    const operator = await someActions(6);
    const learner = await h.account("learner");
    expect((await h.call(operator, "POST", `/api/admin/users/${learner.id}/sessions/revoke`, {})).status).toBe(200);
    // Several rows in one statement chain in order too.
    await sql`insert into audit_log (actor_id, actor_name, actor_role, action, target_type, target_id)
      values (${operator.id}, '运营', 'operator', 'a.one', 't', '1'),
             (${operator.id}, '运营', 'operator', 'a.two', 't', '2')`.execute(h.db());

    const rows = await allRows(h.db());
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0]!.prev_hash).toBe(AUDIT_CHAIN_GENESIS);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    expect(rows.at(-1)!.action).toBe("a.two");

    const check = await verifyAuditChain(h.db());
    expect(check).toMatchObject({ count: rows.length, broken: null, head: rows.at(-1)!.hash });
    expect(await chainOf(operator)).toMatchObject({ intact: true, count: rows.length, broken: null });
  });

  it("names the row whose field was changed, and is whole again once it is put back", async () => {
    const operator = await someActions(5);
    const rows = await allRows(h.db());
    const victim = rows.at(-3)!;
    await intrude(h.db(), (db) =>
      db.updateTable("audit_log").set({ reason: "无" }).where("id", "=", victim.id).execute(),
    );
    expect((await verifyAuditChain(h.db())).broken).toEqual({
      id: victim.id,
      at: victim.created_at,
      action: victim.action,
      problem: "altered",
    });
    // The console finds it at its next full walk at the latest.
    nextFullWalk();
    const shown = await chainOf(operator);
    expect(shown).toMatchObject({
      intact: false,
      broken: { id: victim.id, action: victim.action, problem: "altered", at: victim.created_at.toISOString() },
    });

    // A changed jsonb field or time counts too.
    await intrude(h.db(), (db) =>
      db
        .updateTable("audit_log")
        .set({ reason: victim.reason, after: JSON.stringify({ price: 1 }) })
        .where("id", "=", victim.id)
        .execute(),
    );
    expect((await verifyAuditChain(h.db())).broken).toMatchObject({ id: victim.id, problem: "altered" });
    await intrude(h.db(), (db) =>
      db
        .updateTable("audit_log")
        .set({ after: JSON.stringify(victim.after), created_at: sql`created_at + interval '1 microsecond'` })
        .where("id", "=", victim.id)
        .execute(),
    );
    expect((await verifyAuditChain(h.db())).broken).toMatchObject({ id: victim.id, problem: "altered" });

    await intrude(h.db(), (db) =>
      db
        .updateTable("audit_log")
        .set({ created_at: sql`created_at - interval '1 microsecond'` })
        .where("id", "=", victim.id)
        .execute(),
    );
    expect((await verifyAuditChain(h.db())).broken).toBeNull();
    expect(await chainOf(operator)).toMatchObject({ intact: true, count: rows.length });
  });

  it("names the first row after a deleted one, and the newest left when the newest are deleted", async () => {
    const operator = await someActions(4);
    const rows = await allRows(h.db());
    const gone = rows.at(-3)!;
    const after = rows.at(-2)!;
    const putGoneBack = await deleteRows(h.db(), [gone.id]);
    expect((await verifyAuditChain(h.db())).broken).toEqual({
      id: after.id,
      at: after.created_at,
      action: after.action,
      problem: "unlinked",
    });
    nextFullWalk();
    expect((await chainOf(operator)).broken).toMatchObject({ id: after.id, problem: "unlinked" });
    await putGoneBack();
    expect((await verifyAuditChain(h.db())).broken).toBeNull();

    const putNewestBack = await deleteRows(
      h.db(),
      rows.slice(-2).map((r) => r.id),
    );
    expect((await verifyAuditChain(h.db())).broken).toMatchObject({ id: gone.id, problem: "cut" });
    await putNewestBack();
    expect(await verifyAuditChain(h.db())).toMatchObject({ count: rows.length, broken: null });
  });

  it("stays whole when many staff act at once", async () => {
    const operators = await Promise.all(Array.from({ length: 4 }, () => h.account("operator")));
    const learners = await Promise.all(Array.from({ length: 5 }, () => h.account("learner")));
    const before = await verifyAuditChain(h.db());
    const calls = operators.flatMap((operator) =>
      learners.flatMap((learner) =>
        [1, 2].map(() => h.call(operator, "POST", `/api/admin/users/${learner.id}/sessions/revoke`, {})),
      ),
    );
    // Appends that hold the chain's head a while before their transaction ends.
    const slow = Array.from({ length: 10 }, (_, i) =>
      h
        .db()
        .transaction()
        .execute(async (trx) => {
          await recordAudit(trx, { actorId: operators[0]!.id, action: "slow.append", targetType: "t", targetId: i });
          await sql`select pg_sleep(0.02)`.execute(trx);
        }),
    );
    const answers = await Promise.all(calls);
    await Promise.all(slow);
    expect(answers.map((a) => a.status)).toEqual(calls.map(() => 200));

    const check = await verifyAuditChain(h.db());
    expect(check.broken).toBeNull();
    expect(check.count).toBe(before.count + calls.length + slow.length);
    const rows = await allRows(h.db());
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
  });

  it("refuses the console's check to learners and teachers", async () => {
    for (const role of ["learner", "teacher"] as const) {
      expect((await h.call(await h.account(role), "GET", "/api/admin/audit/chain")).status).toBe(403);
    }
    expect((await h.call(null, "GET", "/api/admin/audit/chain")).status).toBe(401);
  });
});

describe("migration 021", () => {
  it("chains the rows already there in id order, and the next insert follows them", async () => {
    const { database, dispose } = await testDatabase({ migrations: migrations.filter((m) => m.version < 21) });
    try {
      const { db } = database;
      const user = await db
        .insertInto("users")
        .values({ phone: "13700000001", nickname: "运营", role: "operator" })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const id of [3, 7, 8, 20]) {
        await sql`insert into audit_log (id, actor_id, actor_name, actor_role, action, target_type, target_id, after)
          values (${id}, ${user.id}, '运营', 'operator', ${`old.${id}`}, 'course', ${String(id)}, '{"a": 1}')`.execute(
          db,
        );
      }
      expect(await migrate(database)).toEqual(migrations.filter((m) => m.version >= 21).map((m) => m.version));
      const check = await verifyAuditChain(db);
      expect(check).toMatchObject({ count: 4, broken: null });
      await recordAudit(db, { actorId: user.id, action: "new.one", targetType: "course", targetId: 1 });
      const rows = await db
        .selectFrom("audit_log")
        .select(["id", "action", "prev_hash", "hash"])
        .orderBy("id")
        .execute();
      expect(rows.map((r) => r.id)).toEqual([3, 7, 8, 20, 21]);
      expect(rows[0]!.prev_hash).toBe(AUDIT_CHAIN_GENESIS);
      expect(rows[4]!.prev_hash).toBe(rows[3]!.hash);
      expect(await verifyAuditChain(db)).toMatchObject({ count: 5, broken: null });
    } finally {
      await dispose();
    }
  }, 120_000);
});

describe("npm run audit:verify", () => {
  const cliEntry = path.resolve(process.env.DIST_DIR ?? "dist", "server/cli.js");

  function verify(env: NodeJS.ProcessEnv) {
    if (!existsSync(cliEntry)) throw new Error("No server build: run `npm run build` first.");
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const c = spawn(process.execPath, [cliEntry, "audit:verify"], { env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      c.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      c.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      c.once("exit", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it("prints OK with the count, or names the first broken record and exits 1", async () => {
    const dataDir = path.join(tmp, "cli");
    const { database, dispose, schema } = await testDatabase({ dataDir });
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir };
    if (process.env.TEST_DATABASE_URL) {
      const url = new URL(process.env.TEST_DATABASE_URL);
      url.searchParams.set("options", `-c search_path=${schema}`);
      env.DATABASE_URL = url.toString();
    }
    const { db } = database;
    const user = await db
      .insertInto("users")
      .values({ phone: "13700000002", nickname: "运营", role: "operator" })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i++)
      await recordAudit(db, { actorId: user.id, action: `order.ship`, targetType: "order", targetId: `MC${i}` });
    const rows = await allRows(db);
    await intrude(db, (d) =>
      d.updateTable("audit_log").set({ target_id: "MC9" }).where("id", "=", rows[1]!.id).execute(),
    );
    // PGlite has one process: the command opens the folder after this one lets go.
    if (!schema) await database.close();
    try {
      const broken = await verify(env);
      expect(broken.code, broken.stdout + broken.stderr).toBe(1);
      expect(broken.stderr).toContain(`record #${rows[1]!.id} (${rows[1]!.created_at.toISOString()}, order.ship)`);
      expect(broken.stderr).toMatch(/changed afterwards/);

      if (!schema) {
        const again = await testDatabase({ dataDir });
        await intrude(again.database.db, (d) =>
          d.updateTable("audit_log").set({ target_id: "MC1" }).where("id", "=", rows[1]!.id).execute(),
        );
        await again.dispose();
      } else {
        await intrude(db, (d) =>
          d.updateTable("audit_log").set({ target_id: "MC1" }).where("id", "=", rows[1]!.id).execute(),
        );
      }
      const whole = await verify(env);
      expect(whole.code, whole.stdout + whole.stderr).toBe(0);
      expect(whole.stdout).toContain(`OK: the audit log's chain is whole, 3 records; newest hash ${rows[2]!.hash}`);
    } finally {
      if (schema) await dispose();
    }
  }, 120_000);
});
