import { existsSync, readFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type AppOptions, createApp } from "../../server/app";
import { type AppConfig, loadConfig } from "../../server/config";
import type { DevOutbox } from "../../api/providers/messages";
import { openServices } from "../../server/services";
import { sql } from "kysely";
import { type Database, openDatabase } from "../../api/db/database";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { seedCatalogue } from "../../api/seed/catalogue";
import { seedCommerce } from "../../api/seed/commerce";
import { testDatabase } from "../db";

export const distDir = path.resolve(process.env.DIST_DIR ?? "dist");
export const clientDir = path.join(distDir, "client");

/**
 * The app as tests use it: built client assets, fixtures on, silent logs, marked ready.
 * `seed.catalogue` adds the demo catalogue (about 0.4 s) for tests that browse it.
 */
export async function testApp(
  overrides: Partial<AppConfig> = {},
  options: AppOptions = {},
  env: NodeJS.ProcessEnv = {},
  seed: { catalogue?: boolean; now?: Date } = {},
) {
  if (!existsSync(path.join(clientDir, ".vite/manifest.json"))) {
    throw new Error("No client build: run `npm run build` before the integration tests (npm test does).");
  }
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent", TEST_FIXTURES: "1", DATA_DIR: "test-results/data", ...env },
    { clientDir, ...overrides },
  );
  const logger = pino({ level: "silent" });
  const handle = config.apiOrigin ? null : await testDatabase();
  const services = handle ? await openServices(config, logger, handle.database) : undefined;
  if (services && seed.catalogue) {
    await seedCatalogue(services.database, seed.now ?? new Date());
    await seedCommerce(services.database);
  }
  const created = await createApp(config, { logger, services, ...options });
  created.readiness.markReady();
  return { ...created, services, dispose: async () => handle?.dispose() };
}

/**
 * For a test file: its app (`testApp` with these arguments) made before its tests and disposed
 * after them, and the API's clock put back to the real one before each test.
 */
export function testAppPerFile(...args: Parameters<typeof testApp>) {
  const file = {} as { h: Awaited<ReturnType<typeof testApp>>; realNow: () => Date };
  beforeAll(async () => {
    file.h = await testApp(...args);
    file.realNow = file.h.services!.api.now;
  });
  afterAll(() => file.h.dispose());
  beforeEach(() => {
    file.h.services!.api.now = file.realNow;
  });
  return file;
}

/**
 * Serves a test app on a free loopback port, for clients that need a real socket (streams). Idle
 * keep-alive sockets are left for the client to close (fetch drops them after 4 s): when a test
 * blocks this process for seconds (seeding images), a server-side 5 s timeout could otherwise
 * close a socket just as fetch reuses it, a reset no real browser-to-site path would see.
 */
export function listen(app: RequestListener): Promise<{ server: Server; base: string }> {
  return new Promise((resolve) => {
    const server = createServer({ keepAliveTimeout: 120_000 }, app).listen(0, "127.0.0.1", () => {
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

/**
 * For a test file: the app on the demo catalogue (with `env`) served on a real socket, so concurrent
 * calls use separate pooled connections on PostgreSQL, the API's clock put back before each test,
 * and new users with a session. `serve: "handler"` serves the page cache's front too.
 */
export function demoAppOnSocket(phonePrefix: string, env: NodeJS.ProcessEnv = {}, serve: "app" | "handler" = "app") {
  let h: Awaited<ReturnType<typeof testApp>>;
  let server: Server;
  let base: string;
  let realNow: () => Date;
  let seq = 0;

  beforeAll(async () => {
    h = await testApp({}, {}, env, { catalogue: true });
    realNow = h.services!.api.now;
    ({ server, base } = await listen(h[serve]));
  });
  afterAll(async () => {
    await closeServer(server);
    await h.dispose();
  });
  beforeEach(() => {
    h.services!.api.now = realNow;
  });

  const api = () => h.services!.api;
  const db = () => api().database.db;

  /**
   * A new user named `nickname` and a number, with a session that counts as stepped up (as after a
   * password login) unless `steppedUp` is false.
   */
  async function userWithSession(
    role: "learner" | "teacher" | "operator",
    nickname: string,
    steppedUp: boolean,
  ): Promise<{ id: number; cookie: string; nickname: string }> {
    seq += 1;
    const phone = `${phonePrefix}${String(10_000_000 + seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`;
    const user = await db()
      .insertInto("users")
      .values({ phone, nickname: `${nickname}${seq}`, role })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(
      api().database,
      user.id,
      { userAgent: "vitest", ip: "127.0.0.1", steppedUp },
      api().now(),
    );
    return {
      id: user.id,
      nickname: `${nickname}${seq}`,
      cookie: `${sessionCookieName(api().settings.cookies)}=${token}`,
    };
  }

  return { app: () => h, api, db, base: () => base, realNow: () => realNow(), userWithSession };
}

/**
 * A JSON call to `base` as `who` (its session cookie; none for null), with the site's Origin on
 * writes. A Buffer body is sent as it is. The body answered is parsed when it is JSON.
 */
export async function jsonCall(
  base: string,
  who: { cookie: string } | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
): Promise<{ status: number; body: any; headers: Headers }> {
  const sent: Record<string, string> = { Accept: "application/json", ...headers };
  if (who) sent.Cookie = who.cookie;
  if (method !== "GET") sent.Origin = "http://localhost:3000";
  let payload: BodyInit | undefined;
  if (Buffer.isBuffer(body)) payload = new Uint8Array(body);
  else if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${base}${path}`, { method, headers: sent, body: payload, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** A loopback port free at this moment, for a child process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A logger at level info whose JSON lines the test reads back from `lines`. */
export function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n"))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), lines };
}

/** The first port of the system's ephemeral range, the ports `listen(0)` hands out. */
function ephemeralLow(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });

/**
 * A loopback port nobody listens on: connecting is refused at once, and a server started on it
 * finds it free (a port picked at random can be a local service's: 3306, 5432 and 5672 are taken
 * on the test machines). It lies below the ephemeral range on purpose. A port freed inside that
 * range can be handed to the next `listen(0)`, such as the one supertest opens for each request,
 * and a proxy pointed at it would then reach the app itself: its own request loops back until the
 * headers are too large (431), not a 502.
 */
export async function closedPort(): Promise<number> {
  for (let port = ephemeralLow() - 1 - Math.floor(Math.random() * 1000); port > 1024; port -= 1)
    if (await canListen(port)) return port;
  throw new Error("no free port below the ephemeral range");
}

/** Closes a server from `listen`, open streams included. */
export const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The six-digit code of the newest message to `target` in the development outbox. */
export function lastCodeFor(outbox: DevOutbox | null, target: string): string {
  const message = outbox?.list().find((m) => m.to === target);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  if (!code) throw new Error(`no code sent to ${target}`);
  return code;
}

/** The session cookie (`sid=…`) a login answer sets, as a Cookie header value. */
export function sessionCookie(res: { headers: Record<string, unknown> }): string {
  const raw = ([] as string[])
    .concat((res.headers["set-cookie"] as string[] | undefined) ?? [])
    .find((c) => c.startsWith("sid="));
  if (!raw) throw new Error("no session cookie");
  return raw.split(";")[0]!;
}

export const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
export const GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const IE11_UA = "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko";

/**
 * Another web node on the same database as `first`: on PostgreSQL its own connection pool and
 * LISTEN connection to the same schema (so NOTIFY really crosses connections); on PGlite, which
 * one process owns, the same database object. Dispose it before `first`.
 */
export async function testAppOnSameDatabase(
  first: Awaited<ReturnType<typeof testApp>>,
  overrides: Partial<AppConfig> = {},
  env: NodeJS.ProcessEnv = {},
) {
  if (!first.services) throw new Error("the first app has no in-process services");
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent", TEST_FIXTURES: "1", DATA_DIR: "test-results/data", ...env },
    { clientDir, ...overrides },
  );
  const logger = pino({ level: "silent" });
  let database = first.services.database;
  let dispose = async () => {};
  const url = process.env.TEST_DATABASE_URL;
  if (database.kind === "postgres" && url) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    database = await openDatabase({ url, schema: rows[0]?.schema, poolSize: 5 });
    const own = database;
    dispose = () => own.close();
  }
  const services = await openServices(config, logger, database);
  const created = await createApp(config, { logger, services });
  created.readiness.markReady();
  return { ...created, services, dispose };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
type JsonBody = any;

/**
 * A browser against a listening test server: keeps cookies (all paths alike), sends the
 * site's Origin on state-changing calls and JSON bodies, never follows redirects.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly base: string,
    readonly userAgent = BROWSER_UA,
    readonly origin = "http://localhost:3000",
  ) {}

  async fetch(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const method = init.method ?? "GET";
    const headers: Record<string, string> = { "User-Agent": this.userAgent, Accept: "application/json" };
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (method !== "GET" && method !== "HEAD") headers.Origin = this.origin;
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...headers, ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
      signal: init.signal,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /expires=thu, 01 jan 1970/i.test(line) || /max-age=0(;|$)/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** A JSON call: status, parsed body and headers. */
  async json(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: JsonBody; headers: Headers }> {
    const res = await this.fetch(path, { method, body, headers });
    const text = await res.text();
    let parsed: JsonBody = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
}

let probes = 0;

/**
 * Resolves once every notification sent before the call has reached this database's listeners:
 * notifications arrive in commit order (at once on PGlite, through the LISTEN connection on
 * PostgreSQL), so a probe of our own sent now arrives after them.
 */
export async function notificationsDelivered(database: Database, channel = "test_delivery_probe"): Promise<void> {
  const mark = `probe-${process.pid}-${++probes}`;
  let timer: NodeJS.Timeout | undefined;
  let unlisten = async () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`notification ${mark} never arrived`)), 10_000);
      database
        .listen(channel, (payload) => {
          if (payload === mark) resolve();
        })
        .then((stop) => {
          unlisten = stop;
          return database.notify(channel, mark);
        })
        .catch(reject);
    });
  } finally {
    clearTimeout(timer);
    await unlisten();
  }
}
