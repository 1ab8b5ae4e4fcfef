/**
 * Idempotency keys with leases, on PGlite and (TEST_DATABASE_URL) PostgreSQL: a key in flight
 * within its lease is 409, a finished one replays, a claim whose holder died is taken over once
 * its lease ran out (by exactly one of many retries at once), a holder renews its lease while
 * long work runs, and finished keys are purged a day later.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../tests/db";
import type { Database } from "./db/database";
import { ApiError } from "./http";
import {
  fingerprintOf,
  IDEMPOTENCY_KEEP_MS,
  IDEMPOTENCY_LEASE_MS,
  idempotencyKeysJob,
  purgeIdempotencyKeys,
  withIdempotency,
} from "./idempotency";

let handle: Awaited<ReturnType<typeof testDatabase>>;
let database: Database;
let userId: number;
const route = "POST /test/idempotent";

beforeAll(async () => {
  handle = await testDatabase();
  database = handle.database;
  userId = (
    await database.db
      .insertInto("users")
      .values({ phone: "13900009999", nickname: "幂等" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => handle.dispose());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Work that runs until `finish` is called, counting its runs. */
function heldWork(body: unknown = { ok: true }) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = {
    runs: 0,
    finish,
    run: async () => {
      work.runs++;
      await done;
      return { status: 201, body };
    },
  };
  return work;
}

const keyRow = (key: string) =>
  database.db
    .selectFrom("idempotency_keys")
    .selectAll()
    .select(sql<number>`extract(epoch from (lease_expires_at - now()))::float8`.as("lease_seconds"))
    .where("key", "=", key)
    .executeTakeFirst();

/** What a process that died mid-request leaves: a claim with no answer, its lease ending `endsInSeconds` from now. */
async function claimOfDeadHolder(key: string, body: unknown, endsInSeconds: number) {
  await database.db
    .insertInto("idempotency_keys")
    .values({
      user_id: userId,
      route,
      key,
      fingerprint: fingerprintOf(body),
      lease_owner: "gone-node:1:dead",
      lease_expires_at: sql<Date>`now() + make_interval(secs => ${endsInSeconds})`,
    })
    .execute();
}

describe("idempotency leases", () => {
  it("a claim holds its key for the lease: a retry meanwhile is 409 with Retry-After, and the work runs once", async () => {
    const key = randomUUID();
    const work = heldWork();
    const first = withIdempotency(database, { userId, route, key, body: { n: 1 } }, work.run, { node: "a" });
    await sleep(50);
    const row = await keyRow(key);
    expect(row).toMatchObject({ lease_owner: "a", completed_at: null });
    expect(row!.lease_seconds).toBeGreaterThan(IDEMPOTENCY_LEASE_MS / 1000 - 5);
    expect(row!.lease_seconds).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS / 1000);

    const retry = withIdempotency(database, { userId, route, key, body: { n: 1 } }, work.run, { node: "b" });
    const refusal = await retry.catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 409, code: "idempotency_in_flight" });
    const seconds = Number((refusal as ApiError).headers?.["Retry-After"]);
    expect(seconds).toBeGreaterThan(IDEMPOTENCY_LEASE_MS / 1000 - 5);
    expect(seconds).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS / 1000);
    expect((refusal as ApiError).message).toBe(`相同的请求正在处理中，请 ${seconds} 秒后再试`);

    work.finish();
    expect(await first).toEqual({ status: 201, body: { ok: true }, replayed: false });
    expect(work.runs).toBe(1);
  });

  it("a finished key replays its answer (even past its lease), and refuses another body with 422", async () => {
    const key = randomUUID();
    let runs = 0;
    const call = (body: unknown) =>
      withIdempotency(database, { userId, route, key, body }, async () => {
        runs++;
        return { status: 201, body: { order: 7 } };
      });
    expect(await call({ n: 2 })).toEqual({ status: 201, body: { order: 7 }, replayed: false });
    expect(await keyRow(key)).toMatchObject({ lease_owner: null, lease_expires_at: null });
    expect(await call({ n: 2 })).toEqual({ status: 201, body: { order: 7 }, replayed: true });
    await expect(call({ n: 3 })).rejects.toMatchObject({ status: 422 });
    expect(runs).toBe(1);
  });

  it("a claim whose holder died is taken over once its lease ran out: of ten retries at once, one runs the work", async () => {
    const key = randomUUID();
    const body = { photo: "abc" };
    await claimOfDeadHolder(key, body, 20);
    let runs = 0;
    const retry = (i: number) =>
      withIdempotency(
        database,
        { userId, route, key, body },
        async () => {
          runs++;
          await sleep(100);
          return { status: 201, body: { stored: i } };
        },
        { node: `retry-${i}` },
      );
    // Within the dead holder's lease: still 409, nothing runs.
    await expect(retry(0)).rejects.toMatchObject({ status: 409 });
    expect(runs).toBe(0);

    // The lease runs out (as 20 s later).
    await database.db
      .updateTable("idempotency_keys")
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where("key", "=", key)
      .execute();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => retry(i + 1)));
    expect(runs).toBe(1);
    const ran = results.filter((r) => r.status === "fulfilled" && !r.value.replayed);
    expect(ran).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409 });
    const stored = await keyRow(key);
    expect(stored).toMatchObject({ status_code: 201, lease_owner: null });
    expect(stored!.completed_at).not.toBeNull();
    // Everyone after that gets the one stored answer.
    expect(await retry(99)).toMatchObject({ replayed: true, body: stored!.response });
  });

  it("a retry with another body never takes over a dead holder's key", async () => {
    const key = randomUUID();
    await claimOfDeadHolder(key, { amount: 1 }, -1);
    const other = withIdempotency(database, { userId, route, key, body: { amount: 2 } }, async () => ({
      status: 201,
      body: {},
    }));
    await expect(other).rejects.toMatchObject({ status: 422 });
    expect(await keyRow(key)).toMatchObject({ lease_owner: "gone-node:1:dead", completed_at: null });
  });

  it("a holder renews its lease while work longer than the lease runs, so nobody takes its key", async () => {
    const key = randomUUID();
    const work = heldWork();
    const options = { node: "slow", leaseMs: 1000, renewMs: 200 };
    const first = withIdempotency(database, { userId, route, key, body: {} }, work.run, options);
    await sleep(2500);
    await expect(
      withIdempotency(database, { userId, route, key, body: {} }, work.run, { node: "eager", leaseMs: 1000 }),
    ).rejects.toMatchObject({ status: 409 });
    work.finish();
    expect((await first).replayed).toBe(false);
    expect(work.runs).toBe(1);
  });

  it("a holder that lost its lease (it hung past it) does not overwrite the answer of the one that took over, and says so", async () => {
    const key = randomUUID();
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    const hung = heldWork({ from: "hung" });
    // Renewal far apart: this holder stops renewing as if its event loop were blocked.
    const first = withIdempotency(database, { userId, route, key, body: {} }, hung.run, {
      node: "hung",
      leaseMs: 500,
      renewMs: 60_000,
      logger,
    });
    await sleep(900);
    const taken = await withIdempotency(
      database,
      { userId, route, key, body: {} },
      async () => ({ status: 201, body: { from: "retry" } }),
      { node: "retry" },
    );
    expect(taken).toEqual({ status: 201, body: { from: "retry" }, replayed: false });
    hung.finish();
    await first;
    expect((await keyRow(key))!.response).toEqual({ from: "retry" });
    expect(lines.some((l) => l.msg === "idempotency key was taken over before its work finished")).toBe(true);
  });

  it("finished keys and abandoned claims are purged a day after they ended, by the idempotency-keys job", async () => {
    const keep = IDEMPOTENCY_KEEP_MS / 1000;
    const rows = [
      { key: randomUUID(), endedSecondsAgo: keep + 3600, finished: true },
      { key: randomUUID(), endedSecondsAgo: keep - 3600, finished: true },
      { key: randomUUID(), endedSecondsAgo: keep + 60, finished: false },
      { key: randomUUID(), endedSecondsAgo: -20, finished: false },
    ];
    for (const r of rows) {
      const ended = sql<Date>`now() - make_interval(secs => ${r.endedSecondsAgo})`;
      await database.db
        .insertInto("idempotency_keys")
        .values({
          user_id: userId,
          route: "POST /test/purge",
          key: r.key,
          fingerprint: "f",
          ...(r.finished
            ? { status_code: 201, response: "{}", completed_at: ended }
            : { lease_owner: "n", lease_expires_at: ended }),
        })
        .execute();
    }
    const logger = pino({ level: "silent" });
    const ctx = { database, logger } as unknown as Parameters<typeof idempotencyKeysJob.run>[0];
    expect(await idempotencyKeysJob.run(ctx)).toEqual({ purged: 2 });
    const left = await database.db
      .selectFrom("idempotency_keys")
      .select("key")
      .where("route", "=", "POST /test/purge")
      .execute();
    expect(left.map((r) => r.key).sort()).toEqual([rows[1]!.key, rows[3]!.key].sort());
    expect(await purgeIdempotencyKeys(database)).toBe(0);
  });
});
