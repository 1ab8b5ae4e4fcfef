/**
 * Two built servers on one PostgreSQL behind a small round-robin proxy, as compose.yaml runs
 * them behind nginx: a session made on one node works on the other, live chat crosses nodes,
 * the periodic jobs do their work once between both, SIGTERM to one node under load loses
 * no request (the proxy retries a refused connection on the other node, as nginx's
 * proxy_next_upstream does), and a node killed halfway through an idempotent request leaves its
 * key to the retry on another node once its lease has run out.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/database";
import { migrate } from "../../api/db/migrate";
import { seedCatalogue } from "../../api/seed/catalogue";
import { IDEMPOTENCY_LEASE_MS } from "../../api/idempotency";
import { applyLedgerChange } from "../../api/modules/wallet/ledger";
import { BROWSER_UA, TestBrowser, distDir, freePort } from "./helpers";
import { readEventStream } from "./sse";

const baseUrl = process.env.TEST_DATABASE_URL;
const entry = path.join(distDir, "server/main.js");
const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------
// A node of the built server

interface Node {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${name} did not listen within 45 s:\n${output}`)), 45_000);
    const collect = (d: Buffer) => {
      output += d.toString();
      if (output.includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node ${name} exited (${code}) before listening:\n${output}`));
    });
  });
  return { name, port, base: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}

// ---------------------------------------------------------------------------------------------
// The proxy: round robin; a refused connection, or an idempotent request that failed or met a
// 502/503, goes to the next node (nginx: proxy_next_upstream error timeout http_502 http_503).

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"]);
const withoutHopByHop = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));

function startProxy() {
  const targets: number[] = [];
  const answeredBy = new Map<number, number>();
  let retries = 0;
  let turn = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const idempotent = req.method === "GET" || req.method === "HEAD";
      const first = turn++;
      const attempt = (tries: number) => {
        const port = targets[(first + tries) % targets.length]!;
        const lastTry = tries + 1 >= targets.length;
        const upstream = request(
          {
            host: "127.0.0.1",
            port,
            method: req.method,
            path: req.url,
            agent: false,
            headers: {
              ...withoutHopByHop(req.headers),
              "x-forwarded-for": req.socket.remoteAddress ?? "127.0.0.1",
              "x-forwarded-proto": "http",
            },
          },
          (answer) => {
            const status = answer.statusCode ?? 502;
            if (idempotent && !lastTry && (status === 502 || status === 503)) {
              answer.resume();
              retries++;
              attempt(tries + 1);
              return;
            }
            answeredBy.set(port, (answeredBy.get(port) ?? 0) + 1);
            res.writeHead(status, withoutHopByHop(answer.headers));
            answer.pipe(res);
          },
        );
        upstream.on("error", (err: NodeJS.ErrnoException) => {
          if (res.headersSent) return void res.destroy();
          if (!lastTry && (err.code === "ECONNREFUSED" || idempotent)) {
            retries++;
            attempt(tries + 1);
            return;
          }
          res.writeHead(502).end();
        });
        res.on("close", () => upstream.destroy());
        upstream.end(body);
      };
      attempt(0);
    });
  });
  return {
    server,
    targets,
    answeredBy,
    retries: () => retries,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
  };
}

// ---------------------------------------------------------------------------------------------

describe.skipIf(!baseUrl)("two web nodes on one PostgreSQL behind a proxy (needs TEST_DATABASE_URL)", () => {
  const dbName = `mochi_multinode_${randomBytes(5).toString("hex")}`;
  const dataRoot = path.resolve(`test-results/${dbName}`);
  const proxy = startProxy();
  let proxyBase = "";
  let database: Database;
  let dbUrl = "";
  let a: Node;
  let b: Node;
  let nodeEnv: (name: string) => Record<string, string>;
  /** Started by a test of its own (killed with SIGKILL there). */
  let c: Node | undefined;
  let liveId: number;
  let courseId: number;
  const order = { id: 0, bookId: 0, stockBefore: 0, quantity: 2 };

  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    if (!existsSync(entry)) throw new Error(`No server build at ${entry}: run \`npx vite build --app\` first.`);
    await admin(`create database ${dbName}`);
    const url = new URL(baseUrl!);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    // Migrated and seeded before the nodes start, so both start on the same catalogue.
    database = await openDatabase({ url: dbUrl, poolSize: 3 });
    await migrate(database);
    const now = new Date();
    await seedCatalogue(database, now);
    const { db } = database;
    const course = await db.selectFrom("courses").select(["id", "teacher_id"]).orderBy("id").executeTakeFirstOrThrow();
    courseId = course.id;
    liveId = (
      await db
        .insertInto("live_sessions")
        .values({
          course_id: course.id,
          teacher_id: course.teacher_id,
          title: "多节点直播 · 点画",
          cover_char: "点",
          starts_at: new Date(now.getTime() - 5 * MINUTE),
          ends_at: new Date(now.getTime() + 2 * 60 * MINUTE),
          state: "live",
          stream_key: "test-stream",
          recording_video_key: "yong",
          chapter_marks: "[]",
          is_open: false,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;

    // An unpaid order past its time (two books held from the stock), for the order job to close.
    const book = await db
      .selectFrom("books")
      .select(["id", "title", "price_cents", "stock"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const buyer = await db
      .insertInto("users")
      .values({ phone: "13700000001", nickname: "多节点买家" })
      .returning("id")
      .executeTakeFirstOrThrow();
    order.bookId = book.id;
    order.stockBefore = book.stock;
    order.id = (
      await db
        .insertInto("orders")
        .values({
          order_no: `M${Date.now()}01`,
          user_id: buyer.id,
          item_type: "book",
          item_id: book.id,
          quantity: order.quantity,
          title: book.title,
          unit_price_cents: book.price_cents,
          total_cents: book.price_cents * order.quantity,
          pay_cents: book.price_cents * order.quantity,
          physical: true,
          expires_at: new Date(now.getTime() - MINUTE),
          created_at: new Date(now.getTime() - 31 * MINUTE),
          updated_at: new Date(now.getTime() - 31 * MINUTE),
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;

    proxyBase = await proxy.listen();
    mkdirSync(dataRoot, { recursive: true });
    const env = (name: string) => ({
      NODE_ENV: "production",
      DEPLOY_ENV: "test",
      DATABASE_URL: dbUrl,
      DATA_DIR: path.join(dataRoot, name),
      PUBLIC_ORIGIN: proxyBase,
      TRUST_PROXY_HOPS: "1",
      DRAIN_DELAY_MS: "1000",
      SHUTDOWN_TIMEOUT_MS: "10000",
      LOG_LEVEL: "info",
      PAYMENT_SANDBOX_SECRET: "multinode-test-sandbox-secret-0123456789",
    });
    nodeEnv = env;
    [a, b] = await Promise.all([startNode("A", env("a")), startNode("B", env("b"))]);
    proxy.targets.push(a.port, b.port);
  }, 120_000);

  afterAll(async () => {
    for (const node of [a, b, c]) {
      if (node && node.child.exitCode === null && node.child.signalCode === null) {
        node.child.kill("SIGKILL");
        await node.exited;
      }
    }
    await new Promise<void>((resolve) => {
      proxy.server.closeAllConnections();
      proxy.server.close(() => resolve());
    });
    await database?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
    rmSync(dataRoot, { recursive: true, force: true });
  }, 30_000);

  /** A learner signed in by phone and SMS code on a node (the code read from that node's outbox page). */
  async function signInOn(node: Node, phone: string) {
    const browser = new TestBrowser(node.base, BROWSER_UA, proxyBase);
    expect((await browser.json("POST", "/api/auth/sms/send", { phone })).status).toBe(200);
    const outbox = await (await fetch(`${node.base}/dev/outbox?to=${phone}`)).text();
    const code = /<td class="text">[^<]*?\b(\d{6})\b/.exec(outbox)?.[1];
    expect(code, `a login code for ${phone} in ${node.name}'s outbox`).toBeTruthy();
    const login = await browser.json("POST", "/api/auth/sms/login", { phone, code });
    expect(login.status).toBe(200);
    return browser;
  }
  const signInOnA = (phone: string) => signInOn(a, phone);

  /** The same visitor (cookies) talking to another address. */
  const sameVisitorOn = (browser: TestBrowser, base: string) => {
    const other = new TestBrowser(base, BROWSER_UA, proxyBase);
    for (const [k, v] of browser.cookies) other.cookies.set(k, v);
    return other;
  };

  let learnerOnA: TestBrowser;
  const phone = "13600002026";

  it("a session made on node A signs the visitor in on node B and through the proxy", async () => {
    learnerOnA = await signInOnA(phone);
    const onA = await learnerOnA.json("GET", "/api/auth/me");
    expect(onA.body.viewer?.nickname).toBeTruthy();
    const onB = sameVisitorOn(learnerOnA, b.base);
    const viewerOnB = (await onB.json("GET", "/api/auth/me")).body.viewer;
    expect(viewerOnB).toEqual(onA.body.viewer);
    // A signed-in page on B renders instead of sending the visitor to the login dialog.
    const page = await onB.fetch("/my", { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    await page.text();
    // And whichever node the proxy picks.
    const viaProxy = sameVisitorOn(learnerOnA, proxyBase);
    for (let i = 0; i < 4; i++) expect((await viaProxy.json("GET", "/api/auth/me")).body.viewer).toEqual(viewerOnB);
    expect(proxy.answeredBy.get(a.port)).toBeGreaterThan(0);
    expect(proxy.answeredBy.get(b.port)).toBeGreaterThan(0);
  });

  it("a chat message posted on node A reaches a live-room stream opened on node B", async () => {
    const user = await database.db
      .selectFrom("users")
      .select("id")
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto("enrolments")
      .values({ user_id: user.id, course_id: courseId, source: "admin" })
      .execute();
    const stream = await readEventStream(sameVisitorOn(learnerOnA, b.base), `/api/live/${liveId}/events`);
    try {
      expect(stream.res.status).toBe(200);
      await stream.until(() => stream.events.some((e) => e.event === "online"), "the room's online count on B");
      const posted = await learnerOnA.json("POST", `/api/live/${liveId}/messages`, { body: "A 节点写的一句话" });
      expect(posted.status).toBe(201);
      await stream.until(
        () => stream.events.some((e) => e.event === "chat" && (e.data as { body: string }).body === "A 节点写的一句话"),
        "the chat message from A on B's stream",
        10_000,
      );
    } finally {
      await stream.close();
    }
  });

  it("the order job closes an expired order once between both nodes, and job_runs has one row per period", async () => {
    const { db } = database;
    // Both nodes run the order job every 30 s from their start; wait for the first run.
    const deadline = Date.now() + 45_000;
    let state = "pending";
    while (state === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      state = (await db.selectFrom("orders").select("state").where("id", "=", order.id).executeTakeFirstOrThrow())
        .state;
    }
    expect(state, "the expired order was closed within 45 s").toBe("cancelled");
    // Give the slower node's run of the same period time to finish, then check the work was done once.
    await new Promise((r) => setTimeout(r, 2000));
    const stock = await db.selectFrom("books").select("stock").where("id", "=", order.bookId).executeTakeFirstOrThrow();
    expect(stock.stock, "the held books went back to the stock exactly once").toBe(order.stockBefore + order.quantity);

    // The job registry's record (job_runs: job, period_start, node, started_at, finished_at, ok, error).
    const table = await sql<{ name: string | null }>`select to_regclass('job_runs')::text as name`.execute(db);
    expect(table.rows[0]?.name, "a job_runs table (the job registry records every run)").toBe("job_runs");
    const runs = await sql<{
      job: string;
      period_start: Date;
      node: string;
      ok: boolean | null;
    }>`select job, period_start, node, ok from job_runs order by period_start`.execute(db);
    const orderRuns = runs.rows.filter((r) => /order/i.test(r.job));
    expect(orderRuns.length, "the order job's runs").toBeGreaterThanOrEqual(1);
    const perPeriod = new Map<string, number>();
    for (const r of runs.rows) {
      const key = `${r.job} ${new Date(r.period_start).toISOString()}`;
      perPeriod.set(key, (perPeriod.get(key) ?? 0) + 1);
    }
    expect(
      [...perPeriod].filter(([, n]) => n > 1),
      "one run per job and period",
    ).toEqual([]);
    for (const r of orderRuns) expect(r.node).toBeTruthy();
    expect(orderRuns.some((r) => r.ok === true)).toBe(true);
  }, 60_000);

  it("SIGTERM to node A under load loses no request: B serves, A drains and exits 0", async () => {
    const paths = ["/", "/about", "/books", "/api/live?tab=live", "/api/auth/me", "/healthz"];
    const outcomes: { path: string; status: number | string }[] = [];
    const startedAt = Date.now();
    const loadMs = 4000;
    let aExit: number | null | "timeout" = "timeout";
    let answeredByAAtTerm = 0;
    const client = async (n: number) => {
      let i = n;
      // At least `loadMs`, and on until A has refused a connection the proxy moved to B (A closes its
      // listener after its drain delay, which a busy machine can push past `loadMs`).
      const loading = () =>
        Date.now() - startedAt < loadMs || (proxy.retries() === 0 && Date.now() - startedAt < 15_000);
      while (loading() && outcomes.length < 4000) {
        const p = paths[i++ % paths.length]!;
        try {
          const res = await fetch(`${proxyBase}${p}`, {
            headers: { "User-Agent": BROWSER_UA },
            redirect: "manual",
            signal: AbortSignal.timeout(15_000),
          });
          await res.arrayBuffer();
          outcomes.push({ path: p, status: res.status });
        } catch (err) {
          outcomes.push({ path: p, status: String((err as Error).cause ?? err) });
        }
      }
    };
    const term = (async () => {
      await new Promise((r) => setTimeout(r, 1200));
      answeredByAAtTerm = proxy.answeredBy.get(a.port) ?? 0;
      a.child.kill("SIGTERM");
      aExit = await Promise.race([a.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 20_000))]);
    })();
    await Promise.all([client(0), client(1), client(2), client(3)]);
    await term;

    const failed = outcomes.filter((o) => typeof o.status !== "number" || o.status >= 400);
    expect(outcomes.length).toBeGreaterThan(8);
    expect(failed, `requests that failed (of ${outcomes.length}); A's log:\n${a.output().slice(-3000)}`).toEqual([]);
    expect(answeredByAAtTerm, "A served part of the load before SIGTERM").toBeGreaterThan(0);
    // A stopped accepting while the load ran: those requests were refused by A and served by B.
    expect(proxy.retries(), "requests the proxy moved from A to B").toBeGreaterThan(0);
    expect(aExit, `A's exit code; its log:\n${a.output().slice(-3000)}`).toBe(0);
    // B is still serving once A has gone.
    expect((await fetch(`${proxyBase}/healthz`)).status).toBe(200);
  }, 60_000);
  it("a node killed with SIGKILL halfway through an exchange: the retry with its key on B runs it once its lease ran out, exactly once", async () => {
    c = await startNode("C", nodeEnv("c"));
    const learner = await signInOn(c, "13600002027");
    const { db } = database;
    const user = await db.selectFrom("users").select("id").where("phone", "=", "13600002027").executeTakeFirstOrThrow();
    await db.transaction().execute((trx) =>
      applyLedgerChange(trx, {
        userId: user.id,
        currency: "coin",
        amount: 500,
        reason: "grant",
        idempotencyKey: "mn",
      }),
    );

    // Hold the learner's coin wallet, so C's exchange stops halfway: key claimed, work waiting on the lock.
    const holder = new pg.Client({ connectionString: dbUrl });
    await holder.connect();
    await holder.query("begin");
    await holder.query("select balance from wallets where user_id = $1 and currency = 'coin' for update", [user.id]);
    const key = randomUUID();
    const exchange = { bishan: 1 };
    const onC = learner.json("POST", "/api/wallet/exchange", exchange, { "Idempotency-Key": key }).catch((e) => e);
    const deadline = Date.now() + 15_000;
    let waiting = false;
    while (!waiting && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const claim = await db
        .selectFrom("idempotency_keys")
        .select("lease_owner")
        .where("key", "=", key)
        .executeTakeFirst();
      const blocked = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
      waiting = Boolean(claim?.lease_owner) && (blocked.rows[0]?.n ?? 0) > 0;
    }
    expect(waiting, "C claimed the key and waits on the wallet").toBe(true);
    const claimedBy = (
      await db.selectFrom("idempotency_keys").select("lease_owner").where("key", "=", key).executeTakeFirstOrThrow()
    ).lease_owner;
    c.child.kill("SIGKILL");
    await c.exited;
    await onC;
    await holder.query("rollback");
    await holder.end();

    // On B, with C's session and the same key: 409 while C's lease lasts, then the exchange, once.
    const onB = new TestBrowser(b.base, BROWSER_UA, proxyBase);
    for (const [k, v] of learner.cookies) onB.cookies.set(k, v);
    const killedAt = Date.now();
    const answers: number[] = [];
    let done: Awaited<ReturnType<TestBrowser["json"]>> | undefined;
    while (!done && Date.now() - killedAt < IDEMPOTENCY_LEASE_MS + 20_000) {
      const res = await onB.json("POST", "/api/wallet/exchange", exchange, { "Idempotency-Key": key });
      answers.push(res.status);
      if (res.status === 409) {
        expect(res.body.error.code).toBe("idempotency_in_flight");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        await new Promise((r) => setTimeout(r, 2000));
      } else done = res;
    }
    expect(answers[0], "a retry within C's lease is refused").toBe(409);
    expect(done?.status, `answers on B: ${answers.join(", ")}`).toBe(200);
    expect(done?.body.balances).toEqual({ coin: 400, bishan: 1 });
    expect(Date.now() - killedAt).toBeLessThan(IDEMPOTENCY_LEASE_MS + 20_000);

    const again = await onB.json("POST", "/api/wallet/exchange", exchange, { "Idempotency-Key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(done?.body);
    const entries = await db
      .selectFrom("wallet_entries")
      .select(["currency", "reason", "amount"])
      .where("user_id", "=", user.id)
      .where("reason", "in", ["exchange_out", "exchange_in"])
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      { currency: "coin", reason: "exchange_out", amount: -100 },
      { currency: "bishan", reason: "exchange_in", amount: 1 },
    ]);
    const row = await db.selectFrom("idempotency_keys").selectAll().where("key", "=", key).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status_code: 200, lease_owner: null });
    expect(claimedBy, "C's claim named C").toContain(`:${c.child.pid}:`);
  }, 90_000);
});
