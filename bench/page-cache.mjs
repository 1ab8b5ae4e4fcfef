#!/usr/bin/env node
// The page cache side by side (docs/decisions/026-page-cache.md): `/` and a course page from
// the production server with the page cache (PAGE_CACHE=1), the same server without it
// (PAGE_CACHE=0), and the static replay of the same HTML bytes (scripts/bench.mjs
// --static-server), each without and with `Accept-Encoding: gzip`. Both servers run on the
// embedded database with the demo catalogue. Run at the end of `npm run bench`, or alone:
// `node bench/page-cache.mjs` (same BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WARMUP).
// Results: printed, and written to bench/results/page-cache.json.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, serverEnv, stopServer, waitUntilReady } from "./server.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

function get(port, url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: url, headers: { "user-agent": "mochi-bench", ...headers } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");

export async function pageCacheBench({ root, duration = 10, connections = 20, warmup = 2 }) {
  const { default: autocannon } = await import("autocannon");
  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-page-cache-"));
  const children = [];
  const load = os.loadavg()[0];
  try {
    const startServer = async (pageCache) => {
      const port = await freePort();
      const dataDir = path.join(tmp, `data-${pageCache}`);
      mkdirSync(dataDir);
      const child = spawn(process.execPath, [path.join(root, "dist/server/main.js")], {
        cwd: root,
        env: { ...serverEnv({ port, dataDir }), DEMO_DATA: "1", PAGE_CACHE: pageCache },
        stdio: ["ignore", "ignore", "inherit"],
      });
      children.push(child);
      await waitUntilReady(
        async () => (await get(port, "/readyz")).status === 200,
        child,
        `server (PAGE_CACHE=${pageCache})`,
      );
      return port;
    };
    const cachedPort = await startServer("1");
    const uncachedPort = await startServer("0");
    const list = JSON.parse((await get(cachedPort, "/api/courses")).body.toString());
    const course = list.items?.[0]?.id;
    if (!course) throw new Error("the demo catalogue has no course");
    const paths = ["/", `/course/${course}`];

    // The static server replays the bytes the cached server sends (its nonce frozen in them).
    const pages = {};
    for (const p of paths) {
      await get(cachedPort, p);
      const page = await get(cachedPort, p);
      if (page.status !== 200 || page.headers["x-page-cache"] !== "hit")
        throw new Error(`${p}: expected a cached 200, got ${page.status} ${page.headers["x-page-cache"] ?? "(miss)"}`);
      pages[p] = { status: 200, contentType: page.headers["content-type"], body: page.body.toString("base64") };
    }
    const pagesFile = path.join(tmp, "pages.json");
    writeFileSync(pagesFile, JSON.stringify(pages));
    const stat = spawn(process.execPath, [path.join(root, "scripts/bench.mjs"), "--static-server", pagesFile], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(stat);
    const staticPort = await new Promise((resolve, reject) => {
      let out = "";
      stat.stdout.on("data", (d) => {
        out += d;
        const m = /LISTENING (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      stat.once("exit", (code) => reject(new Error(`static server exited (${code})`)));
    });

    const servers = [
      { name: "cached", port: cachedPort },
      { name: "uncached", port: uncachedPort },
      { name: "static", port: staticPort },
    ];
    const encodings = [
      { name: "identity", headers: {} },
      { name: "gzip", headers: { "accept-encoding": "gzip" } },
    ];
    const run = (port, p, headers, seconds) =>
      autocannon({ url: `http://127.0.0.1:${port}${p}`, connections, duration: seconds, headers });
    const rows = [];
    for (const p of paths) {
      for (const e of encodings) {
        const row = { path: p, encoding: e.name };
        for (const s of servers) {
          if (warmup > 0) await run(s.port, p, e.headers, warmup);
          const r = await run(s.port, p, e.headers, duration);
          // Only answered pages count: a 503 shed at once by the overload guard is not throughput.
          row[s.name] = {
            requestsPerSecond: Math.round((r["2xx"] / r.duration) * 10) / 10,
            latencyMs: { p50: r.latency.p50, p99: r.latency.p99 },
            non2xx: r.non2xx,
            errors: r.errors,
            timeouts: r.timeouts,
          };
          const failed = r.non2xx + r.errors + r.timeouts;
          console.log(
            `page cache: ${s.name.padEnd(8)} ${p} (${e.name}) ${fmt(row[s.name].requestsPerSecond)} req/s${failed ? ` (${fmt(failed)} not 2xx)` : ""}`,
          );
        }
        rows.push(row);
      }
    }
    const loadEnd = os.loadavg()[0];
    console.log(
      "\nPage cache (2xx responses/s, p50/p99 ms, ! answers that were not 2xx; ratios against the static replay):\n",
    );
    console.log("| page | encoding | cached | uncached | static | cached/static | uncached/static |");
    console.log("|------|----------|--------|----------|--------|---------------|-----------------|");
    for (const r of rows) {
      const cell = (x) => {
        const failed = x.non2xx + x.errors + x.timeouts;
        return `${fmt(x.requestsPerSecond)} (${x.latencyMs.p50}/${x.latencyMs.p99})${failed ? ` ! ${fmt(failed)}` : ""}`;
      };
      const ratio = (x) => `${((x.requestsPerSecond / r.static.requestsPerSecond) * 100).toFixed(1)} %`;
      console.log(
        `| ${r.path} | ${r.encoding} | ${cell(r.cached)} | ${cell(r.uncached)} | ${cell(r.static)} | ${ratio(r.cached)} | ${ratio(r.uncached)} |`,
      );
    }
    console.log(`load average (1 min): ${load.toFixed(2)} before, ${loadEnd.toFixed(2)} after`);
    const outDir = path.join(root, "bench/results");
    mkdirSync(outDir, { recursive: true });
    const result = {
      date: new Date().toISOString(),
      config: { duration, connections, warmup },
      loadAverage: { start: load, end: loadEnd },
      rows,
    };
    writeFileSync(path.join(outDir, "page-cache.json"), `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    await Promise.all(children.map(stopServer));
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
  await pageCacheBench({
    root: path.resolve(here, ".."),
    duration: num("BENCH_DURATION", 10),
    connections: num("BENCH_CONNECTIONS", 20),
    warmup: num("BENCH_WARMUP", 2),
  });
}
