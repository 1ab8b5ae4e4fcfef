// The production server as the benchmark scripts start it: a child process on 127.0.0.1 with its
// own data directory, timed until /readyz answers 200, and stopped with SIGTERM (SIGKILL after 20 s).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = http.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The environment of a production server on 127.0.0.1:`port` with its own data directory, no test fixtures. */
export function serverEnv({ port, dataDir }) {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    TEST_FIXTURES: "",
  };
}

/**
 * Starts dist/server/main.js (NODE_ENV=production, LOG_LEVEL=warn) with `env` on top and waits
 * for /readyz 200. `readyMs`: from spawn to the first 200. The demo data exist only outside `pro`:
 * DEPLOY_ENV defaults to `local` here, as `npm start` runs it.
 */
export async function startServer({ dataDir, env = {}, timeoutMs = 60_000 }) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "dist/server/main.js")], {
    cwd: root,
    env: { ...serverEnv({ port, dataDir }), DEPLOY_ENV: "local", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitUntilReady(
      () => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200),
      child,
      "server",
      {
        timeoutMs,
        intervalMs: 25,
      },
    );
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  return { child, port, origin: `http://127.0.0.1:${port}`, readyMs: performance.now() - started };
}

/**
 * Asks `answers()` every `intervalMs` until it resolves true (a rejection counts as "not listening
 * yet"); fails when `child` exits first or `timeoutMs` passes.
 */
export async function waitUntilReady(answers, child, label, { timeoutMs = 60_000, intervalMs = 200 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}) before it answered`);
    if (await answers().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${label} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function stopServer(child) {
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

/** Signs a demo account (`learner`, `teacher`, `admin`…) in by email; its session cookie as one header value. */
export async function signIn(origin, account, headers = {}) {
  const res = await fetch(`${origin}/api/auth/email/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, ...headers },
    body: JSON.stringify({ email: `${account}@mochi.local`, password: `Mochi-${account}-2026` }),
  });
  if (!res.ok) throw new Error(`${account} could not sign in: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Resident set size (VmRSS) and its peak (VmHWM) of a process, in bytes (Linux /proc). */
export function residentMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, ri) => {
    const line = `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
    return ri === 0 ? `${line}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|` : line;
  });
}

/** A whole number from the environment, or the fallback; anything else stops the run (exit 2). */
export function envInt(name, fallback, { allowZero = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) {
    console.error(`${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got "${raw}"`);
    process.exit(2);
  }
  return n;
}
