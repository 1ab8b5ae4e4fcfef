/**
 * Anonymous pages from memory (docs/decisions/026-page-cache.md): a repeated anonymous request
 * is answered from the cache (`X-Page-Cache: hit`) with its own nonce matching its CSP, gzip
 * included; 304 on its ETag; requests with a session (or any cookie) are neither served from it
 * nor stored; a catalogue write on this node or on another one (NOTIFY; on PostgreSQL a second
 * connection pool) empties it, and a periodic job that changes nothing does not.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { httpRequests } from "../../api/metrics";
import { advanceLiveSessions } from "../../api/modules/live/state-job";
import { BROWSER_UA, GOOGLEBOT_UA, notificationsDelivered, testApp, testAppOnSameDatabase } from "./helpers";

const ORIGIN = "http://localhost:3000";
const PAGE_CACHE = { maxEntries: 100, maxBytes: 16 * 2 ** 20, ttlMs: 60_000 };
type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let courseUrl: string;
let courseId: number;

beforeAll(async () => {
  h = await testApp({ pageCache: PAGE_CACHE }, {}, {}, { catalogue: true });
  const row = await h
    .services!.api.database.db.selectFrom("courses")
    .select("id")
    .where("status", "=", "published")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  courseId = row.id;
  courseUrl = `/course/${courseId}`;
});
afterAll(async () => {
  await h.dispose();
});

const get = (app: Harness["handler"], url: string, headers: Record<string, string> = {}) =>
  request(app)
    .get(url)
    .set({ "User-Agent": BROWSER_UA, ...headers });

function nonceOf(res: request.Response): string {
  const m = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]));
  expect(m).not.toBeNull();
  return m![1]!;
}

/** Every nonce attribute of the page, which must all be the CSP's. */
function expectNonces(html: string, nonce: string) {
  const found = [...html.matchAll(/\snonce="([^"]*)"/g)].map((m) => m[1]);
  expect(found.length).toBeGreaterThan(0);
  expect(new Set(found)).toEqual(new Set([nonce]));
}

async function expectStored(url: string, headers: Record<string, string> = {}) {
  await get(h.handler, url, headers).expect(200);
  const again = await get(h.handler, url, headers).expect(200);
  expect(again.headers["x-page-cache"]).toBe("hit");
}

async function login(): Promise<string> {
  const api = h.services!.api;
  await api.database.db.deleteFrom("rate_limits").execute();
  const phone = `137${String(10_000_000 + process.pid).slice(-8)}`;
  const post = (url: string, body: object) => request(h.handler).post(url).set("Origin", ORIGIN).send(body);
  expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
  const code = /\b(\d{6})\b/.exec(api.outbox!.list().find((m) => m.to === phone)?.text ?? "")?.[1];
  const res = await post("/api/auth/sms/login", { phone, code });
  expect(res.status).toBe(200);
  const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="));
  return raw!.split(";")[0]!;
}

describe("page cache", () => {
  it("answers the second anonymous request from memory, each with its own nonce matching its CSP", async () => {
    h.pageCache!.invalidate("test");
    const first = await get(h.handler, courseUrl).expect(200);
    expect(first.headers["x-page-cache"]).toBeUndefined();
    const second = await get(h.handler, courseUrl).expect(200);
    const third = await get(h.handler, courseUrl).expect(200);
    for (const res of [second, third]) {
      expect(res.headers["x-page-cache"]).toBe("hit");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers.etag).toBe(first.headers.etag);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expectNonces(res.text, nonceOf(res));
    }
    expect(nonceOf(second)).not.toBe(nonceOf(third));
    // The rendered response's headers (helmet's), its CSP but for the nonce; a request id each.
    for (const name of ["x-frame-options", "referrer-policy", "cross-origin-opener-policy", "x-content-type-options"])
      expect(second.headers[name]).toBe(first.headers[name]);
    const csp = (res: request.Response) => String(res.headers["content-security-policy"]).replace(/'nonce-[^']+'/, "");
    expect(csp(second)).toBe(csp(first));
    expect(second.headers["x-request-id"]).not.toBe(third.headers["x-request-id"]);
    expect(nonceOf(second)).not.toBe(nonceOf(first));
    // The same page as rendered, but for the nonces.
    const strip = (html: string) => html.replace(/nonce="[^"]*"/g, "");
    expect(strip(second.text)).toBe(strip(first.text));
  });

  it("keeps every public page of the load mix, /live among them (its list carries no server clock)", async () => {
    h.pageCache!.invalidate("test");
    for (const url of ["/", "/product/list", courseUrl, "/live", "/books", `/search?q=${encodeURIComponent("书法")}`])
      await expectStored(url);
    const live = await get(h.handler, "/live").expect(200);
    expect(live.text).not.toContain('"serverNow"');
  });

  it("serves gzip made around a fresh nonce, and identity to clients that do not take gzip", async () => {
    await expectStored(courseUrl);
    const gz = await get(h.handler, courseUrl, { "Accept-Encoding": "gzip, deflate, br" })
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(gz.headers["x-page-cache"]).toBe("hit");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    // The client may have inflated it already; if not, it must inflate.
    const raw = gz.body as Buffer;
    const html = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
    expectNonces(html.toString(), nonceOf(gz));
    const plain = await get(h.handler, courseUrl, { "Accept-Encoding": "identity" }).expect(200);
    expect(plain.headers["x-page-cache"]).toBe("hit");
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });

  it("answers If-None-Match with 304 and no CSP (the stored copy keeps its own)", async () => {
    await expectStored(courseUrl);
    const etag = (await get(h.handler, courseUrl)).headers.etag as string;
    const res = await get(h.handler, courseUrl, { "If-None-Match": etag }).expect(304);
    expect(res.headers["x-page-cache"]).toBe("hit");
    expect(res.headers["content-security-policy"]).toBeUndefined();
    expect(res.text ?? "").toBe("");
  });

  it("keeps crawlers' whole documents apart from browsers' pages", async () => {
    await expectStored(courseUrl);
    const bot = await get(h.handler, courseUrl, { "User-Agent": GOOGLEBOT_UA }).expect(200);
    expect(bot.headers["x-page-cache"]).toBeUndefined();
    await expectStored(courseUrl, { "User-Agent": GOOGLEBOT_UA });
  });

  it("never serves nor stores a page for a signed-in learner (or any request with a cookie)", async () => {
    const cookie = await login();
    h.pageCache!.invalidate("test");
    // Signed in first: rendered for them, personal, and not kept.
    const mine = await get(h.handler, courseUrl, { Cookie: cookie }).expect(200);
    expect(mine.headers["x-page-cache"]).toBeUndefined();
    expect(mine.headers["cache-control"]).toBe("private, no-store");
    const anon = await get(h.handler, courseUrl).expect(200);
    expect(anon.headers["x-page-cache"]).toBeUndefined();
    // Stored for anonymous visitors: the learner (and a stale or unknown cookie) still gets a render.
    await expectStored(courseUrl);
    for (const c of [cookie, `sid=${"x".repeat(43)}`, "did=abc"]) {
      const res = await get(h.handler, courseUrl, { Cookie: c }).expect(200);
      expect(res.headers["x-page-cache"]).toBeUndefined();
    }
    expect((await get(h.handler, courseUrl, { Cookie: cookie })).headers["cache-control"]).toBe("private, no-store");
    // Pages behind sign-in are never stored, even when an anonymous visitor is sent away from them.
    await get(h.handler, "/me");
    expect((await get(h.handler, "/me")).headers["x-page-cache"]).toBeUndefined();
  });

  it("is emptied by a catalogue write on this node", async () => {
    await expectStored(courseUrl);
    const db = h.services!.api.database.db;
    const { title } = await db
      .selectFrom("courses")
      .select("title")
      .where("id", "=", courseId)
      .executeTakeFirstOrThrow();
    await db.updateTable("courses").set({ title: "缓存之后改名的课" }).where("id", "=", courseId).execute();
    try {
      await expect.poll(() => h.pageCache!.size, { timeout: 3000 }).toBe(0);
      const res = await get(h.handler, courseUrl).expect(200);
      expect(res.headers["x-page-cache"]).toBeUndefined();
      expect(res.text).toContain("缓存之后改名的课");
    } finally {
      await db.updateTable("courses").set({ title }).where("id", "=", courseId).execute();
    }
  });

  it("is kept when a periodic job finds nothing to change (the live state job, every 30 s)", async () => {
    const api = h.services!.api;
    // What the demo data has due moves first, and empties the cache as it should.
    await advanceLiveSessions(api);
    await notificationsDelivered(api.database);
    await expectStored(courseUrl);
    expect(await advanceLiveSessions(api)).toEqual([]);
    await notificationsDelivered(api.database);
    expect((await get(h.handler, courseUrl).expect(200)).headers["x-page-cache"]).toBe("hit");
  });

  it("is emptied by a catalogue write on another node (NOTIFY)", async () => {
    const other = await testAppOnSameDatabase(h, { pageCache: PAGE_CACHE });
    try {
      await expectStored(courseUrl);
      const otherDb = other.services.api.database.db;
      const { title } = await otherDb
        .selectFrom("courses")
        .select("title")
        .where("id", "=", courseId)
        .executeTakeFirstOrThrow();
      await otherDb.updateTable("courses").set({ title: "另一台改名的课" }).where("id", "=", courseId).execute();
      await expect.poll(() => h.pageCache!.size, { timeout: 5000 }).toBe(0);
      expect((await get(h.handler, courseUrl).expect(200)).text).toContain("另一台改名的课");
      await otherDb.updateTable("courses").set({ title }).where("id", "=", courseId).execute();
    } finally {
      await other.dispose();
    }
  });

  it("answers a hit ahead of Express: counted in the metrics, logged, HEAD without a body", async () => {
    await expectStored(courseUrl);
    const metric = async () =>
      (await httpRequests.get()).values.find(
        (v) => v.labels.route === "/course/:id" && v.labels.status === "200" && v.labels.method === "GET",
      )?.value ?? 0;
    const before = await metric();
    const lines: Record<string, unknown>[] = [];
    const spy = vi.spyOn(h.logger, "isLevelEnabled").mockReturnValue(true);
    const info = vi.spyOn(h.logger, "info").mockImplementation(((obj: Record<string, unknown>) => {
      lines.push(obj);
    }) as never);
    try {
      const res = await get(h.handler, `${courseUrl}`, { "X-Request-Id": "from-outside-1234" }).expect(200);
      expect(res.headers["x-page-cache"]).toBe("hit");
      // No proxy of ours in front in this configuration: an incoming id is not taken.
      expect(res.headers["x-request-id"]).not.toBe("from-outside-1234");
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      const line = lines.find((l) => l.pageCache === "hit");
      expect(line).toMatchObject({ res: { statusCode: 200 }, req: { method: "GET", url: courseUrl } });
      expect((line!.req as { id: string }).id).toBe(res.headers["x-request-id"]);
    } finally {
      spy.mockRestore();
      info.mockRestore();
    }
    expect(await metric()).toBe(before + 1);
    const head = await request(h.handler).head(courseUrl).set("User-Agent", BROWSER_UA).expect(200);
    expect(head.headers["x-page-cache"]).toBe("hit");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(1000);
    expect(head.text ?? "").toBe("");
  });

  it("does not keep a page that was being rendered while the catalogue changed", async () => {
    h.pageCache!.invalidate("test");
    // The change arrives once the request has passed the cache and is being rendered.
    const changedMidway = (req: IncomingMessage, res: ServerResponse) => {
      h.handler(req, res);
      h.pageCache!.invalidate("test");
    };
    const res = await request(changedMidway).get(courseUrl).set("User-Agent", BROWSER_UA).expect(200);
    expect(res.headers["x-page-cache"]).toBeUndefined();
    expect((await get(h.handler, courseUrl)).headers["x-page-cache"]).toBeUndefined();
  });
  it("leaves every request to Express while the node drains (Connection: close)", async () => {
    await expectStored(courseUrl);
    // Draining is one way: this is the last test of the file.
    h.readiness.markDraining();
    const res = await get(h.handler, courseUrl).expect(200);
    expect(res.headers["x-page-cache"]).toBeUndefined();
    expect(res.headers.connection).toBe("close");
  });
});
