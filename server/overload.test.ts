import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { eventLoopLagSampler, type LagSampler, neverShed, overloadGuard, retryAfterSeconds } from "./overload";

function fixedLag(initial: number): LagSampler & { set(ms: number): void } {
  let lag = initial;
  return { lagMs: () => lag, set: (ms) => (lag = ms), stop: () => {} };
}

function appWith(thresholdMs: number, sampler: LagSampler) {
  const app = express();
  app.use(overloadGuard({ thresholdMs, sampler }));
  app.get("/{*splat}", (_req, res) => {
    res.type("text/plain").send("served");
  });
  return app;
}

describe("overloadGuard", () => {
  it("lets everything through while the lag is under the threshold", async () => {
    const app = appWith(200, fixedLag(199));
    const res = await request(app).get("/course/1");
    expect(res.status).toBe(200);
    expect(res.text).toBe("served");
  });

  it("answers a page 503 at once with Retry-After, no-store and a short Chinese message", async () => {
    const app = appWith(200, fixedLag(250));
    const res = await request(app).get("/course/1");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-type"]).toMatch(/^text\/plain; charset=utf-8/);
    expect(res.text).toBe("服务繁忙，请稍后再试");
  });

  it("answers the API with its JSON error shape", async () => {
    const app = appWith(200, fixedLag(2500));
    const res = await request(app).get("/api/home");
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("3");
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { code: "overloaded", message: "服务繁忙，请稍后再试" } });
    const post = await request(app).post("/api/orders").send({});
    expect(post.status).toBe(503);
  });

  it("never sheds the probes, the metrics or the built assets", async () => {
    const app = appWith(200, fixedLag(10_000));
    for (const path of ["/healthz", "/readyz", "/metrics", "/assets/entry-abc.js"]) {
      expect((await request(app).get(path)).status, path).toBe(200);
    }
  });

  it("admits again as soon as the lag falls back", async () => {
    const lag = fixedLag(500);
    const app = appWith(200, lag);
    expect((await request(app).get("/")).status).toBe(503);
    lag.set(50);
    expect((await request(app).get("/")).status).toBe(200);
  });

  it("is off at 0, whatever the lag", async () => {
    const app = appWith(0, fixedLag(60_000));
    expect((await request(app).get("/")).status).toBe(200);
  });
});

describe("retryAfterSeconds and neverShed", () => {
  it("waits one second per second of lag, from 1 to 5", () => {
    expect([0, 200, 1000, 1001, 4200, 30_000].map(retryAfterSeconds)).toEqual([1, 1, 1, 2, 5, 5]);
  });

  it("names only the probes, metrics and assets", () => {
    expect(["/healthz", "/readyz", "/metrics", "/assets/a.js"].every(neverShed)).toBe(true);
    expect(["/", "/api/home", "/healthz/x", "/assetsx", "/metrics2"].some(neverShed)).toBe(false);
  });
});

describe("eventLoopLagSampler", () => {
  /**
   * Keeps the loop busy for `ms`, in blocks of `blockMs` with a turn of the loop (timers
   * included) between them; the highest reading of the sampler seen between the blocks.
   */
  async function busyFor(sampler: LagSampler, ms: number, blockMs: number) {
    const end = performance.now() + ms;
    let seen = 0;
    while (performance.now() < end) {
      const until = Math.min(end, performance.now() + blockMs);
      while (performance.now() < until) {
        // keep the event loop busy
      }
      await new Promise((r) => setTimeout(r, 0));
      seen = Math.max(seen, sampler.lagMs());
    }
    return seen;
  }

  /** The highest reading over the next 300 ms (real time: the sampler's own tests only). */
  async function highestReading(sampler: LagSampler) {
    let seen = 0;
    for (let i = 0; i < 30; i += 1) {
      seen = Math.max(seen, sampler.lagMs());
      await new Promise((r) => setTimeout(r, 10));
    }
    return seen;
  }

  it("reports a loop that stays behind for more than one window", async () => {
    const sampler = eventLoopLagSampler({ intervalMs: 100 });
    try {
      // Past the first window, which the sampler drops (start-up work).
      await new Promise((r) => setTimeout(r, 150));
      expect(await busyFor(sampler, 1500, 300)).toBeGreaterThan(100);
    } finally {
      sampler.stop();
    }
  });

  it("lets one long block pass: a single late window is not a lasting lag", async () => {
    const sampler = eventLoopLagSampler({ intervalMs: 100 });
    try {
      await new Promise((r) => setTimeout(r, 250));
      const during = await busyFor(sampler, 300, 300);
      expect(Math.max(during, await highestReading(sampler))).toBeLessThan(100);
    } finally {
      sampler.stop();
    }
  });
});
