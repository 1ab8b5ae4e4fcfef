// `npm run bench -- --load`: the production server under a mix of pages and API calls at once
// (200 connections for 60 s by default), then the same mix beyond capacity, to see that overload
// is answered (503 + Retry-After at once) rather than queued into timeouts.
//
//   BENCH_LOAD_CONNECTIONS=200          connections of the main run, spread over the mix
//   BENCH_LOAD_SECONDS=60               seconds of the main run
//   BENCH_LOAD_WARMUP=5                 seconds of warm-up before it (0: none)
//   BENCH_LOAD_SETTLE=60                seconds after the runs before the last RSS reading (0: none)
//   BENCH_LOAD_BEYOND_CONNECTIONS=1000  connections of the run beyond capacity (0: skipped)
//   BENCH_LOAD_BEYOND_SECONDS=20        seconds of that run
//   BENCH_LOAD_TIMEOUT=10               seconds after which autocannon counts a request as timed out
//   OVERLOAD_LAG_MS                     passed to the server when set (its default otherwise)
//   BENCH_LOAD_NODE_ARGS                e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": options for the server's node
//
// Every connection goes round the mix in order (closed loop: the next request when the previous
// answer is complete); answers and timeouts are booked per path. The server, autocannon and
// anything else on the machine share its cores: the load average is printed before and after.
// Results: printed, and written to bench/results/load/latest.json.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, envInt as count, serverEnv, stopServer, waitUntilReady } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Resident set size of a process in MiB (Linux /proc; null elsewhere). */
function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100);

/** Counters and gauges from the metrics listener, by name (labels summed). */
async function scrape(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const values = {};
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(?:\{[^}]*\})? ([0-9.eE+-]+)$/.exec(line);
    if (m) values[m[1]] = (values[m[1]] ?? 0) + Number(m[2]);
  }
  return values;
}

const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US", { maximumFractionDigits: 0 }) : String(n));

function pad(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, ri) => {
    const line = `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
    return ri === 0 ? `${line}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|` : line;
  });
}

const percentile = (sorted, q) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;

/**
 * One autocannon instance; every connection goes round the mix in order (the next request when
 * the previous answer is complete), so each path gets the same share of requests whatever it
 * costs. Each answer and each timeout is booked to the path the connection had sent.
 */
async function runMix(autocannon, port, mix, connections, seconds, timeout) {
  const byPath = new Map(mix.map((p) => [p, { codes: {}, durations: [], timeouts: 0 }]));
  const sent = (client) => byPath.get(client.requestIterator?.currentRequest?.path);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    timeout,
    headers: { "accept-encoding": "gzip", "user-agent": "mochi-bench-load" },
    requests: mix.map((p) => ({ method: "GET", path: p })),
    setupClient(client) {
      client.on("response", (status, _bytes, duration) => {
        const row = sent(client);
        if (!row) return;
        row.codes[status] = (row.codes[status] ?? 0) + 1;
        row.durations.push(duration);
      });
      client.on("timeout", () => {
        const row = sent(client);
        if (row) row.timeouts += 1;
      });
    },
  });
  const rows = mix.map((p) => {
    const { codes, durations, timeouts } = byPath.get(p);
    const sorted = durations.sort((a, b) => a - b);
    const total = sorted.length;
    const ok = Object.entries(codes).reduce((a, [c, n]) => a + (c.startsWith("2") ? n : 0), 0);
    return {
      path: p,
      responses: total,
      requestsPerSecond: Math.round((total / seconds) * 10) / 10,
      ok2xx: ok,
      non2xx: total - ok,
      shed503: codes["503"] ?? 0,
      status504: codes["504"] ?? 0,
      statusCodes: codes,
      timeouts,
      latencyMs: {
        p50: Math.round(percentile(sorted, 0.5)),
        p99: Math.round(percentile(sorted, 0.99)),
        max: Math.round(sorted.at(-1) ?? 0),
      },
    };
  });
  return {
    connections,
    seconds,
    rows,
    total: {
      responses: result.requests.total,
      requestsPerSecond: result.requests.average,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    },
  };
}

function printMix(title, run) {
  console.log(`\n${title} (latency in ms; 503 = shed, answered at once):\n`);
  const table = [["path", "responses", "req/s", "2xx", "non-2xx", "503", "504", "timeouts", "p50", "p99", "max"]];
  const line = (name, r) => [
    name,
    fmt(r.responses),
    fmt(r.requestsPerSecond),
    fmt(r.ok2xx),
    fmt(r.non2xx),
    fmt(r.shed503),
    fmt(r.status504),
    fmt(r.timeouts),
    r.latencyMs.p50,
    r.latencyMs.p99,
    r.latencyMs.max,
  ];
  for (const r of run.rows) table.push(line(r.path, r));
  const sum = (k) => run.rows.reduce((a, r) => a + r[k], 0);
  table.push(
    line("all", {
      responses: run.total.responses,
      requestsPerSecond: Math.round(run.total.requestsPerSecond),
      ok2xx: sum("ok2xx"),
      non2xx: run.total.non2xx,
      shed503: sum("shed503"),
      status504: sum("status504"),
      timeouts: run.total.timeouts,
      latencyMs: run.total.latencyMs,
    }),
  );
  for (const l of pad(table)) console.log(l);
}

export async function runLoadBench() {
  const { default: autocannon } = await import("autocannon");
  const connections = count("BENCH_LOAD_CONNECTIONS", 200);
  const seconds = count("BENCH_LOAD_SECONDS", 60);
  const warmup = count("BENCH_LOAD_WARMUP", 5, { allowZero: true });
  const settle = count("BENCH_LOAD_SETTLE", 60, { allowZero: true });
  const beyondConnections = count("BENCH_LOAD_BEYOND_CONNECTIONS", 1000, { allowZero: true });
  const beyondSeconds = count("BENCH_LOAD_BEYOND_SECONDS", 20);
  const timeout = count("BENCH_LOAD_TIMEOUT", 10);

  const serverEntry = path.join(root, "dist/server/main.js");
  if (!existsSync(serverEntry) || !existsSync(path.join(root, "dist/client/.vite/manifest.json"))) {
    console.log("No build found: building the site (npm run build)…");
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }

  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    autocannon: JSON.parse(readFileSync(path.join(root, "node_modules/autocannon/package.json"), "utf8")).version,
  };
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}, autocannon ${machine.autocannon}`,
  );
  const load = { before: loadAverage() };
  console.log(`load average (1, 5, 15 min) before: ${load.before.join(", ")}`);

  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-bench-load-"));
  let server;
  const onSignal = async () => {
    console.error("\ninterrupted: stopping the server…");
    await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    const port = await freePort();
    const metricsPort = await freePort();
    const dataDir = path.join(tmp, "data");
    mkdirSync(dataDir);
    const nodeArgs = (process.env.BENCH_LOAD_NODE_ARGS ?? "").split(" ").filter(Boolean);
    server = spawn(process.execPath, [...nodeArgs, serverEntry], {
      cwd: root,
      env: {
        ...serverEnv({ port, dataDir }),
        DEMO_DATA: "1",
        METRICS_PORT: String(metricsPort),
        METRICS_HOST: "127.0.0.1",
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
    await waitUntilReady(() => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok), server, "the server");

    // Real ids from the demo catalogue.
    const list = await (await fetch(`http://127.0.0.1:${port}/api/courses?pageSize=1`)).json();
    const courseId = list.items?.[0]?.id;
    if (!courseId) throw new Error("no course in the demo catalogue");
    const keyword = encodeURIComponent("书法");
    const mix = [
      "/",
      "/product/list",
      `/course/${courseId}`,
      "/live",
      "/books",
      `/search?q=${keyword}`,
      "/api/home",
      "/api/courses",
      `/api/courses/${courseId}`,
      "/api/live?tab=today",
      "/api/shop/books/overview",
      `/api/search?q=${keyword}`,
    ];
    for (const p of mix) {
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      await res.arrayBuffer();
      if (res.status !== 200) console.warn(`warning: ${p} answered ${res.status}; it is measured as it is`);
    }

    if (warmup > 0) {
      process.stdout.write(`warm-up: ${Math.min(connections, 48)} connections, ${warmup} s… `);
      await runMix(autocannon, port, mix, Math.min(connections, 48), warmup, timeout);
      console.log("done");
    }
    const before = await scrape(metricsPort);
    // The peak of each run on its own: the budget (≤ 600 MB under the mix) is the main run's.
    const rss = { before: rssMiB(server.pid), peak: 0, peakMain: 0, peakBeyond: 0 };
    let phase = "peakMain";
    const sampler = setInterval(() => {
      const now = rssMiB(server.pid) ?? 0;
      rss.peak = Math.max(rss.peak, now);
      rss[phase] = Math.max(rss[phase], now);
    }, 500);

    console.log(`main run: ${connections} connections over ${mix.length} paths, ${seconds} s…`);
    const main = await runMix(autocannon, port, mix, connections, seconds, timeout);
    load.afterMain = loadAverage();
    rss.afterMain = rssMiB(server.pid);
    rss.peakMain = Math.max(rss.peakMain, rss.afterMain ?? 0);
    phase = "peakBeyond";
    const afterMain = await scrape(metricsPort);
    printMix(`Main run: ${connections} connections × ${seconds} s`, main);

    let beyond = null;
    let afterBeyond = afterMain;
    if (beyondConnections > 0) {
      console.log(`\nbeyond capacity: ${beyondConnections} connections, ${beyondSeconds} s…`);
      beyond = await runMix(autocannon, port, mix, beyondConnections, beyondSeconds, timeout);
      load.afterBeyond = loadAverage();
      rss.afterBeyond = rssMiB(server.pid);
      afterBeyond = await scrape(metricsPort);
      printMix(`Beyond capacity: ${beyondConnections} connections × ${beyondSeconds} s`, beyond);
    }
    clearInterval(sampler);

    if (settle > 0) {
      process.stdout.write(`\nidle ${settle} s, then RSS again… `);
      await new Promise((r) => setTimeout(r, settle * 1000));
      console.log("done");
    }
    rss.settled = rssMiB(server.pid);
    load.end = loadAverage();

    const shed = (a, b) => (b.mochi_overload_shed_total ?? 0) - (a.mochi_overload_shed_total ?? 0);
    const server_ = {
      shedMain: shed(before, afterMain),
      shedBeyond: shed(afterMain, afterBeyond),
      eventLoopLagP99Ms: Math.round((afterBeyond.nodejs_eventloop_lag_p99_seconds ?? 0) * 1000),
    };
    console.log(
      `\nserver RSS (MiB): before ${rss.before}, peak during the main run ${rss.peakMain}, after it ${rss.afterMain}` +
        (beyond ? `; peak beyond capacity ${rss.peakBeyond}, after it ${rss.afterBeyond}` : "") +
        `, ${settle} s later ${rss.settled}`,
    );
    console.log(
      `shed by the server (mochi_overload_shed_total): main run ${server_.shedMain}` +
        (beyond ? `, beyond capacity ${server_.shedBeyond}` : ""),
    );
    console.log(
      `load average (1, 5, 15 min): before ${load.before.join(", ")}; after the main run ${load.afterMain.join(", ")}` +
        (beyond ? `; after the run beyond capacity ${load.afterBeyond.join(", ")}` : "") +
        `; at the end ${load.end.join(", ")}`,
    );

    const results = {
      date: new Date().toISOString(),
      machine,
      loadAverage: load,
      config: {
        connections,
        seconds,
        warmup,
        settle,
        beyondConnections,
        beyondSeconds,
        timeout,
        overloadLagMs: process.env.OVERLOAD_LAG_MS ?? "default",
        mix,
      },
      main,
      beyond,
      rssMiB: rss,
      server: server_,
    };
    const outDir = path.join(root, "bench/results/load");
    mkdirSync(outDir, { recursive: true });
    const outFile = path.join(outDir, "latest.json");
    writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nresults: ${path.relative(root, outFile)}`);
  } finally {
    await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runLoadBench();
