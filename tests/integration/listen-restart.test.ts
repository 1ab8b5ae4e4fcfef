/**
 * A PostgreSQL restart as one web node sees it: its LISTEN connection is cut. The node
 * reconnects, listens again and replays the chat said meanwhile, so an open room stream gets
 * every message exactly once; scan-code streams re-read their ticket. Real PostgreSQL only
 * (TEST_DATABASE_URL): PGlite lives in the process and cannot lose its LISTEN.
 */
import type { Server } from "node:http";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "../../api/seed/catalogue";
import { createSession } from "../../api/modules/auth/sessions";
import { createApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import type { Services } from "../../api/index";
import { openServices } from "../../server/services";
import { type TestDatabase, testDatabase } from "../db";
import { TestBrowser, clientDir, closeServer, listen } from "./helpers";
import { readEventStream } from "./sse";

const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

const url = process.env.TEST_DATABASE_URL;
/** Wide enough that a message posted right after the cut surely falls inside the outage. */
const RETRY_BASE_MS = 1500;

describe.skipIf(!url)("LISTEN across a PostgreSQL restart", () => {
  let handle: TestDatabase & { applicationName?: string };
  let services: Services;
  let server: Server;
  let base: string;
  let admin: pg.Client;

  beforeAll(async () => {
    handle = await testDatabase({ listenRetryBaseMs: RETRY_BASE_MS });
    const config = loadConfig(
      { NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: "test-results/data" },
      { clientDir, databaseUrl: url },
    );
    const logger = pino({ level: "silent" });
    services = await openServices(config, logger, handle.database);
    await seedCatalogue(services.database);
    const created = await createApp(config, { logger, services });
    created.readiness.markReady();
    ({ server, base } = await listen(created.app));
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    if (server) await closeServer(server);
    await handle?.dispose();
  });

  /** The backends carrying this app's LISTEN (there is one, or none while it reconnects). */
  const listenerPids = async () =>
    (
      await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
        `${handle.applicationName} listen`,
      ])
    ).rows.map((r) => r.pid);

  async function cutListener() {
    const [pid] = await listenerPids();
    expect(pid, "a LISTEN connection").toBeTypeOf("number");
    await admin.query("select pg_terminate_backend($1)", [pid]);
    for (let i = 0; i < 50 && (await listenerPids()).includes(pid!); i++) await new Promise((r) => setTimeout(r, 20));
  }

  async function waitForListener() {
    for (let i = 0; i < 300; i++) {
      if ((await listenerPids()).length === 1) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("LISTEN never came back");
  }

  it("an open room stream gets the message said during the outage and the next one, each once", async () => {
    const { db } = services.database;
    const course = await db.selectFrom("courses").select(["id", "teacher_id"]).orderBy("id").executeTakeFirstOrThrow();
    const now = Date.now();
    const live = await db
      .insertInto("live_sessions")
      .values({
        course_id: course.id,
        teacher_id: course.teacher_id,
        title: "断线重连 · 横画",
        cover_char: "横",
        starts_at: new Date(now - 5 * 60_000),
        ends_at: new Date(now + 60 * 60_000),
        state: "live",
        stream_key: "test-stream",
        recording_video_key: "yong",
        chapter_marks: "[]",
        is_open: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const user = await db
      .insertInto("users")
      .values({ phone: "13900001111", nickname: "临池" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.insertInto("enrolments").values({ user_id: user.id, course_id: course.id, source: "admin" }).execute();
    const browser = new TestBrowser(base);
    browser.cookies.set("sid", await createSession(services.database, user.id, { userAgent: "test", ip: "127.0.0.1" }));

    const stream = await readEventStream(browser, `/api/live/${live.id}/events`);
    expect(stream.res.status).toBe(200);
    await stream.until(() => stream.events.some((e) => e.event === "online"), "the stream to open");
    const chats = () => stream.events.filter((e) => e.event === "chat").map((e) => (e.data as { body: string }).body);
    const say = async (body: string) =>
      expect((await browser.json("POST", `/api/live/${live.id}/messages`, { body })).status).toBe(201);

    await say("断线之前");
    await stream.until(() => chats().includes("断线之前"), "the first message");

    await cutListener();
    await say("断线之中");
    // The message really was posted while nobody listened on this node.
    expect(await listenerPids()).toEqual([]);

    await waitForListener();
    await stream.until(() => chats().includes("断线之中"), "the message said during the outage", 10_000);
    await say("恢复之后");
    await stream.until(() => chats().includes("恢复之后"), "the message after recovery");
    // A moment for any duplicate to arrive.
    await new Promise((r) => setTimeout(r, 300));
    expect(chats()).toEqual(["断线之前", "断线之中", "恢复之后"]);
    await stream.close();
  });

  it("a scan-code stream learns of a scan made during the outage", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const made = await desktop.json("POST", "/api/auth/qr", {});
    expect(made.status).toBe(201);
    const ticket = made.body.ticket as string;
    const stream = await readEventStream(desktop, `/api/auth/qr/${ticket}/events`);
    const statuses = () => stream.events.map((e) => (e.data as { status: string }).status);
    await stream.until(() => statuses().includes("pending"), "pending");

    const { db } = services.database;
    const user = await db
      .insertInto("users")
      .values({ phone: "13900002222", nickname: "扫码" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const phone = new TestBrowser(base, PHONE_UA);
    phone.cookies.set("sid", await createSession(services.database, user.id, { userAgent: PHONE_UA, ip: "10.1.2.3" }));

    await cutListener();
    expect((await phone.json("GET", `/api/auth/qr/${ticket}`)).body.status).toBe("scanned");
    expect(await listenerPids()).toEqual([]);
    await stream.until(() => statuses().includes("scanned"), "scanned, once LISTEN is back", 10_000);
    expect(statuses()).toEqual(["pending", "scanned"]);
    await stream.close();
  });
});
