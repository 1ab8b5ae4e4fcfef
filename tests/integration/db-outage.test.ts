/**
 * The database goes away under a running node: the API says 503 "busy" with Retry-After
 * instead of 500, a signed-in visitor gets a busy page instead of the site as a stranger,
 * the sitemap is served from its last good copy (503 with Retry-After while there is none), and
 * readiness reports the database.
 */
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import pino from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/database";
import type { DB } from "../../api/db/schema";
import { createSession } from "../../api/modules/auth/sessions";
import { type App, createApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import type { Services } from "../../api/index";
import { openServices } from "../../server/services";
import { type TestDatabase, testDatabase } from "../db";
import { BROWSER_UA, clientDir, closedPort } from "./helpers";

let handle: TestDatabase;
let services: Services;
let created: App;
let down = false;
let unreachable: Kysely<DB>;
let session: string;
const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: "test-results/data" }, { clientDir });
const logger = pino({ level: "silent" });

beforeAll(async () => {
  handle = await testDatabase();
  const real = handle.database;
  unreachable = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x`, max: 2 }),
    }),
  });
  // The same database until `down`, then every query meets a refused connection.
  const db = new Proxy(real.db, {
    get(_target, key) {
      const current = down ? unreachable : real.db;
      const value = Reflect.get(current, key, current) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(current) : value;
    },
  });
  const switchable: Database = {
    ...real,
    db,
    ping: () =>
      down
        ? unreachable
            .selectNoFrom((eb) => eb.lit(1).as("x"))
            .execute()
            .then(() => {})
        : real.ping(),
  };
  services = await openServices(config, logger, switchable);
  created = await createApp(config, { logger, services });
  created.readiness.markReady();
  const user = await real.db
    .insertInto("users")
    .values({ phone: "13900003333", nickname: "墨客" })
    .returning("id")
    .executeTakeFirstOrThrow();
  session = await createSession(real, user.id, { userAgent: BROWSER_UA, ip: "127.0.0.1" });
});

afterAll(async () => {
  down = false;
  await unreachable?.destroy();
  await handle?.dispose();
});

const page = (path: string, cookie?: string) => {
  const req = request(created.app).get(path).set("User-Agent", BROWSER_UA).set("Accept", "text/html");
  return cookie ? req.set("Cookie", cookie) : req;
};

describe("while the database is unreachable", () => {
  it("the API answers 503 with Retry-After and a Chinese message, not 500", async () => {
    down = false;
    expect((await request(created.app).get("/api/courses")).status).toBe(200);
    down = true;
    const res = await request(created.app).get("/api/courses");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.body).toEqual({ error: { code: "service_unavailable", message: "服务繁忙，请稍后再试" } });
  });

  it("a signed-in visitor gets a busy page, never the site as if signed out", async () => {
    down = false;
    const before = await page("/", `sid=${session}`);
    expect(before.status).toBe(200);
    expect(before.text).toContain("墨客");
    down = true;
    const res = await page("/", `sid=${session}`);
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.text).toContain("服务繁忙，请稍后再试");
    expect(res.text).toContain('data-status="503"');
  });

  it("the sitemap is its last good copy", async () => {
    down = false;
    const good = await request(created.app).get("/sitemap.xml");
    expect(good.status).toBe(200);
    down = true;
    const res = await request(created.app).get("/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/xml/);
    expect(res.text).toBe(good.text);
  });

  it("with no copy made yet, the sitemap is 503 with Retry-After (never a 500), and is made once the database is back", async () => {
    down = true;
    const fresh = await createApp(config, { logger, services });
    fresh.readiness.markReady();
    const res = await request(fresh.app).get("/sitemap.xml");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("120");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toBe("站点地图暂时无法生成，请稍后再试。");
    // The API's own sitemap answers alike.
    const api = await request(fresh.app).get("/api/sitemap.xml");
    expect(api.status).toBe(503);
    expect(api.headers["retry-after"]).toBe("120");
    down = false;
    const made = await request(fresh.app).get("/sitemap.xml");
    expect(made.status).toBe(200);
    expect(made.text).toContain("<urlset");
  });

  it("readiness says the database is failing, and recovers with it", async () => {
    down = true;
    const res = await request(created.app).get("/readyz");
    expect(res.status).toBe(503);
    expect(res.body.checks).toEqual({ database: "failing" });
    down = false;
    expect((await request(created.app).get("/readyz")).status).toBe(200);
  });
});
