/**
 * Every response carries nosniff and a frame ban, and HSTS on an HTTPS origin in production:
 * the API (answers and errors), health checks, proxies' error pages, avatar 404s, static files
 * and pages alike.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientDir, closedPort, testApp } from "./helpers";

type TestApp = Awaited<ReturnType<typeof testApp>>;
const HTTPS = { production: true, publicOrigin: "https://www.mochi.example" };

let site: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  site = await testApp(HTTPS);
  const dead = `http://127.0.0.1:${await closedPort()}`;
  proxied = await testApp({ ...HTTPS, apiOrigin: dead, avatarOrigin: dead, broadcastOrigin: dead });
});

afterAll(async () => {
  await proxied?.dispose();
  await site?.dispose();
});

function builtAsset(): string {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    { file: string }
  >;
  return `/${Object.values(manifest)[0]!.file}`;
}

function expectGuarded(res: request.Response, what: string) {
  expect(res.headers["x-content-type-options"], what).toBe("nosniff");
  expect(res.headers["strict-transport-security"], what).toMatch(/^max-age=31536000; includeSubDomains/);
  const csp = String(res.headers["content-security-policy"] ?? "");
  const framed =
    /frame-ancestors '(none|self)'/.test(csp) || /^(DENY|SAMEORIGIN)$/.test(res.headers["x-frame-options"] ?? "");
  expect(framed, `${what}: frame-ancestors or X-Frame-Options`).toBe(true);
}

describe("security headers on every response", () => {
  it("the site: API, health checks, uploads, static files, pages, errors", async () => {
    const walk: [string, string, number][] = [
      ["GET", "/api/courses", 200],
      ["GET", "/api/no-such-endpoint", 404],
      ["POST", "/api/auth/sms/send", 403],
      ["GET", "/healthz", 200],
      ["GET", "/readyz", 200],
      ["GET", "/avatar/missing.webp", 404],
      ["GET", builtAsset(), 200],
      ["GET", "/assets/missing.js", 404],
      ["GET", "/robots.txt", 200],
      ["GET", "/favicon.svg", 200],
      ["GET", "/sitemap.xml", 200],
      ["GET", "/media/video/missing.mp4", 404],
      ["GET", "/broadcast/demo/index.m3u8", 200],
      ["GET", "/", 200],
      ["GET", "/no-such-page", 404],
      ["POST", "/", 405],
    ];
    for (const [method, url, status] of walk) {
      const res = await request(site.app)[method === "GET" ? "get" : "post"](url).set("Cookie", "x=1");
      expect(res.status, `${method} ${url}`).toBe(status);
      expectGuarded(res, `${method} ${url}`);
    }
  });

  it("the proxies' error pages", async () => {
    for (const url of ["/api/courses", "/avatar/a.webp", "/broadcast/demo/index.m3u8"]) {
      const res = await request(proxied.app).get(url);
      expect(res.status, url).toBe(502);
      expectGuarded(res, url);
    }
  });

  it("no HSTS on a plain-HTTP origin", async () => {
    const local = await testApp();
    const res = await request(local.app).get("/api/courses");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    await local.dispose();
  });
});
