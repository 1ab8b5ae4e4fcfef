/**
 * The built server and commands as a production site runs them (NODE_ENV=production, so the `pro`
 * environment, on the embedded database in a fresh DATA_DIR): no demo accounts or catalogue,
 * buying off without a payment provider, unsafe settings refused with one line, DEMO_DATA, and
 * the first operator made by `cli.js user:create` (who must set a password, then turn on
 * two-factor login; `cli.js user:reset-2fa` turns it off when the phone is lost).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../api/db/database";
import { BROWSER_UA, closedPort } from "./helpers";

const dist = process.env.DIST_DIR ?? "dist";
const mainEntry = path.resolve(dist, "server/main.js");
const cliEntry = path.resolve(dist, "server/cli.js");
const tmp = mkdtempSync(path.join(tmpdir(), "mochi-pro-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Only what a container would have: no inherited DATABASE_URL, TEST_FIXTURES or DEPLOY_ENV. Load
 * shedding is off (OVERLOAD_LAG_MS=0): test machines are busy, and overload.test.ts covers it.
 */
function proEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    OVERLOAD_LAG_MS: "0",
    ...extra,
  };
}

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

function run(entry: string, args: string[], env: NodeJS.ProcessEnv) {
  if (!existsSync(entry)) throw new Error("No server build: run `npm run build` first.");
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const c = spawn(process.execPath, [entry, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    c.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => c.kill("SIGKILL"), 60_000);
    c.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function start(dataDir: string, extra: Record<string, string> = {}) {
  if (!existsSync(mainEntry)) throw new Error("No server build: run `npm run build` first.");
  const port = await closedPort();
  const c = spawn(process.execPath, [mainEntry], {
    env: proEnv(dataDir, { PORT: String(port), ...extra }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = c;
  let output = "";
  await new Promise<void>((resolve, reject) => {
    c.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      if (output.includes("listening")) resolve();
    });
    c.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    c.once("exit", (code) => reject(new Error(`server exited early (${code}):\n${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const origin = `http://localhost:${port}`;
  const stop = async () => {
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await exited;
  };
  return { base, origin, stop, output: () => output };
}

async function login(s: { base: string; origin: string }, email: string, password: string) {
  const res = await fetch(`${s.base}/api/auth/email/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: s.origin, "User-Agent": BROWSER_UA },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { status: res.status, cookie };
}

async function counts(dataDir: string) {
  const database = await openDatabase({ dataDir });
  try {
    const n = async (table: "users" | "courses" | "books") =>
      Number(
        (
          await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { users: await n("users"), courses: await n("courses"), books: await n("books") };
  } finally {
    await database.close();
  }
}

describe("a pro start", () => {
  const dataDir = path.join(tmp, "empty");

  // No PUBLIC_ORIGIN, like the README's `docker run`: it starts on the documented default.
  it("on an empty data directory has no accounts, an empty catalogue, and buying off", async () => {
    const s = await start(dataDir);
    expect(s.output()).toMatch(/buying is switched off.*PAYMENT_PROVIDER.*WECHATPAY_\*.*ALIPAY_\*/);
    expect((await login(s, "operator@mochi.local", "Mochi-operator-2026")).status).toBe(400); // 邮箱或密码错误
    const list = await (await fetch(`${s.base}/api/courses`)).json();
    expect(list.items).toEqual([]);
    expect(await (await fetch(`${s.base}/api/payments/methods`)).json()).toEqual({ methods: [] });
    const approve = await fetch(`${s.base}/api/payments/sandbox/checkout/any/approve`, {
      method: "POST",
      headers: { Origin: s.origin },
    });
    expect(approve.status).toBe(404);
    const home = await fetch(`${s.base}/`, { headers: { "User-Agent": BROWSER_UA } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('"payments":"off"');
    await s.stop();
    expect(await counts(dataDir)).toEqual({ users: 0, courses: 0, books: 0 });
  }, 120_000);

  it("refuses demo data from db:seed, and user:create makes an operator who must change the password", async () => {
    const seed = await run(cliEntry, ["seed"], proEnv(dataDir));
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(/DEMO_DATA=1/);

    const created = await run(
      cliEntry,
      ["user:create", "--role", "operator", "--email", "boss@example.cn", "--phone", "13900139000"],
      proEnv(dataDir),
    );
    expect(created.code, created.stderr).toBe(0);
    const password = /one-time password \(shown only now\): (\S+)/.exec(created.stdout)?.[1] ?? "";
    expect(password).toMatch(/^[A-Za-z\d]{20}$/);

    const granted = await run(
      cliEntry,
      ["user:role", "--revoke", "operator", "--phone", "13900139000"],
      proEnv(dataDir),
    );
    expect(granted.stdout).toMatch(/role operator → learner/);
    const back = await run(
      cliEntry,
      ["user:role", "--grant", "operator", "--email", "boss@example.cn"],
      proEnv(dataDir),
    );
    expect(back.stdout).toMatch(/role learner → operator/);
    const bad = await run(cliEntry, ["user:role", "--grant", "admin", "--email", "boss@example.cn"], proEnv(dataDir));
    expect(bad.code).toBe(1);
    expect(await counts(dataDir)).toEqual({ users: 1, courses: 0, books: 0 });

    const s = await start(dataDir);
    const session = await login(s, "boss@example.cn", password);
    expect(session.status).toBe(200);
    const returns = await fetch(`${s.base}/api/admin/orders/returns`, { headers: { Cookie: session.cookie } });
    expect(returns.status).toBe(403);
    expect((await returns.json()).error.code).toBe("password_change_required");
    const change = await fetch(`${s.base}/api/me/password`, {
      method: "POST",
      headers: { Cookie: session.cookie, Origin: s.origin, "Content-Type": "application/json" },
      body: JSON.stringify({ current: password, password: "Chosen-by-boss-2026" }),
    });
    expect(change.status).toBe(200);
    // An operator of the pro site turns on two-factor login next, before anything else.
    const send = (path: string, body: unknown) =>
      fetch(`${s.base}${path}`, {
        method: "POST",
        headers: { Cookie: session.cookie, Origin: s.origin, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const desk = () => fetch(`${s.base}/api/admin/orders/returns`, { headers: { Cookie: session.cookie } });
    const refused = await desk();
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("two_factor_required");
    const setup = (await (await send("/api/me/two-factor/setup", {})).json()) as { secret: string };
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.secret) });
    expect((await send("/api/me/two-factor/enable", { code })).status).toBe(200);
    expect((await desk()).status).toBe(200);
    const twoStep = await fetch(`${s.base}/api/auth/email/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: s.origin, "User-Agent": BROWSER_UA },
      body: JSON.stringify({ email: "boss@example.cn", password: "Chosen-by-boss-2026" }),
    });
    expect(await twoStep.json()).toEqual({ status: "two_factor" });
    await s.stop();

    // The phone is lost and no other operator can reset it: the command does.
    const reset = await run(cliEntry, ["user:reset-2fa", "--email", "boss@example.cn"], proEnv(dataDir));
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/two-factor login turned off/);
    const again = await start(dataDir);
    const fresh = await login(again, "boss@example.cn", "Chosen-by-boss-2026");
    expect(fresh.status).toBe(200);
    const gated = await fetch(`${again.base}/api/admin/orders/returns`, { headers: { Cookie: fresh.cookie } });
    expect((await gated.json()).error.code).toBe("two_factor_required");
    await again.stop();
  }, 240_000);

  it("with DEMO_DATA=1 creates the demo accounts and catalogue, and says so loudly", async () => {
    const demoDir = path.join(tmp, "demo");
    const s = await start(demoDir, { DEMO_DATA: "1", PAYMENT_SANDBOX_ALLOW: "1" });
    expect(s.output()).toMatch(/DEMO_DATA is on in the pro environment/);
    expect(s.output()).toMatch(/built-in sandbox/);
    expect((await login(s, "operator@mochi.local", "Mochi-operator-2026")).status).toBe(200);
    const course = await fetch(`${s.base}/api/courses`);
    expect((await course.json()).items.length).toBeGreaterThan(0);
    // The demo data was written by a short-lived process of its own (its memory gone with it).
    expect(s.output()).toMatch(/first start: creating the embedded database with the demo data/);
    expect(s.output()).toMatch(/first start: demo catalogue created/);
    // The build's migrated cluster was unpacked, not made again by initdb.
    expect(s.output()).toMatch(/new embedded database: unpacked from the build's migrated cluster/);
    await s.stop();
    // Started again on the same folder: nothing is created twice, the data is there.
    const again = await start(demoDir, { DEMO_DATA: "1", PAYMENT_SANDBOX_ALLOW: "1" });
    expect(again.output()).not.toMatch(/first start/);
    expect((await login(again, "operator@mochi.local", "Mochi-operator-2026")).status).toBe(200);
    await again.stop();
  }, 120_000);
});

describe("unsafe settings stop a pro start with a one-line reason", () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ["an http public origin", { PUBLIC_ORIGIN: "http://www.example.cn" }, /PUBLIC_ORIGIN must be https/],
    ["a weak sandbox secret", { PAYMENT_SANDBOX_SECRET: "changeme".repeat(5) }, /PAYMENT_SANDBOX_SECRET/],
    ["the sandbox without its allow variable", { PAYMENT_PROVIDER: "sandbox" }, /PAYMENT_SANDBOX_ALLOW=1/],
    ["test fixtures", { TEST_FIXTURES: "1" }, /TEST_FIXTURES/],
  ];
  it.each(cases)(
    "%s",
    async (_name, extra, reason) => {
      const result = await run(mainEntry, [], proEnv(path.join(tmp, "refused"), { PORT: "0", ...extra }));
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(reason);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).not.toContain("listening");
    },
    60_000,
  );
});
