// Memory and cold start of one production node (decision 028): time from spawn to /readyz 200 on
// an empty data directory (migrations + demo seed) and on an existing one, the resident set size
// (RSS) once idle after each start, and its peak during a load mix of pages.
//
//   node bench/memory.mjs     (needs a build: npm run build)
//
//   BENCH_MEMORY_LOAD=10        seconds of the load mix (20 connections)
//   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres
//                               also measure on PostgreSQL: a scratch database is created there,
//                               used (DATABASE_URL, DEMO_DATA=1) and dropped at the end
//
// Targets: RSS ≤ 400 MB idle and ≤ 600 MB under load on PGlite, ≤ 200 MB idle on PostgreSQL;
// /readyz within 3 s on an existing data directory and 10 s on an empty one. Printed, and
// written to bench/results/memory.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { residentMemory, root, startServer, stopServer, table } from "./server.mjs";

export const TARGETS = {
  pglite: { idle: 400 * 2 ** 20, load: 600 * 2 ** 20 },
  postgres: { idle: 200 * 2 ** 20 },
  readyEmptyMs: 10_000,
  readyExistingMs: 3_000,
};

const MIX = ["/", "/product/list", "/course/1", "/about", "/live", "/books", "/stationery", "/search?keyword=kaishu"];
const SETTLE_MS = 3_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (n) => (Number.isFinite(n) ? `${Math.round(n / 2 ** 20)} MiB` : "n/a");
const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load1 = () => Math.round(os.loadavg()[0] * 100) / 100;

/** Starts, waits SETTLE_MS, reads the RSS; with `loadSeconds`, then runs the mix and keeps the peak. */
async function oneStart(label, { dataDir, env, loadSeconds }) {
  const server = await startServer({ dataDir, env });
  try {
    await sleep(SETTLE_MS);
    const idle = residentMemory(server.child.pid);
    const row = { label, readyMs: Math.round(server.readyMs), rssIdle: idle.rss, peakAtStart: idle.peak };
    if (loadSeconds > 0) {
      const { default: autocannon } = await import("autocannon");
      let peak = idle.rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, residentMemory(server.child.pid).rss);
      }, 200);
      const result = await autocannon({
        url: server.origin,
        connections: 20,
        duration: loadSeconds,
        requests: MIX.map((p) => ({ method: "GET", path: encodeURI(p) })),
      });
      clearInterval(sampler);
      row.rssLoadPeak = Math.max(peak, residentMemory(server.child.pid).rss);
      row.loadRequestsPerSecond = Math.round(result.requests.average);
      row.loadNon2xx = result.non2xx;
      await sleep(SETTLE_MS);
      row.rssAfterLoad = residentMemory(server.child.pid).rss;
    }
    return row;
  } finally {
    await stopServer(server.child);
  }
}

async function withScratchDatabase(adminUrl, fn) {
  const { default: pg } = await import("pg");
  const name = `mochi_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

export async function measureMemory({
  loadSeconds = Number(process.env.BENCH_MEMORY_LOAD ?? 10),
  postgresUrl = process.env.BENCH_POSTGRES_URL,
} = {}) {
  const loadBefore = load1();
  const rows = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-memory-"));
  try {
    const dataDir = path.join(tmp, "data");
    mkdirSync(dataDir);
    rows.push({ db: "pglite", ...(await oneStart("empty data directory", { dataDir, loadSeconds: 0 })) });
    rows.push({ db: "pglite", ...(await oneStart("existing data directory", { dataDir, loadSeconds })) });
    if (postgresUrl) {
      await withScratchDatabase(postgresUrl, async (url) => {
        const env = { DATABASE_URL: url, DEMO_DATA: "1" };
        const pgDir = path.join(tmp, "pg");
        mkdirSync(pgDir);
        rows.push({ db: "postgres", ...(await oneStart("empty database", { dataDir: pgDir, env, loadSeconds: 0 })) });
        rows.push({ db: "postgres", ...(await oneStart("existing database", { dataDir: pgDir, env, loadSeconds })) });
      });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { loadAverage: { before: loadBefore, after: load1() }, loadSeconds, rows };
}

export function printMemory(result) {
  console.log(
    `\nMemory and cold start of one node (RSS ${SETTLE_MS / 1000} s after /readyz; load mix: ${result.loadSeconds} s, ` +
      `20 connections over ${MIX.length} pages):\n`,
  );
  const lines = [["database", "start", "to /readyz", "RSS idle", "peak at start", "RSS peak under load", "req/s"]];
  for (const r of result.rows) {
    lines.push([
      r.db,
      r.label,
      sec(r.readyMs),
      mib(r.rssIdle),
      mib(r.peakAtStart),
      r.rssLoadPeak === undefined ? "-" : mib(r.rssLoadPeak) + (r.loadNon2xx ? ` (${r.loadNon2xx} non-2xx)` : ""),
      r.loadRequestsPerSecond ?? "-",
    ]);
  }
  for (const line of table(lines)) console.log(line);
  if (!result.rows.some((r) => r.db === "postgres")) console.log("(PostgreSQL: set BENCH_POSTGRES_URL to measure it)");
  console.log(
    `targets: PGlite ≤ 400 MiB idle, ≤ 600 MiB under load; PostgreSQL ≤ 200 MiB idle; /readyz ≤ 3 s (existing), ≤ 10 s (empty)`,
  );
  console.log(`load average (1 min) before: ${result.loadAverage.before}, after: ${result.loadAverage.after}`);
  const outDir = path.join(root, "bench/results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    path.join(outDir, "memory.json"),
    `${JSON.stringify({ date: new Date().toISOString(), ...result }, null, 2)}\n`,
  );
}

/** Measures and prints (what `npm run bench` calls). */
export async function runMemory(options) {
  const result = await measureMemory(options);
  printMemory(result);
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runMemory();
}
