/**
 * Upstreams that hang (accept the connection, never answer): the proxies answer 504 within
 * UPSTREAM_TIMEOUT_MS and log a warning naming the upstream; a slow but live event stream is
 * not cut; /readyz asks the remote API (briefly, cached).
 */
import { createServer, type Server } from "node:http";
import net from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeServer, testApp, capturedLogger } from "./helpers";

const BUDGET_MS = 400;

/** Accepts connections and never says a word. */
let hanging: net.Server;
const held = new Set<net.Socket>();
let hangingOrigin: string;

beforeAll(async () => {
  hanging = net.createServer((socket) => {
    held.add(socket);
    socket.on("close", () => held.delete(socket));
  });
  await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r));
  hangingOrigin = `http://127.0.0.1:${(hanging.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((r) => hanging.close(() => r()));
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe("a hung upstream", () => {
  it("is 504 within the budget: JSON for /api, a Chinese page for media, and a warning naming it", async () => {
    const { logger, lines } = capturedLogger();
    const { app } = await testApp(
      {
        apiOrigin: hangingOrigin,
        avatarOrigin: hangingOrigin,
        broadcastOrigin: hangingOrigin,
        upstreamTimeoutMs: BUDGET_MS,
      },
      { logger },
    );
    const api = await timed(() => request(app).get("/api/courses?phone=13800138000"));
    expect(api.value.status).toBe(504);
    expect(api.value.body).toEqual({ error: { code: "gateway_timeout", message: "上游服务响应超时，请稍后再试" } });
    expect(api.ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    expect(api.ms).toBeLessThan(BUDGET_MS + 1500);

    for (const path of ["/avatar/a1b2.webp", "/broadcast/demo/index.m3u8"]) {
      const media = await timed(() => request(app).get(path));
      expect(media.value.status, path).toBe(504);
      expect(media.value.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(media.value.text).toContain("<title>504 请求超时</title>");
      expect(media.value.text).toContain("上游服务响应超时");
      expect(media.ms).toBeLessThan(BUDGET_MS + 1500);
    }

    const warnings = lines.filter((l) => l.msg === "upstream timed out");
    expect(warnings.map((w) => (w.upstream as { mount: string }).mount)).toEqual(["/api", "/avatar", "/broadcast"]);
    expect(warnings[0]).toMatchObject({ level: 40, status: 504, upstream: { origin: hangingOrigin } });
    expect(JSON.stringify(warnings)).not.toContain("13800138000");
  });

  it("a page whose data never comes is the site's error page for 504, in Chinese, never the client's English text", async () => {
    const { app } = await testApp({ apiOrigin: hangingOrigin, upstreamTimeoutMs: BUDGET_MS });
    const res = await request(app).get("/books").set("Accept", "text/html");
    expect(res.status).toBe(504);
    expect(res.text).toMatch(/<title>请求超时 - [^<]+<\/title>/);
    expect(res.text).toContain('<h1 class="error-page__status">504</h1>');
    expect(res.text).toContain('<p class="error-page__message">请求超时</p>');
    expect(res.text).toContain("服务器这次没能及时答复");
    expect(res.text).toContain(">Go back to home</a>");
    // Monitoring still finds the spec's text, in an attribute; nothing a visitor reads is English.
    expect(res.text).toContain('data-error="ajax timeout"');
    const visible = res.text
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, "")
      .replace(/<[^>]*>/g, " ")
      .replace(/Go back to home/g, "");
    expect(visible).not.toMatch(/ajax|timeout/i);
  });

  it("an event stream that started answering is not cut by the budget", async () => {
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(": open\n\n");
      setTimeout(() => res.end("data: {}\n\n"), BUDGET_MS * 2);
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`;
    const { app } = await testApp({ apiOrigin: origin, upstreamTimeoutMs: BUDGET_MS });
    const res = await request(app).get("/api/live/1/events");
    expect(res.status).toBe(200);
    expect(res.text).toBe(": open\n\ndata: {}\n\n");
    await new Promise<void>((r) => upstream.close(() => r()));
  });
});

describe("readiness with API_ORIGIN", () => {
  let healthy: Server;
  let healthyOrigin: string;
  let probes = 0;

  beforeAll(async () => {
    healthy = createServer((req, res) => {
      if (req.url === "/healthz") probes += 1;
      res.setHeader("Content-Type", "application/json");
      res.end('{"status":"ok"}');
    });
    await new Promise<void>((r) => healthy.listen(0, "127.0.0.1", r));
    healthyOrigin = `http://127.0.0.1:${(healthy.address() as net.AddressInfo).port}`;
  });

  afterAll(async () => {
    await closeServer(healthy);
  });

  it("is ready while the API answers its /healthz, probed at most once per couple of seconds", async () => {
    const { app } = await testApp({ apiOrigin: healthyOrigin });
    for (let i = 0; i < 5; i++) {
      const res = await request(app).get("/readyz");
      expect(res.status).toBe(200);
      expect(res.body.checks).toEqual({ api: "ok" });
    }
    expect(probes).toBe(1);
  });

  it("is not ready, quickly, when the API hangs", async () => {
    const { app } = await testApp({ apiOrigin: hangingOrigin });
    const res = await timed(() => request(app).get("/readyz"));
    expect(res.value.status).toBe(503);
    expect(res.value.body.checks).toEqual({ api: "failing" });
    expect(res.ms).toBeLessThan(2500);
  });
});
