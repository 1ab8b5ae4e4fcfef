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
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEPLOY_ENV: "local",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
      TEST_FIXTURES: "",
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before /readyz answered`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not answer /readyz within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { child, port, origin: `http://127.0.0.1:${port}`, readyMs: performance.now() - started };
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
