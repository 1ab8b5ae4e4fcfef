// `npm run bench -- --throughput`: the SSR-throughput workload (a loader returning 1000 rows of
// two UUIDs, rendered as a table and dehydrated with the page, about 195 kB of HTML), measured
// side by side in one run on three servers:
//
//   ours    the production server (dist/server/main.js, NODE_ENV=production, TEST_FIXTURES=1 in
//           the test environment, request logging at LOG_LEVEL=info to /dev/null) on the fixture
//           page /__test/throughput: route table → middleware → loader → streaming SSR with a
//           CSP nonce, helmet, compression (not used: no Accept-Encoding), metrics, access log;
//   floor   bench/stack-floor.mjs: what the stack costs without anything of ours: Express 5 with
//           one route, react-router's static handler running the same loader and its static router
//           rendering the same table through renderToPipeableStream, the same JSON state;
//   bare    bench/bare-react.mjs: node:http + React 19 renderToPipeableStream of the same rows
//           with the same JSON state in a script tag, production React;
//   static  the bytes of one response of ours replayed from memory (the machine's ceiling).
//
// The sides are measured in interleaved rounds (ours, floor, bare, static, ours, floor…) so that
// other work on the machine weighs on all of them alike; the ratios ours/bare and ours/static are
// of the means over the rounds.
//
//   BENCH_TP_CONNECTIONS=50  BENCH_TP_DURATION=10  BENCH_TP_ROUNDS=2  BENCH_TP_WARMUP=3
//   BENCH_TP_LOG_LEVEL=info  (the production default)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort, stopServer, waitUntilReady } from "./server.mjs";

const PAGE = "/__test/throughput";

function envInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function get(port, url) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: url }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode, type: res.headers["content-type"], body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** A child that prints `LISTENING <port>` on stdout once it listens. */
function listeningPort(child, label) {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`${label} exited (${code})`)));
  });
}

const load1 = () => Math.round(os.loadavg()[0] * 100) / 100;
const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });

/** Runs the comparison; prints it and writes bench/results/throughput.json. */
export async function runThroughput({ root, benchScript }) {
  const { default: autocannon } = await import("autocannon");
  const connections = envInt("BENCH_TP_CONNECTIONS", 50);
  const duration = envInt("BENCH_TP_DURATION", 10);
  const rounds = Math.max(1, envInt("BENCH_TP_ROUNDS", 2));
  const warmup = envInt("BENCH_TP_WARMUP", 3);
  const logLevel = process.env.BENCH_TP_LOG_LEVEL || "info";

  const cpus = os.cpus();
  const machine = `${cpus[0]?.model.trim() ?? "unknown"}, ${cpus.length} cores, ${Math.round((os.totalmem() / 2 ** 30) * 10) / 10} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
  const loadStart = load1();
  console.log(`machine: ${machine}`);
  console.log(`load average (1 min) before: ${loadStart}`);
  console.log(
    `throughput: ${PAGE}, ${connections} connections, ${duration} s per run, ${rounds} interleaved rounds, warm-up ${warmup} s, LOG_LEVEL=${logLevel}`,
  );

  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-bench-tp-"));
  const children = [];
  const stopAll = () => Promise.all(children.map(stopServer));
  const onSignal = () => {
    stopAll().finally(() => {
      rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const oursPort = await freePort();
    const dataDir = path.join(tmp, "data");
    mkdirSync(dataDir);
    const ours = spawn(process.execPath, [path.join(root, "dist/server/main.js")], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DEPLOY_ENV: "test",
        TEST_FIXTURES: "1",
        PORT: String(oursPort),
        HOST: "127.0.0.1",
        LOG_LEVEL: logLevel,
        DATA_DIR: dataDir,
        // The pipeline itself is measured: every request rendered, none answered from the page
        // cache (bench/page-cache.mjs measures that).
        PAGE_CACHE: "0",
      },
      // The access log is written (one line per request), to /dev/null.
      stdio: ["ignore", "ignore", "inherit"],
    });
    children.push(ours);

    /** One of the bench's own servers (bench/*.mjs), on production React; resolves its port. */
    const startBenchServer = (script, label) => {
      const child = spawn(process.execPath, [path.join(root, script)], {
        cwd: root,
        env: { ...process.env, NODE_ENV: "production" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push(child);
      return listeningPort(child, label);
    };
    const barePort = await startBenchServer("bench/bare-react.mjs", "bare React server");
    const floorPort = await startBenchServer("bench/stack-floor.mjs", "stack floor server");
    await waitUntilReady(async () => (await get(oursPort, PAGE)).status === 200, ours, "production server", {
      intervalMs: 100,
    });

    // All three render the same rows, every cell the same.
    const page = await get(oursPort, PAGE);
    const barePage = await get(barePort, PAGE);
    const floorPage = await get(floorPort, PAGE);
    const rowsOf = (html) => [...html.matchAll(/<td>([0-9a-f-]{36})<\/td>/g)].map((m) => m[1]);
    const ourRows = rowsOf(page.body.toString("utf8"));
    for (const [label, other] of [
      ["bare", barePage],
      ["floor", floorPage],
    ]) {
      const otherRows = rowsOf(other.body.toString("utf8"));
      if (ourRows.length !== 2000 || ourRows.join() !== otherRows.join())
        throw new Error(`the pages differ: ours ${ourRows.length} vs ${label} ${otherRows.length} cells`);
    }

    const pagesFile = path.join(tmp, "pages.json");
    writeFileSync(
      pagesFile,
      JSON.stringify({ [PAGE]: { status: page.status, contentType: page.type, body: page.body.toString("base64") } }),
    );
    const stat = spawn(process.execPath, [benchScript, "--static-server", pagesFile], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(stat);
    const staticPort = await listeningPort(stat, "static server");
    console.log(
      `bytes per page: ours ${fmt(page.body.length)}, floor ${fmt(floorPage.body.length)}, bare ${fmt(barePage.body.length)}, static ${fmt(page.body.length)}`,
    );

    const sides = [
      { name: "ours", port: oursPort },
      { name: "floor", port: floorPort },
      { name: "bare", port: barePort },
      { name: "static", port: staticPort },
    ];
    const run = (port, seconds) =>
      autocannon({ url: `http://127.0.0.1:${port}${PAGE}`, connections, duration: seconds });
    if (warmup > 0) for (const s of sides) await run(s.port, warmup);

    const results = Object.fromEntries(sides.map((s) => [s.name, []]));
    for (let r = 1; r <= rounds; r++) {
      for (const s of sides) {
        const res = await run(s.port, duration);
        const bad = res.non2xx + res.errors + res.timeouts;
        results[s.name].push({
          requestsPerSecond: res.requests.average,
          latencyMs: { p50: res.latency.p50, p99: res.latency.p99 },
          non2xx: res.non2xx,
          errors: res.errors,
          timeouts: res.timeouts,
          load1: load1(),
        });
        console.log(
          `round ${r} ${s.name.padEnd(6)} ${fmt(res.requests.average).padStart(6)} req/s  p50 ${res.latency.p50} ms  p99 ${res.latency.p99} ms  load ${load1()}${bad ? `  ! ${bad} failed` : ""}`,
        );
      }
    }
    const mean = (name) => results[name].reduce((t, x) => t + x.requestsPerSecond, 0) / results[name].length;
    const summary = { ours: mean("ours"), floor: mean("floor"), bare: mean("bare"), static: mean("static") };
    const ratios = {
      oursToBare: summary.ours / summary.bare,
      oursToStatic: summary.ours / summary.static,
      floorToBare: summary.floor / summary.bare,
      oursToFloor: summary.ours / summary.floor,
    };
    const loadEnd = load1();
    console.log(
      `\nmean req/s: ours ${fmt(summary.ours)}, stack floor ${fmt(summary.floor)}, bare React ${fmt(summary.bare)}, static ${fmt(summary.static)}`,
    );
    console.log(
      `ours/bare ${ratios.oursToBare.toFixed(2)}×, ours/static ${(ratios.oursToStatic * 100).toFixed(1)} %, bare/static ${((summary.bare / summary.static) * 100).toFixed(1)} %`,
    );
    console.log(
      `stack floor/bare ${ratios.floorToBare.toFixed(2)}× (Express + react-router + React, nothing of ours), ours/stack floor ${ratios.oursToFloor.toFixed(2)}×`,
    );
    console.log(`load average (1 min) before: ${loadStart}, after: ${loadEnd}`);

    const outDir = path.join(root, "bench/results");
    mkdirSync(outDir, { recursive: true });
    const outFile = path.join(outDir, "throughput.json");
    writeFileSync(
      outFile,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine,
          config: { page: PAGE, connections, durationSeconds: duration, rounds, warmupSeconds: warmup, logLevel },
          bytes: { ours: page.body.length, floor: floorPage.body.length, bare: barePage.body.length },
          loadAverage: { start: loadStart, end: loadEnd },
          rounds: results,
          meanRequestsPerSecond: summary,
          ratios,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`results: ${path.relative(root, outFile)}`);
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    await stopAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}
