/**
 * Overload shedding in the whole site (decision 027): with the event loop reported as lagging,
 * pages and API calls are answered 503 at once, the probes and metrics are not, a page admitted
 * before the lag finishes normally, and every shed request is counted.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LagSampler } from "../../server/overload";
import { testApp } from "./helpers";

const TOKEN = "metrics-token-for-overload-0123456789";
let lag = 0;
const sampler: LagSampler = { lagMs: () => lag, stop: () => {} };
let app: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  app = await testApp(
    {},
    { lagSampler: sampler },
    { OVERLOAD_LAG_MS: "200", METRICS_TOKEN: TOKEN },
    { catalogue: true },
  );
});
afterAll(async () => {
  await app.dispose();
});

const shedCount = async (kind: string) => {
  const res = await request(app.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  return Number(new RegExp(`^mochi_overload_shed_total\\{kind="${kind}"\\} (\\d+)`, "m").exec(res.text)?.[1] ?? 0);
};

describe("overload shedding", () => {
  it("serves pages and the API while the lag is under OVERLOAD_LAG_MS", async () => {
    lag = 150;
    expect((await request(app.app).get("/")).status).toBe(200);
    expect((await request(app.app).get("/api/home")).status).toBe(200);
  });

  it("answers pages and API calls 503 at once past it, and counts them", async () => {
    lag = 0;
    const pagesBefore = await shedCount("page");
    const apiBefore = await shedCount("api");
    lag = 1800;
    try {
      const page = await request(app.app).get("/product/list");
      expect(page.status).toBe(503);
      expect(page.headers["retry-after"]).toBe("2");
      expect(page.headers["cache-control"]).toBe("no-store");
      expect(page.headers["x-request-id"]).toBeTruthy();
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      expect(page.text).toBe("服务繁忙，请稍后再试");

      const api = await request(app.app).get("/api/courses");
      expect(api.status).toBe(503);
      expect(api.headers["retry-after"]).toBe("2");
      expect(api.body).toEqual({ error: { code: "overloaded", message: "服务繁忙，请稍后再试" } });
    } finally {
      lag = 0;
    }
    expect(await shedCount("page")).toBe(pagesBefore + 1);
    expect(await shedCount("api")).toBe(apiBefore + 1);
  });

  it("always answers the probes and the metrics", async () => {
    lag = 10_000;
    try {
      expect((await request(app.app).get("/healthz")).status).toBe(200);
      expect((await request(app.app).get("/readyz")).status).toBe(200);
      const metrics = await request(app.app).get("/metrics").set("Authorization", `Bearer ${TOKEN}`);
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain("mochi_overload_event_loop_lag_seconds");
    } finally {
      lag = 0;
    }
  });

  it("finishes a page admitted before the lag, its late API call included", async () => {
    lag = 0;
    // supertest sends on then(): start it now.
    const pending = request(app.app)
      .get("/__test/slow?ms=300&api=1")
      .then((r) => r);
    // Let the request in, then report the loop as lagging while its loader waits.
    await new Promise((r) => setTimeout(r, 100));
    lag = 5000;
    try {
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.text).toContain("接口正常");
      expect((await request(app.app).get("/")).status).toBe(503);
    } finally {
      lag = 0;
    }
    expect((await request(app.app).get("/")).status).toBe(200);
  });
});
