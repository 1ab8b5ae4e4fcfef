#!/usr/bin/env node
// `npm run bench [extra paths…]`: throughput and latency of the production server rendering pages,
// against the same HTML bytes served from memory by a bare node:http server (the upper bound for
// this machine: no rendering, no middleware). Each page is measured without and with
// `Accept-Encoding: gzip`. Also reports the initial JavaScript per page (gzip) and the machine.
//
//   BENCH_DURATION=10     seconds per measured run
//   BENCH_CONNECTIONS=20  concurrent connections
//   BENCH_WARMUP=2        seconds of warm-up per page and server before measuring (0: none)
//
// Loopback only: both servers listen on 127.0.0.1 and are stopped at the end.
// Results: printed, and written to bench/results/latest.json.
// `npm run bench -- --throughput`: ours against bare React and static on one workload
// (bench/throughput.mjs; results in bench/results/throughput.json).
// `npm run bench -- --lighthouse`: Lighthouse desktop performance per public page type, and the
// phone table (mobile emulation and throttling) on five pages
// (bench/lighthouse.mjs; results in bench/results/lighthouse.json).
// `npm run bench -- --validate`: the W3C validator's errors per page type, signed out and in
// (bench/validate-html.mjs, needs Java; results in bench/results/validate-html.json).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { freePort, envInt as positiveInt } from "../bench/server.mjs";
import { jsWeight } from "../bench/initial-js.mjs";

const scriptPath = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(scriptPath), "..");

// -------------------------------------------------------------------------------------------------

/** A GET with no Accept-Encoding: the exact bytes a client that asks for nothing receives. */
function capture(port, url) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: url, headers: { "user-agent": "mochi-bench" } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            contentType: res.headers["content-type"] ?? "text/html",
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

async function waitFor(url, child, label, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}) before it answered`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${label} did not answer ${url} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function pad(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, ri) => {
    const line = `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
    return ri === 0 ? `${line}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|` : line;
  });
}

/** The machine the figures were taken on (they mean little without it). */
function describeMachine() {
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    autocannon: JSON.parse(readFileSync(path.join(root, "node_modules/autocannon/package.json"), "utf8")).version,
    // Other work on the machine skews every figure: the 1-minute load average before and after.
    loadAverage: { start: Math.round(os.loadavg()[0] * 100) / 100, end: null },
  };
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}`,
  );
  console.log(`load average (1 min) before: ${machine.loadAverage.start}`);
  return machine;
}

/** The production server on a free port, with an empty data folder under `tmp` (stopped with `children`). */
async function startProductionServer(serverEntry, tmp, children) {
  const ssrPort = await freePort();
  const dataDir = path.join(tmp, "data");
  mkdirSync(dataDir);
  const ssr = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(ssrPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
      TEST_FIXTURES: "",
      // Rendering is what this table measures; bench/page-cache.mjs measures the page cache.
      PAGE_CACHE: process.env.PAGE_CACHE ?? "0",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(ssr);
  await waitFor(`http://127.0.0.1:${ssrPort}/healthz`, ssr, "production server");
  return ssrPort;
}

/** Each page captured once (the static server replays these bytes), with its weight. */
async function capturePages(ssrPort, paths, clientDir) {
  // Capture each page once; the static server replays these bytes.
  const pages = {};
  const weights = {};
  for (const p of paths) {
    const page = await capture(ssrPort, p);
    if (page.status !== 200) console.warn(`warning: ${p} answered ${page.status}; it is measured as it is`);
    pages[p] = { status: page.status, contentType: page.contentType, body: page.body.toString("base64") };
    const html = page.body.toString("utf8");
    weights[p] = {
      htmlBytes: page.body.length,
      htmlGzipBytes: gzipSync(page.body).length,
      ...jsWeight(html, clientDir),
    };
  }
  return { pages, weights };
}

function capturePagesFile({ pages, weights }, tmp) {
  const pagesFile = path.join(tmp, "pages.json");
  writeFileSync(pagesFile, JSON.stringify(pages));
  return { pagesFile, weights };
}

/** The static upper bound: this script in --static-server mode, replaying the captured pages. */
async function startStaticServer(pagesFile, children) {
  const stat = spawn(process.execPath, [scriptPath, "--static-server", pagesFile], {
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
  return staticPort;
}

/** Every page, both encodings, on both servers (after a warm-up). */
async function measure(autocannon, { ssrPort, staticPort, paths, connections, duration, warmup }) {
  const servers = [
    { name: "ssr", port: ssrPort },
    { name: "static", port: staticPort },
  ];
  const encodings = [
    { name: "identity", headers: {} },
    { name: "gzip", headers: { "accept-encoding": "gzip" } },
  ];
  const load = (port, p, headers, seconds) =>
    autocannon({ url: `http://127.0.0.1:${port}${p}`, connections, duration: seconds, headers });

  const runs = [];
  for (const p of paths) {
    if (warmup > 0) {
      for (const s of servers)
        for (const e of encodings) await load(s.port, p, e.headers, Math.max(1, Math.round(warmup / 2)));
    }
    for (const e of encodings) {
      const row = { path: p, encoding: e.name };
      for (const s of servers) {
        process.stdout.write(`measuring ${s.name.padEnd(6)} ${p} (${e.name})… `);
        const r = await load(s.port, p, e.headers, duration);
        row[s.name] = {
          requestsPerSecond: r.requests.average,
          requestsTotal: r.requests.total,
          latencyMs: { p50: r.latency.p50, p99: r.latency.p99, average: r.latency.average, max: r.latency.max },
          bytesPerSecond: r.throughput.average,
          bytesPerResponse: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
        };
        console.log(`${fmt(r.requests.average)} req/s`);
      }
      row.ratio = row.static.requestsPerSecond > 0 ? row.ssr.requestsPerSecond / row.static.requestsPerSecond : null;
      runs.push(row);
    }
  }
  return runs;
}

/** The tables on the console and bench/results/latest.json. */
function report({ runs, weights, paths, machine, config }) {
  // Report.
  console.log("\nThroughput and latency (latency in ms):\n");
  const table = [
    ["page", "encoding", "SSR req/s", "SSR p50", "SSR p99", "static req/s", "static p50", "static p99", "SSR/static"],
  ];
  for (const r of runs) {
    const flag = (x) => (x.non2xx || x.errors || x.timeouts ? " !" : "");
    table.push([
      r.path,
      r.encoding,
      fmt(r.ssr.requestsPerSecond) + flag(r.ssr),
      r.ssr.latencyMs.p50,
      r.ssr.latencyMs.p99,
      fmt(r.static.requestsPerSecond) + flag(r.static),
      r.static.latencyMs.p50,
      r.static.latencyMs.p99,
      r.ratio === null ? "n/a" : `${(r.ratio * 100).toFixed(1)} %`,
    ]);
  }
  for (const line of pad(table)) console.log(line);
  if (runs.some((r) => ["ssr", "static"].some((s) => r[s].non2xx || r[s].errors || r[s].timeouts))) {
    console.log("\n! some responses were not 2xx, failed or timed out: see bench/results/latest.json");
  }

  console.log("\nInitial JavaScript per page (entry script + modulepreload, gzip level 6 as served):\n");
  const jsTable = [["page", "scripts", "raw", "gzip", "HTML gzip"]];
  for (const p of paths) {
    const w = weights[p];
    jsTable.push([p, w.scripts.length, kib(w.totalBytes), kib(w.totalGzipBytes), kib(w.htmlGzipBytes)]);
  }
  for (const line of pad(jsTable)) console.log(line);

  machine.loadAverage.end = Math.round(os.loadavg()[0] * 100) / 100;
  console.log(`\nload average (1 min) before: ${machine.loadAverage.start}, after: ${machine.loadAverage.end}`);
  const results = {
    date: new Date().toISOString(),
    machine,
    config,
    runs,
    initialJavaScript: weights,
  };
  const outDir = path.join(root, "bench/results");
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, "latest.json");
  writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nresults: ${path.relative(root, outFile)}`);
}

async function main() {
  const { default: autocannon } = await import("autocannon");
  const duration = positiveInt("BENCH_DURATION", 10);
  const connections = positiveInt("BENCH_CONNECTIONS", 20);
  const warmup = positiveInt("BENCH_WARMUP", 2, { allowZero: true });
  const paths = [...new Set(["/", "/about", "/product/list", "/course/1", ...process.argv.slice(2)])];
  for (const p of paths) {
    if (!p.startsWith("/")) {
      console.error(`paths must start with "/": ${p}`);
      process.exit(2);
    }
  }

  const serverEntry = path.join(root, "dist/server/main.js");
  const clientDir = path.join(root, "dist/client");
  if (!existsSync(serverEntry) || !existsSync(path.join(clientDir, ".vite/manifest.json"))) {
    console.log("No build found: building the site (npm run build)…");
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }

  const machine = describeMachine();
  console.log(
    `load: ${connections} connections, ${duration} s per run (warm-up ${warmup} s), autocannon ${machine.autocannon}`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-bench-"));
  const children = [];
  let interrupted = false;
  const onSignal = async () => {
    if (interrupted) return;
    interrupted = true;
    console.error("\ninterrupted: stopping the servers…");
    await Promise.all(children.map(stopChild));
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    const ssrPort = await startProductionServer(serverEntry, tmp, children);
    const { pagesFile, weights } = capturePagesFile(await capturePages(ssrPort, paths, clientDir), tmp);
    const staticPort = await startStaticServer(pagesFile, children);
    const runs = await measure(autocannon, {
      ssrPort,
      staticPort,
      paths,
      connections,
      duration,
      warmup,
    });
    report({
      runs,
      weights,
      paths,
      machine,
      config: { durationSeconds: duration, connections, warmupSeconds: warmup, paths },
    });
    await (await import("../bench/page-cache.mjs")).pageCacheBench({ root, duration, connections, warmup });
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(tmp, { recursive: true, force: true });
  }
}

// -------------------------------------------------------------------------------------------------
// Child mode: the static upper bound. Serves captured responses from memory, gzip pre-computed.

if (process.argv[2] === "--load") {
  await (await import("../bench/load.mjs")).runLoadBench(); // the mixed load (bench/load.mjs)
} else if (process.argv[2] === "--static-server") {
  const pages = JSON.parse(readFileSync(process.argv[3], "utf8"));
  const table = new Map();
  for (const [url, page] of Object.entries(pages)) {
    const body = Buffer.from(page.body, "base64");
    table.set(url, { status: page.status, type: page.contentType, body, gzip: gzipSync(body) });
  }
  const server = http.createServer((req, res) => {
    const page = table.get(req.url);
    if (!page) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
      return;
    }
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    const body = gzip ? page.gzip : page.body;
    const headers = { "Content-Type": page.type, "Content-Length": body.length, Vary: "Accept-Encoding" };
    if (gzip) headers["Content-Encoding"] = "gzip";
    res.writeHead(page.status, headers).end(body);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else if (process.argv[2] === "--lighthouse") {
  await (await import("../bench/lighthouse.mjs")).runLighthouse(); // Lighthouse desktop per page (bench/lighthouse.mjs)
} else if (process.argv[2] === "--validate") {
  await (await import("../bench/validate-html.mjs")).runValidate(); // W3C validator per page type (bench/validate-html.mjs)
} else if (process.argv[2] === "--throughput") {
  await (await import("../bench/throughput.mjs")).runThroughput({ root, benchScript: scriptPath });
} else {
  await main();
  await (await import("../bench/memory.mjs")).runMemory();
  if (!(await (await import("../bench/budget.mjs")).checkBudget()).ok) process.exitCode = 1;
}
