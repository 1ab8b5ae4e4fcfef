import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticPagePaths } from "../../api/modules/seo/sitemap";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { loadConfig } from "../../server/config";
import { SITE_DESCRIPTION } from "../../shared/constants";
import { BROWSER_UA, GOOGLEBOT_UA, testApp } from "./helpers";

const BAIDUSPIDER_UA = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)";

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
    // The character is the brush font's outline (a path), named for screen readers.
    expect(svg).toContain('aria-label="永"');
    expect(svg).toMatch(/<path d="M[\d.]+ [\d.]+Q/);
  });

  it("refuses unknown tones, shapes and non-CJK code points", async () => {
    await request(t.app).get("/media/cover/neon/6c38.svg").expect(404);
    await request(t.app).get("/media/cover/ink/6c38-round.svg").expect(404);
    await request(t.app).get("/media/cover/ink/3c.svg").expect(404);
  });
});

describe("what crawlers see", () => {
  const crawl = (path: string) => request(t.app).get(path).set("User-Agent", BAIDUSPIDER_UA);
  const attr = (html: string, re: RegExp) => re.exec(html)?.[1];

  it("gets every lazy picture's real address in the server HTML, in a <noscript> copy", async () => {
    for (const path of ["/", "/product/list", "/books", "/stationery"]) {
      const html = (await crawl(path).expect(200)).text;
      const lazy = html.match(/data-lazy="loading"/g) ?? [];
      const copies = [...html.matchAll(/<noscript><img[^>]*?src="([^"]+)"[^>]*><\/noscript>/g)].map((m) => m[1]!);
      expect(lazy.length, path).toBeGreaterThan(0);
      expect(copies.length, path).toBe(lazy.length);
      for (const src of copies) expect(src, path).toMatch(/^(\/|https?:)/);
      expect(html).toMatch(/<noscript><img[^>]*loading="lazy"/);
    }
  });

  it("gets a raster og:image of 1200×630 on detail, home and list pages", async () => {
    const { default: sharp } = await import("sharp");
    const db = t.services!.database.db;
    const live = await db.selectFrom("live_sessions").select("id").orderBy("id").executeTakeFirstOrThrow();
    const seen = new Set<string>();
    for (const path of ["/course/1", "/books/1", "/commodity/1", `/live/${live.id}`, "/", "/product/list", "/about"]) {
      const html = (await crawl(path).expect(200)).text;
      const image = attr(html, /<meta property="og:image" content="([^"]+)"/);
      expect(image, path).toMatch(/^http:\/\/localhost:3000\/.+\.(jpg|png)$/);
      expect(html, path).toContain('<meta property="og:image:width" content="1200"/>');
      seen.add(image!);
      const picture = await request(t.app).get(new URL(image!).pathname).buffer(true).expect(200);
      expect(picture.headers["content-type"], path).toBe("image/jpeg");
      expect(picture.headers["cache-control"]).toMatch(/immutable/);
      const meta = await sharp(picture.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height], path).toEqual(["jpeg", 1200, 630]);
    }
    // Detail pages have their own picture; home, lists and plain pages share the site's.
    expect(seen.size).toBeGreaterThanOrEqual(5);
    expect(seen).toContain("http://localhost:3000/media/share/default.jpg");
  });

  it("gets a second og:image, the 600×600 square WeChat prefers, on every kind of page", async () => {
    const { default: sharp } = await import("sharp");
    const db = t.services!.database.db;
    const live = await db.selectFrom("live_sessions").select("id").orderBy("id").executeTakeFirstOrThrow();
    const seen = new Set<string>();
    for (const path of ["/course/1", "/books/1", "/commodity/1", `/live/${live.id}`, "/", "/product/list"]) {
      const html = (await crawl(path).expect(200)).text;
      const images = [...html.matchAll(/<meta property="og:image" content="([^"]+)"\/>/g)].map((m) => m[1]!);
      expect(images.length, path).toBe(2);
      const square = images[1]!;
      expect(square, path).toMatch(/^http:\/\/localhost:3000\/media\/share\/.+-square\.jpg$/);
      // Its own size follows it (structured properties belong to the og:image before them).
      const after = html.slice(html.indexOf(`content="${square}"`));
      expect(after, path).toMatch(
        /^[^>]*\/><meta property="og:image:type" content="image\/jpeg"\/><meta property="og:image:width" content="600"\/><meta property="og:image:height" content="600"\/>/,
      );
      seen.add(square);
      const picture = await request(t.app).get(new URL(square).pathname).buffer(true).expect(200);
      expect(picture.headers["content-type"], path).toBe("image/jpeg");
      expect(picture.headers["cache-control"]).toMatch(/immutable/);
      const meta = await sharp(picture.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height], path).toEqual(["jpeg", 600, 600]);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
    expect(seen).toContain("http://localhost:3000/media/share/default-square.jpg");
    await request(t.app).get("/media/share/neon/6c38-square.jpg").expect(404);
    await request(t.app).get("/media/share/ink/6c38-round.jpg").expect(404);
  });

  it("gets a homework share's poster and the work's 600×600 square as its two og:images", async () => {
    const { seedHomework } = await import("../../api/modules/homework/seed");
    await seedHomework(t.services!.api.database);
    const wall = (await request(t.app).get("/api/homework/wall").expect(200)).body as {
      items: Array<{ shareId: string }>;
    };
    const shareId = wall.items[0]!.shareId;
    const html = (await crawl(`/homework/share?id=${shareId}`).expect(200)).text;
    const images = [...html.matchAll(/<meta property="og:image" content="([^"]+)"\/>/g)].map((m) => m[1]!);
    expect(images).toEqual([
      `http://localhost:3000/api/homework/share/${shareId}/poster.jpg`,
      `http://localhost:3000/api/homework/share/${shareId}/square.jpg`,
    ]);
    const { default: sharp } = await import("sharp");
    const square = await request(t.app).get(new URL(images[1]!).pathname).buffer(true).expect(200);
    const meta = await sharp(square.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 600, 600]);
  });

  it("refuses share pictures of unknown tones and non-CJK code points", async () => {
    await request(t.app).get("/media/share/neon/6c38.jpg").expect(404);
    await request(t.app).get("/media/share/ink/3c.jpg").expect(404);
    await request(t.app).get("/media/share/other.jpg").expect(404);
  });

  it("is sent to the one canonical address with 301 (case, trailing slash), query kept", async () => {
    const cases: Array<[string, string]> = [
      ["/About", "/about"],
      ["/about/", "/about"],
      ["/COURSE/1", "/course/1"],
      ["/course/1/", "/course/1"],
      ["/Product/List/?page=2&category=kaishu", "/product/list?page=2&category=kaishu"],
      ["/About/index.html", "/about/index.html"],
      ["/GroupBuy/GB26010100000001", "/groupbuy/GB26010100000001"],
      ["/Video/PublicCourseItem/", "/video/PublicCourseItem"],
      ["/MY/Order", "/my/order"],
    ];
    for (const [from, to] of cases) {
      const res = await crawl(from);
      expect([from, res.status, res.headers.location]).toEqual([from, 301, to]);
    }
    // The spec's …/index.html form is a page of its own, with the clean canonical address.
    const indexForm = await crawl("/about/index.html").expect(200);
    expect(indexForm.text).toContain('<link rel="canonical" href="http://localhost:3000/about"/>');
    await crawl("/video/PublicCourseItem").expect(200);
    // Unknown addresses are not redirected: they are 404 pages.
    await crawl("/No-Such-Page/").expect(404);
  });

  it("finds no canonical address on error pages, which are not indexed", async () => {
    for (const path of ["/no-such-page", "/course/999999", "/course/abc"]) {
      const res = await crawl(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('rel="canonical"');
      expect(res.text, path).not.toContain('property="og:url"');
      expect(res.text, path).toContain('<meta name="robots" content="noindex"/>');
    }
    const ok = await crawl("/about").expect(200);
    expect(ok.text).toContain('<link rel="canonical" href="http://localhost:3000/about"/>');
    expect(ok.text).not.toContain('name="robots"');
  });

  it("is kept out of placeholder and personal pages (noindex, not in the sitemap)", async () => {
    for (const path of ["/bowser", "/search", "/my/logout", "/m/qr/abcdef123"]) {
      const res = await crawl(path);
      expect(res.text, path).toContain('<meta name="robots" content="noindex"/>');
    }
    // Personal pages, signed in (signed out they send the visitor to log in).
    const api = t.services!.api;
    const user = await api.database.db
      .insertInto("users")
      .values({ phone: "13912345670", nickname: "索引测试", role: "operator" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(api.database, user.id, { userAgent: BROWSER_UA, ip: "127.0.0.1" });
    const cookie = `${sessionCookieName(api.settings.cookies)}=${token}`;
    for (const path of ["/my", "/my/order", "/teach", "/my/exchange"]) {
      const res = await request(t.app).get(path).set("User-Agent", BROWSER_UA).set("Cookie", cookie);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain('<meta name="robots" content="noindex"/>');
    }
    const sitemap = (await request(t.app).get("/sitemap.xml").expect(200)).text;
    for (const path of ["/bowser", "/search", "/my", "/teach", "/payment", "/m/qr"]) {
      expect(sitemap, path).not.toContain(`<loc>http://localhost:3000${path}<`);
    }
    expect(staticPagePaths()).not.toContain("/teach");
    expect(staticPagePaths()).not.toContain("/teach/homework");
  });

  it("reads a description of its own on every static page", async () => {
    const descriptions = new Map<string, string>();
    for (const path of staticPagePaths()) {
      const html = (await crawl(path)).text;
      const description = attr(html, /<meta name="description" content="([^"]+)"/);
      expect(description, path).toBeTruthy();
      if (path !== "/") expect(description, path).not.toBe(SITE_DESCRIPTION);
      descriptions.set(path, description!);
    }
    const counts = new Map<string, string[]>();
    for (const [path, d] of descriptions) counts.set(d, [...(counts.get(d) ?? []), path]);
    // /protocol is the index page of /protocol/…: the same page under its parent's address.
    const shared = [...counts.values()].filter((paths) => paths.length > 1);
    expect(shared).toEqual([]);
  });

  it("gets a real ICO favicon", async () => {
    const res = await request(t.app).get("/favicon.ico").buffer(true).expect(200);
    expect(res.headers["content-type"]).toMatch(/^image\/x-icon/);
    const ico = res.body as Buffer;
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
    const sizes = [0, 1, 2].map((i) => ico.readUInt8(6 + i * 16));
    expect(sizes).toEqual([16, 32, 48]);
    const firstOffset = ico.readUInt32LE(6 + 12);
    expect(ico.subarray(firstOffset, firstOffset + 8).toString("hex")).toBe("89504e470d0a1a0a");
    const html = (await crawl("/about")).text;
    expect(html).toContain('<link rel="icon" href="/favicon.ico"');
  });

  it("reads a robots.txt without the non-standard Host line", async () => {
    const robots = (await request(t.app).get("/robots.txt").expect(200)).text;
    expect(robots).not.toMatch(/^Host:/im);
    expect(robots).toMatch(/^User-agent: \*$/m);
  });

  it("finds a 'continue on your phone' QR on a lesson page (this site without MOBILE_SITE_URL) and captions", async () => {
    const db = t.services!.database.db;
    const lesson = await db
      .selectFrom("lessons")
      .select("id")
      .where("is_trial", "=", true)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const html = (await request(t.app).get(`/video/${lesson.id}`).set("User-Agent", BROWSER_UA).expect(200)).text;
    expect(html).toContain(`src="/media/qr.svg?path=%2Fvideo%2F${lesson.id}"`);
    expect(html).toContain(`href="http://localhost:3000/video/${lesson.id}"`);
    expect(html).toContain("在手机上继续看");
    const track = /<track kind="captions" src="([^"]+)" srcLang="zh-CN" label="中文字幕"/i.exec(html);
    expect(track?.[1]).toMatch(/^\/media\/video\/(?:\w+|cards\/[\w-]+)\/captions\.vtt$/);
    const vtt = await request(t.app).get(track![1]!).expect(200);
    expect(vtt.headers["content-type"]).toMatch(/^text\/vtt/);
    expect(vtt.text).toMatch(/^WEBVTT\n\n00:00\.000 --> /);
  });

  it("finds no ICP number, verification or mobile tags unless configured", async () => {
    const html = (await crawl("/about")).text;
    expect(html).not.toContain("beian.miit.gov.cn");
    expect(html).not.toContain("baidu-site-verification");
    expect(html).not.toContain("msvalidate.01");
    expect(html).not.toContain('name="mobile-agent"');
  });
});

describe("China's conventions, configured", () => {
  let c: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    c = await testApp(
      {},
      {},
      {
        ICP_NUMBER: "京ICP备12345678号-1",
        BAIDU_SITE_VERIFICATION: "codeva-AbC123",
        BING_SITE_VERIFICATION: "0123456789ABCDEF",
        MOBILE_SITE_URL: "https://m.example.cn/",
      },
    );
  });
  afterAll(async () => c.dispose());

  it("shows the ICP number linked to the registry, the verification tags and the mobile site", async () => {
    const html = (await request(c.app).get("/course/1/index.html").set("User-Agent", BAIDUSPIDER_UA)).text;
    expect(html).toMatch(
      /<a class="site-footer__icp" href="https:\/\/beian\.miit\.gov\.cn\/"[^>]*>京ICP备12345678号-1<\/a>/,
    );
    expect(html).toContain('<meta name="baidu-site-verification" content="codeva-AbC123"/>');
    expect(html).toContain('<meta name="msvalidate.01" content="0123456789ABCDEF"/>');
    expect(html).toContain('<meta name="applicable-device" content="pc"/>');
    expect(html).toContain('<meta name="mobile-agent" content="format=html5;url=https://m.example.cn/course/1"/>');
    expect(html).toContain(
      '<link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.example.cn/course/1"/>',
    );
  });

  it("makes the lesson page's phone QR point at the mobile site, for our own paths only", async () => {
    const res = await request(c.app).get("/media/qr.svg?path=%2Fvideo%2F12").expect(200);
    expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(Buffer.from(res.body as Buffer).toString("utf8")).toMatch(
      /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
    );
    for (const bad of ["https://evil.example/", "//evil.example/x", "video/12", ""]) {
      await request(c.app)
        .get(`/media/qr.svg?path=${encodeURIComponent(bad)}`)
        .expect(404);
    }
  });

  it("refuses a verification code that could break out of its tag", () => {
    expect(() => loadConfig({ NODE_ENV: "test", BAIDU_SITE_VERIFICATION: 'x"><script>' })).toThrow();
  });
});

describe("activity kind pages", () => {
  const sitemapPaths = async () => {
    const res = await request(t.app).get("/sitemap.xml").expect(200);
    return [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  };

  it("are indexed and listed while an activity of the kind is open, noindex and left out when none is", async () => {
    const db = t.services!.database.db;
    expect(await sitemapPaths()).toContain("/activitys/reading");
    const open = await request(t.app).get("/activitys/reading").set("User-Agent", GOOGLEBOT_UA).expect(200);
    expect(open.text).not.toContain('name="robots"');

    const row = await db
      .selectFrom("activities")
      .select(["id", "starts_at", "ends_at"])
      .where("kind", "=", "reading")
      .executeTakeFirstOrThrow();
    const past = new Date(Date.now() - 86_400_000);
    await db
      .updateTable("activities")
      .set({ starts_at: new Date(past.getTime() - 86_400_000), ends_at: past })
      .where("id", "=", row.id)
      .execute();
    try {
      const paths = await sitemapPaths();
      expect(paths).not.toContain("/activitys/reading");
      expect(paths).toContain("/activitys/bmyx");
      const ended = await request(t.app).get("/activitys/reading").set("User-Agent", GOOGLEBOT_UA).expect(200);
      expect(ended.text).toContain('<meta name="robots" content="noindex"/>');
    } finally {
      await db
        .updateTable("activities")
        .set({ starts_at: row.starts_at, ends_at: row.ends_at })
        .where("id", "=", row.id)
        .execute();
    }
  });
});
