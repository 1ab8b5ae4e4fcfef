/**
 * The job registry: each job runs once per period across nodes (two API contexts with their
 * own connections on one database stand for two nodes), records how the run ended, logs
 * failures and keeps a bounded history.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiContext } from "../../api/context";
import { type Database, openDatabase } from "../../api/db/database";
import { JOB_RUNS_KEEP_MS, type JobDefinition, registeredJobs, runJobTick, startJobs } from "../../api/jobs/registry";
import { jobFailures, jobRuns } from "../../api/metrics";
import { loadConfig } from "../../server/config";
import { apiContextFor, openServices } from "../../server/services";
import { sql } from "kysely";
import { type TestDatabase, testDatabase } from "../db";

const EVERY = 60_000;
const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: "test-results/data" });

let handle: TestDatabase;
let second: Database;
let closeSecond = async () => {};
let nodeA: ApiContext;
let nodeB: ApiContext;
const logLines: string[] = [];

beforeAll(async () => {
  handle = await testDatabase();
  second = handle.database;
  const url = process.env.TEST_DATABASE_URL;
  if (handle.database.kind === "postgres" && url) {
    // A second node: its own pool on the same schema.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.database.db);
    const own = await openDatabase({ url, schema: rows[0]?.schema, poolSize: 5 });
    second = own;
    closeSecond = () => own.close();
  }
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  nodeA = await apiContextFor(config, handle.database, pino({ level: "info" }, sink));
  nodeB = await apiContextFor(config, second, pino({ level: "silent" }));
});
afterAll(async () => {
  await closeSecond();
  await handle.dispose();
});

const rowsOf = (job: string) =>
  handle.database.db.selectFrom("job_runs").selectAll().where("job", "=", job).orderBy("period_start").execute();

const counter = async (metric: typeof jobRuns, job: string) =>
  (await metric.get()).values.find((v) => v.labels.job === job)?.value ?? 0;

/** A job that counts its executions and takes a moment, so concurrent ticks really overlap. */
function countingJob(name: string): JobDefinition & { executions: number } {
  const job = {
    name,
    everyMs: EVERY,
    executions: 0,
    async run() {
      job.executions++;
      await new Promise((r) => setTimeout(r, 50));
    },
  };
  return job;
}

describe("the job registry", () => {
  it("runs a job once per period when two nodes tick the same period together, and again the next period", async () => {
    const job = countingJob("test-once");
    const now = new Date("2026-03-02T08:00:10Z");
    const outcomes = await Promise.all([
      runJobTick(nodeA, job, { now, node: "a" }),
      runJobTick(nodeB, job, { now: new Date(now.getTime() + 20_000), node: "b" }),
      runJobTick(nodeB, job, { now, node: "b" }),
    ]);
    expect(job.executions).toBe(1);
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
    let rows = await rowsOf("test-once");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ok: true, error: null });
    expect(rows[0]?.period_start.toISOString()).toBe("2026-03-02T08:00:00.000Z");
    expect(rows[0]?.finished_at).toBeInstanceOf(Date);
    expect(["a", "b"]).toContain(rows[0]?.node);

    const next = new Date(now.getTime() + EVERY);
    const again = await Promise.all([
      runJobTick(nodeA, job, { now: next, node: "a" }),
      runJobTick(nodeB, job, { now: next, node: "b" }),
    ]);
    expect(again.sort()).toEqual(["claimed", "ok"]);
    expect(job.executions).toBe(2);
    rows = await rowsOf("test-once");
    expect(rows.map((r) => r.period_start.toISOString())).toEqual([
      "2026-03-02T08:00:00.000Z",
      "2026-03-02T08:01:00.000Z",
    ]);
    expect(await counter(jobRuns, "test-once")).toBe(2);
  });

  it("never overlaps a job with itself within a process", async () => {
    const job = countingJob("test-overlap");
    const outcomes = await Promise.all([
      runJobTick(nodeA, job, { now: new Date("2026-03-02T08:00:00Z") }),
      runJobTick(nodeA, job, { now: new Date("2026-03-02T08:05:00Z") }),
    ]);
    expect(outcomes).toEqual(["ok", "busy"]);
    expect(job.executions).toBe(1);
  });

  it("records a failing run with its error, logs it and counts it", async () => {
    const job: JobDefinition = {
      name: "test-failing",
      everyMs: EVERY,
      run: () => Promise.reject(new Error("gateway unreachable\nsecond line with details")),
    };
    expect(await runJobTick(nodeA, job, { now: new Date("2026-03-02T09:00:00Z") })).toBe("failed");
    const [row] = await rowsOf("test-failing");
    expect(row).toMatchObject({ ok: false, error: "gateway unreachable" });
    expect(row?.finished_at).toBeInstanceOf(Date);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.job === "test-failing");
    expect(logged).toMatchObject({
      level: 50,
      msg: "job failed",
      err: { message: expect.stringContaining("gateway") },
    });
    expect(await counter(jobFailures, "test-failing")).toBe(1);
  });

  it("keeps a week of history: a winning tick deletes its job's older rows", async () => {
    const job = countingJob("test-history");
    const now = new Date("2026-03-20T00:00:30Z");
    await handle.database.db
      .insertInto("job_runs")
      .values([
        {
          job: "test-history",
          period_start: new Date(now.getTime() - JOB_RUNS_KEEP_MS - EVERY),
          node: "old",
          ok: true,
        },
        {
          job: "test-history",
          period_start: new Date(now.getTime() - JOB_RUNS_KEEP_MS + EVERY),
          node: "recent",
          ok: true,
        },
        { job: "test-other", period_start: new Date(now.getTime() - JOB_RUNS_KEEP_MS - EVERY), node: "old", ok: true },
      ])
      .execute();
    await runJobTick(nodeA, job, { now });
    expect((await rowsOf("test-history")).map((r) => r.node)).toEqual(["recent", expect.any(String)]);
    expect(await rowsOf("test-other")).toHaveLength(1);
  });

  it("schedules each job by its period with timers, and stops them", async () => {
    const job = countingJob("test-timer");
    job.everyMs = 100;
    const scheduler = startJobs(nodeA, { jobs: [job], node: "timer" });
    await new Promise((r) => setTimeout(r, 450));
    await scheduler.stop();
    const runs = job.executions;
    expect(runs).toBeGreaterThanOrEqual(2);
    expect((await rowsOf("test-timer")).every((r) => r.node === "timer" && r.ok === true)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect(job.executions).toBe(runs);
  });

  it("the services register the site's jobs: orders, redemptions and live states every 30 s, account erasure, homework uploads and idempotency keys hourly, video transcoding every 5 s", async () => {
    await openServices(config, pino({ level: "silent" }), handle.database);
    const jobs = registeredJobs().map((j) => [j.name, j.everyMs]);
    expect(jobs).toEqual(
      expect.arrayContaining([
        ["orders", 30_000],
        ["exchange-redemptions", 30_000],
        ["live-states", 30_000],
        ["account-erasure", 3_600_000],
        ["homework-uploads", 3_600_000],
        ["idempotency-keys", 3_600_000],
        ["video-transcode", 5_000],
      ]),
    );
  });
});
