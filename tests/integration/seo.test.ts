import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticPagePaths } from "../../api/modules/seo/sitemap";
import { BROWSER_UA, GOOGLEBOT_UA, testApp } from "./helpers";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(async () => t.dispose());

describe("sitemap.xml", () => {
  it("lists the static public pages and every published catalogue item", async () => {
    const res = await request(t.app).get("/sitemap.xml").expect(200);
    expect(res.headers["content-type"]).toMatch(/application\/xml/);
    const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace("&amp;", "&"));
    const paths = locs.map((l) => new URL(l).pathname + new URL(l).search);
    for (const path of ["/", "/about", "/product/list", "/live", "/books", "/stationery", "/calmness"]) {
      expect(paths).toContain(path);
    }
    const db = t.services!.database.db;
    const courses = await db.selectFrom("courses").select("id").execute();
    const books = await db.selectFrom("books").select("id").execute();
    const commodities = await db.selectFrom("commodities").select("id").execute();
    for (const c of courses) expect(paths).toContain(`/course/${c.id}`);
    for (const b of books) expect(paths).toContain(`/books/${b.id}`);
    for (const c of commodities) expect(paths).toContain(`/commodity/${c.id}`);
    expect(paths).toContain("/activitys/spring-2026");
    // Personal pages, test fixtures and parameter patterns never appear.
    expect(paths.some((p) => p.startsWith("/my") || p.startsWith("/__test") || p.includes(":"))).toBe(false);
    expect(paths).not.toContain("/payment");
  });

  it("is announced in robots.txt", async () => {
    const res = await request(t.app).get("/robots.txt").expect(200);
    expect(res.text).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });

  it("takes its static pages from the route table", () => {
    const paths = staticPagePaths();
    expect(paths).toContain("/protocol/privacy");
    expect(paths).not.toContain("/my/allcourse");
    expect(paths).not.toContain("/my/logout");
  });
});

describe("caching of anonymous pages", () => {
  it("tags an anonymous page and answers a matching revalidation with 304 and no body", async () => {
    const first = await request(t.app).get("/about").set("User-Agent", BROWSER_UA).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const again = await request(t.app).get("/about").set("User-Agent", BROWSER_UA).set("If-None-Match", etag);
    expect(again.status).toBe(304);
    expect(again.text ?? "").toBe("");
    // The cached copy keeps its own CSP nonce: a 304 must not send a different one.
    expect(again.headers["content-security-policy"]).toBeUndefined();
    const other = await request(t.app).get("/about").set("User-Agent", BROWSER_UA).set("If-None-Match", 'W/"stale"');
    expect(other.status).toBe(200);
  });

  it("gives crawlers their own tag (their HTML is rendered whole)", async () => {
    const browser = await request(t.app).get("/about").set("User-Agent", BROWSER_UA);
    const crawler = await request(t.app).get("/about").set("User-Agent", GOOGLEBOT_UA);
    expect(crawler.headers.etag).toBeTruthy();
    expect(crawler.headers.etag).not.toBe(browser.headers.etag);
  });

  it("never tags personal pages or error pages", async () => {
    const missing = await request(t.app).get("/no-such-page").set("User-Agent", BROWSER_UA).expect(404);
    expect(missing.headers.etag).toBeUndefined();
    const personal = await request(t.app).get("/my").set("User-Agent", BROWSER_UA);
    expect(personal.headers.etag).toBeUndefined();
  });
});

describe("generated covers", () => {
  it("draws a character in each tone and shape, cached for a year", async () => {
    const res = await request(t.app).get("/media/cover/jade/6c38-portrait.svg").expect(200);
    expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(res.headers["cache-control"]).toMatch(/immutable/);
    const svg = Buffer.from(res.body as Buffer).toString("utf8");
    expect(svg).toContain('viewBox="0 0 300 400"');
    expect(svg).toContain(">永<");
  });

  it("refuses unknown tones, shapes and non-CJK code points", async () => {
    await request(t.app).get("/media/cover/neon/6c38.svg").expect(404);
    await request(t.app).get("/media/cover/ink/6c38-round.svg").expect(404);
    await request(t.app).get("/media/cover/ink/3c.svg").expect(404);
  });
});
