/**
 * /metrics: refused without the token, Prometheus text with it, labelled by route patterns
 * (never raw paths), and served on its own port when METRICS_PORT is set.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJobTick } from "../../api/jobs/registry";
import { startMetricsServer } from "../../server/metrics";
import { closeServer, listen, TestBrowser, testApp, testAppOnSameDatabase } from "./helpers";
import { readEventStream } from "./sse";

const TOKEN = "metrics-token-for-tests-0123456789";
let app: Awaited<ReturnType<typeof testApp>>;
let server: Server;
let base: string;

beforeAll(async () => {
  app = await testApp({}, {}, { METRICS_TOKEN: TOKEN }, { catalogue: true });
  ({ server, base } = await listen(app.app));
});
afterAll(async () => {
  await closeServer(server);
  await app.dispose();
});

const scrape = async () => {
  const res = await request(app.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  return res.text;
};

describe("/metrics", () => {
  it("is refused without the token or with a wrong one, and is 404 when no token is configured", async () => {
    expect((await request(app.app).get("/metrics")).status).toBe(401);
    const wrong = await request(app.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.text).not.toContain("mochi_");
    const bare = await testAppOnSameDatabase(app);
    try {
      const res = await request(bare.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain("mochi_");
    } finally {
      await bare.dispose();
    }
  });

  it("reports every family after a page, an API request, a stream and a job run, labelled by route patterns", async () => {
    const course = await app.services!.database.db.selectFrom("courses").select("id").executeTakeFirstOrThrow();
    expect((await request(app.app).get(`/course/${course.id}`)).status).toBe(200);
    expect((await request(app.app).get(`/api/courses/${course.id}`)).status).toBe(200);
    expect((await request(app.app).get("/api/courses/999999")).status).toBe(404);
    expect((await request(app.app).get("/nowhere/at/all")).status).toBe(404);
    let ran = 0;
    await runJobTick(app.services!.api, {
      name: "metrics-probe",
      everyMs: 60_000,
      run: async () => {
        ran++;
      },
    });
    expect(ran).toBe(1);

    const browser = new TestBrowser(base);
    const ticket = await browser.json("POST", "/api/auth/qr", {});
    const stream = await readEventStream(browser, `/api/auth/qr/${ticket.body.ticket}/events`);
    expect(stream.res.status).toBe(200);
    const whileOpen = await scrape();
    await stream.close();

    const res = await request(app.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    for (const family of [
      "mochi_http_requests_total",
      "mochi_http_request_duration_seconds",
      "mochi_ssr_render_seconds",
      "mochi_ssr_loader_seconds",
      "mochi_db_pool_connections",
      "mochi_db_pool_waiting",
      "nodejs_eventloop_lag_seconds",
      "mochi_sse_open_streams",
      "mochi_job_runs_total",
      "mochi_job_failures_total",
      "mochi_payments_total",
      "mochi_refunds_total",
    ]) {
      expect(text, family).toContain(`# TYPE ${family} `);
    }
    expect(text).toMatch(/mochi_http_requests_total\{method="GET",route="\/course\/:id",status="200"\} [1-9]/);
    expect(text).toMatch(/mochi_http_requests_total\{method="GET",route="\/api\/courses\/:id",status="200"\} [1-9]/);
    expect(text).toMatch(/mochi_http_requests_total\{method="GET",route="\/api\/courses\/:id",status="404"\} [1-9]/);
    expect(text).toMatch(/mochi_http_requests_total\{method="GET",route="unmatched page",status="404"\} [1-9]/);
    expect(text).toMatch(/mochi_ssr_render_seconds_count\{route="\/course\/:id",stage="shell"\} [1-9]/);
    expect(text).toMatch(/mochi_ssr_render_seconds_count\{route="\/course\/:id",stage="complete"\} [1-9]/);
    expect(text).toMatch(/mochi_ssr_loader_seconds_count\{route="\/course\/:id"\} [1-9]/);
    expect(text).toMatch(/mochi_job_runs_total\{job="metrics-probe"\} 1/);
    expect(whileOpen).toMatch(/mochi_sse_open_streams [1-9]/);
    // Raw paths and ids never become labels.
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect(routes).toContain("/api/auth/qr/:ticket/events");
    for (const route of routes) expect(route).not.toMatch(/\/\d|nowhere/);
    expect(text).not.toContain(ticket.body.ticket);
    if (app.services!.database.kind === "postgres") {
      expect(text).toMatch(/mochi_db_pool_connections\{state="in_use"\} \d/);
      expect(text).toMatch(/mochi_db_pool_waiting\{pool="main"\} \d/);
    }
  });

  it("is served on a port of its own (METRICS_PORT), only at /metrics, with the token when one is set", async () => {
    const own = await startMetricsServer({ port: 0, host: "127.0.0.1", token: TOKEN }, pino({ level: "silent" }));
    try {
      const port = (own!.address() as AddressInfo).port;
      const url = `http://127.0.0.1:${port}`;
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const ok = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("# TYPE mochi_http_requests_total counter");
      expect((await fetch(`${url}/`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      own?.close();
    }
    const open = await startMetricsServer({ port: 0, host: "127.0.0.1" }, pino({ level: "silent" }));
    try {
      const res = await fetch(`http://127.0.0.1:${(open!.address() as AddressInfo).port}/metrics`);
      expect(res.status).toBe(200);
    } finally {
      open?.close();
    }
  });
});
