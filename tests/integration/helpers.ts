import { existsSync, readFileSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pino from "pino";
import { type AppOptions, createApp } from "../../server/app";
import { type AppConfig, loadConfig } from "../../server/config";
import type { DevOutbox } from "../../api/providers/messages";
import { openServices } from "../../server/services";
import { sql } from "kysely";
import { type Database, openDatabase } from "../../api/db/database";
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
