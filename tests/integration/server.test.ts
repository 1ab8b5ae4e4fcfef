import { AsyncLocalStorage, executionAsyncResource } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { createServer, get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createGunzip } from "node:zlib";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Readiness } from "../../server/readiness";
import { BROWSER_UA, clientDir, closedPort, GOOGLEBOT_UA, IE11_UA, testApp } from "./helpers";

type Express = Awaited<ReturnType<typeof testApp>>["app"];
let app: Express;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ app } = await testApp());
  server = createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Reads a response as the chunks arrive, with the time each arrived. */
function readChunks(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ res: IncomingMessage; chunks: Array<{ at: number; text: string }> }>((resolve, reject) => {
    const started = Date.now();
    get(url, { headers: { "user-agent": BROWSER_UA, ...headers } }, (res) => {
      const chunks: Array<{ at: number; text: string }> = [];
      const body = res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
      body.on("data", (c: Buffer) => chunks.push({ at: Date.now() - started, text: c.toString("utf8") }));
      body.on("end", () => resolve({ res, chunks }));
      body.on("error", reject);
    }).on("error", reject);
  });
}

describe("security headers", () => {
  it("every response gets a fresh CSP nonce, carried by every script", async () => {
    const nonces = new Set<string>();
    for (const url of ["/", "/books", "/__test/fast", "/no-such-page"]) {
      const res = await request(app).get(url).set("User-Agent", BROWSER_UA);
      const csp = res.headers["content-security-policy"] as string;
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).not.toContain("unsafe-inline' 'nonce"); // no unsafe-inline in script-src
      expect(/script-src [^;]*unsafe-inline/.test(csp)).toBe(false);
      nonces.add(nonce as string);
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      // The inlined stylesheets carry it too (decision 049).
      const styles = res.text.match(/<style\b[^>]*>/g) ?? [];
      expect(styles.length).toBeGreaterThan(0);
      for (const tag of styles) expect(tag).toContain(`nonce="${nonce}"`);
      expect(res.headers["x-powered-by"]).toBeUndefined();
    }
    expect(nonces.size).toBe(4);
  });

  it("streamed inline scripts carry the nonce too", async () => {
    const res = await request(app).get("/__test/stream?ms=300").set("User-Agent", BROWSER_UA);
    const nonce = /'nonce-([^']+)'/.exec(res.headers["content-security-policy"] as string)?.[1];
    const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(2); // boot data, entry, and React's boundary script
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("HSTS only in production on an HTTPS origin", async () => {
    const dev = await request(app).get("/");
    expect(dev.headers["strict-transport-security"]).toBeUndefined();
    const { app: prod } = await testApp(
      { production: true, publicOrigin: "https://www.example.cn", testFixtures: false, deployEnv: "pro" },
      {},
    );
    const res = await request(prod).get("/");
    expect(res.headers["strict-transport-security"]).toMatch(/max-age=31536000/);
    expect(res.headers["content-security-policy"]).toContain("upgrade-insecure-requests");
  });
});

describe("document", () => {
  it("has the head the spec asks for", async () => {
    const res = await request(app).get("/books/index.html").set("User-Agent", BROWSER_UA);
    const html = res.text;
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("user-scalable=no");
    // Phones: the on-screen keyboard shrinks the layout, so a sheet's field stays above it.
    expect(html).toContain("width=device-width,");
    expect(html).toContain("interactive-widget=resizes-content");
    expect(html).toContain('<link rel="canonical" href="http://localhost:3000/books"/>');
    expect(html).toContain('<meta name="build-version" content="2.14.35"/>');
    expect(html).toContain('<meta name="platform" content="pc"/>');
    // The books page describes itself; pages without their own words get the site's description.
    expect(html).toMatch(/<meta name="description" content="[^"]*书[^"]*"/);
  });

  it("preloads the matched page's chunk and inlines its stylesheets, from the manifest", async () => {
    const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8"));
    const books = manifest["client/features/books/Books.page.tsx"];
    const res = await request(app).get("/books").set("User-Agent", BROWSER_UA);
    expect(res.text).toContain(`<link rel="modulepreload" href="/${books.file}"/>`);
    const sheets = [...manifest["client/entry-client.tsx"].css, ...(books.css ?? [])] as string[];
    expect(sheets.length).toBeGreaterThan(0);
    for (const css of sheets) {
      const text = readFileSync(path.join(clientDir, css), "utf8");
      expect(res.text).toMatch(new RegExp(`<style nonce="[^"]+" data-href="/${css}">`));
      expect(res.text).toContain(text);
      // Switched off: no request, but the loader of page chunks sees the file is in the page.
      expect(res.text).toContain(`<link rel="stylesheet" href="/${css}" disabled=""/>`);
      expect(res.text).not.toContain(`<link rel="stylesheet" href="/${css}"/>`);
    }
    expect(res.text).toMatch(/<script type="module" src="\/assets\/entry-client-[^"]+\.js"/);
  });

  it("dehydrated state cannot break out of its script", async () => {
    const hostile = "</script><script>alert(1)</script><!-- \u2028 & done";
    const res = await request(app)
      .get(`/__test/fast?echo=${encodeURIComponent(hostile)}`)
      .set("User-Agent", BROWSER_UA);
    const boot = /<script id="__boot" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? "";
    expect(boot).not.toContain("</script");
    expect(boot).not.toContain("<!--");
    expect(boot).not.toContain("\u2028");
    const parsed = JSON.parse(boot);
    expect(parsed.router.loaderData["fixture.fast"].echo).toBe(hostile);
    expect(res.text).not.toContain("<script>alert(1)</script>");
  });

  it("the boot payload is ASCII, its Chinese written as escapes (decision 052)", async () => {
    const res = await request(app).get("/__test/fast?echo=%E5%A2%A8%E6%B1%A0").set("User-Agent", BROWSER_UA);
    const boot = /<script id="__boot" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? "";
    expect(boot).toMatch(/^[\u0020-\u007e]+$/);
    const parsed = JSON.parse(boot);
    expect(parsed.router.loaderData["fixture.fast"].echo).toBe("墨池");
    expect(parsed.root.siteName).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe("streaming", () => {
  it("browsers get the shell before a slow boundary resolves", async () => {
    const { chunks } = await readChunks(`${base}/__test/stream?ms=1000`);
    const first = chunks.findIndex((c) => c.text.includes("正在加载慢内容"));
    const slow = chunks.findIndex((c) => c.text.includes("慢内容已到达"));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(slow).toBeGreaterThan(first);
    expect(chunks[slow]!.at - chunks[first]!.at).toBeGreaterThan(500);
  });

  it("compression does not hold the shell back", async () => {
    const { res, chunks } = await readChunks(`${base}/__test/stream?ms=1000`, { "accept-encoding": "gzip" });
    expect(res.headers["content-encoding"]).toBe("gzip");
    const first = chunks.findIndex((c) => c.text.includes("正在加载慢内容"));
    const slow = chunks.findIndex((c) => c.text.includes("慢内容已到达"));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(slow).toBeGreaterThan(first);
    expect(chunks[slow]!.at - chunks[first]!.at).toBeGreaterThan(500);
  });

  it("a boundary that never resolves is cut off at the time limit, leaving its fallback", async () => {
    const { app: impatient } = await testApp({ streamTimeoutMs: 400 });
    const started = Date.now();
    const res = await request(impatient).get("/__test/stream?ms=5000").set("User-Agent", BROWSER_UA);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(200);
    expect(res.text).toContain("正在加载慢内容");
    expect(res.text).not.toContain("慢内容已到达");
  });

  it("the page is a boundary of its own, written in place however long: nothing hidden, nothing moved by script", async () => {
    const res = await request(app).get("/").set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    const body = res.text.slice(res.text.indexOf("<body"));
    // The boundary opens before the layout and closes after it (React's markers for a boundary
    // whose content was ready when the document was written).
    const opens = body.indexOf("<!--$-->");
    expect(opens).toBeGreaterThan(0);
    expect(opens).toBeLessThan(body.indexOf('id="main"'));
    expect(body.lastIndexOf("<!--/$-->")).toBeGreaterThan(body.indexOf("</footer>"));
    expect(res.text.length).toBeGreaterThan(40_000);
    expect(res.text).not.toContain('hidden id="S:');
    expect(res.text).not.toContain("$RC");
  });

  it("crawlers get the complete page with nothing hidden in outlined boundaries", async () => {
    const res = await request(app).get("/__test/stream?ms=300").set("User-Agent", GOOGLEBOT_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain("慢内容已到达");
    expect(res.text).not.toContain("正在加载慢内容");
    expect(res.text).not.toContain("<template");
    expect(res.text).not.toContain('hidden id="S:');
  });
});

describe("mobile site", () => {
  it("with MOBILE_SITE_URL the header offers a real QR code of it", async () => {
    const { app: withMobile } = await testApp({ mobileSiteUrl: "https://m.example.cn" });
    const res = await request(withMobile).get("/").set("User-Agent", BROWSER_UA);
    const popover = /<details class="qr-popover">([\s\S]*?)<\/details>/.exec(res.text)?.[1] ?? "";
    expect(popover).toContain("<svg");
    expect(popover).toContain('href="https://m.example.cn"');
    const without = await request(app).get("/").set("User-Agent", BROWSER_UA);
    expect(without.text).not.toContain('<details class="qr-popover"');
  });
});

describe("browser detection", () => {
  it("sends unsupported browsers to /bowser, never crawlers, and /bowser never redirects", async () => {
    const ie = await request(app).get("/books").set("User-Agent", IE11_UA);
    expect(ie.status).toBe(302);
    expect(ie.headers.location).toBe("/bowser");
    const page = await request(app).get("/bowser").set("User-Agent", IE11_UA);
    expect(page.status).toBe(200);
    const bot = await request(app).get("/books").set("User-Agent", GOOGLEBOT_UA);
    expect(bot.status).toBe(200);
  });
});

describe("assets and small files", () => {
  it("serves built assets immutable and a missing one as a plain 404", async () => {
    const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8"));
    const entry = manifest["client/entry-client.tsx"].file as string;
    const hit = await request(app).get(`/${entry}`);
    expect(hit.status).toBe(200);
    expect(hit.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const miss = await request(app).get("/assets/entry-client-doesnotexist.js");
    expect(miss.status).toBe(404);
    expect(miss.headers["content-type"]).toMatch(/^text\/plain/);
    expect(miss.text).not.toContain("<html");
  });

  it("robots.txt and the favicon", async () => {
    const robots = await request(app).get("/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.text).toContain("Disallow: /my/");
    // Staff pages are never indexed (they also say noindex and X-Robots-Tag).
    expect(robots.text).toContain("Disallow: /teach");
    expect(robots.text).toContain("Disallow: /admin");
    const icon = await request(app).get("/favicon.ico");
    expect(icon.headers["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  });

  it("other methods on pages are 405", async () => {
    const res = await request(app).post("/books").send("x");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD");
  });
});

describe("health and readiness", () => {
  it("/readyz is 503 while starting or draining, and when a check fails", async () => {
    let dbUp = true;
    const readiness = new Readiness([
      {
        name: "database",
        run: async () => {
          if (!dbUp) throw new Error("down");
        },
      },
    ]);
    const { app: a } = await testApp({}, { readiness });
    // testApp marks ready; a fresh Readiness is "starting" until then.
    expect((await request(a).get("/readyz")).status).toBe(200);
    dbUp = false;
    const down = await request(a).get("/readyz");
    expect(down.status).toBe(503);
    expect(down.body.checks.database).toBe("failing");
    dbUp = true;
    readiness.markDraining();
    expect((await request(a).get("/readyz")).status).toBe(503);
    expect((await request(a).get("/healthz")).status).toBe(200);
    const starting = new Readiness();
    expect((await starting.check()).ready).toBe(false);
  });
});

describe("proxies", () => {
  it("a stopped upstream's port is refused and lies where listen(0) never lands (no proxy loop back to the app)", async () => {
    const port = await closedPort();
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    expect(port).toBeLessThan(low!);
    const refused = await new Promise<string>((resolve) => {
      get(`http://127.0.0.1:${port}/`, () => resolve("answered")).on("error", (e: NodeJS.ErrnoException) =>
        resolve(e.code ?? "error"),
      );
    });
    expect(refused).toBe("ECONNREFUSED");
  });

  it("a stopped upstream gives 502 and the process lives on", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const { app: proxied } = await testApp({ apiOrigin: dead, avatarOrigin: dead, broadcastOrigin: dead });
    const api = await request(proxied).get("/api/courses");
    expect(api.status).toBe(502);
    expect(api.body.error.code).toBe("bad_gateway");
    const avatar = await request(proxied).get("/avatar/a.png");
    expect(avatar.status).toBe(502);
    expect(avatar.text).toContain("502");
    const live = await request(proxied).get("/broadcast/live/1.m3u8");
    expect(live.status).toBe(502);
    expect((await request(proxied).get("/healthz")).status).toBe(200);
    expect((await request(proxied).get("/")).status).toBe(200);
  });

  it("forwards to a live upstream with the mount path kept", async () => {
    const upstream = createServer((req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ path: req.url, forwardedFor: req.headers["x-forwarded-for"] ?? null }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const { app: proxied } = await testApp({ apiOrigin: origin });
    const res = await request(proxied).get("/api/courses?page=2");
    expect(res.status).toBe(200);
    expect(res.body.path).toBe("/api/courses?page=2");
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  it("tells the upstream the client's address as this node resolved it, never a chain ending in the balancer", async () => {
    const upstream = createServer((req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ forwardedFor: req.headers["x-forwarded-for"] ?? null }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    try {
      // Behind one balancer: its X-Forwarded-For names the client, whatever the client claimed before it.
      const { app: behindOne } = await testApp({ apiOrigin: origin, trustProxyHops: 1 });
      for (const [sent, client] of [
        ["203.0.113.7", "203.0.113.7"],
        ["6.6.6.6, 203.0.113.8", "203.0.113.8"],
      ]) {
        const res = await request(behindOne).get("/api/courses").set("X-Forwarded-For", sent!);
        expect(res.body.forwardedFor, sent).toBe(client);
      }
      // Trusting no proxy: the socket's address, and a made-up header changes nothing.
      const { app: direct } = await testApp({ apiOrigin: origin, trustProxyHops: 0 });
      const res = await request(direct).get("/api/courses").set("X-Forwarded-For", "6.6.6.6");
      expect(res.body.forwardedFor).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    } finally {
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });
});

describe("what a page leaves behind", () => {
  /*
   * React renders inside an AsyncLocalStorage run whose store is the whole render. Node 20 keeps
   * each store on the async resources created while it is current (a symbol property); a response
   * ended there arms the keep-alive socket's timer with the render attached, and the render
   * outlives its response (decision 052). Node 24 keeps contexts another way, without those
   * properties: there the probe cannot see a store and the test is skipped.
   */
  const storesOf = (resource: object) =>
    Object.getOwnPropertySymbols(resource)
      .filter((s) => s.description === "kResourceStore")
      .map((s) => (resource as Record<symbol, unknown>)[s]);
  const probeSeesStores = new AsyncLocalStorage<object>().run({}, () => storesOf(executionAsyncResource()).length > 0);
  const isReactRender = (store: unknown) =>
    typeof store === "object" && store !== null && "pingedTasks" in store && "abortableTasks" in store;

  it.skipIf(!probeSeesStores)("pages are ended outside React's render context", async () => {
    const endedIn: unknown[][] = [];
    const probe = createServer((req, res) => {
      const end = res.end;
      res.end = function (this: typeof res, ...args: unknown[]) {
        endedIn.push(storesOf(executionAsyncResource()));
        return (end as (...a: unknown[]) => typeof res).apply(this, args);
      } as typeof res.end;
      app(req, res);
    });
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const at = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    try {
      // A page rendered at once, and one whose boundary resolves after the shell was sent.
      for (const url of ["/__test/fast", "/__test/stream?ms=50"]) {
        const { res } = await readChunks(`${at}${url}`);
        expect(res.statusCode).toBe(200);
      }
      expect(endedIn.length).toBeGreaterThanOrEqual(2);
      expect(endedIn.flat().filter(isReactRender)).toEqual([]);
    } finally {
      await new Promise<void>((r) => probe.close(() => r()));
    }
  });
});
