import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import type { User } from "./db/schema";
import { microCache } from "./micro-cache";

function appWith(options: { signedIn?: boolean; cacheControl?: string; status?: number; sameForEveryone?: boolean }) {
  let clock = 1_000;
  let calls = 0;
  const app = express();
  app.use((_req, res, next) => {
    // Only whether someone is signed in matters to the cache.
    res.locals.auth = options.signedIn ? { user: { id: 1 } as User, sessionIdHash: "x", steppedUp: false } : null;
    next();
  });
  app.use(microCache({ ttlMs: 5000, now: () => clock, sameForEveryone: options.sameForEveryone }));
  app.get("/slow", async (_req, res) => {
    calls++;
    await new Promise((r) => setTimeout(r, 30));
    res.setHeader("Cache-Control", options.cacheControl ?? "public, max-age=60");
    res.status(options.status ?? 200).json({ calls });
  });
  return {
    app,
    calls: () => calls,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe("the catalogue micro-cache", () => {
  it("answers repeats of a public answer from memory until it expires", async () => {
    const t = appWith({});
    const first = await request(t.app).get("/slow").expect(200);
    const second = await request(t.app).get("/slow").expect(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers["x-micro-cache"]).toBe("hit");
    expect(second.headers["cache-control"]).toBe("public, max-age=60");
    expect(second.headers["content-type"]).toMatch(/json/);
    expect(t.calls()).toBe(1);
    t.advance(5001);
    const third = await request(t.app).get("/slow").expect(200);
    expect(third.body).toEqual({ calls: 2 });
  });

  it("lets one request reach the endpoint while the others asking at the same time wait for it", async () => {
    const t = appWith({});
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(t.app).get("/slow")));
    expect(answers.every((a) => a.status === 200 && a.body.calls === 1)).toBe(true);
    expect(t.calls()).toBe(1);
  });

  it("keeps nothing personal, private or failed", async () => {
    const signedIn = appWith({ signedIn: true });
    await request(signedIn.app).get("/slow");
    await request(signedIn.app).get("/slow");
    expect(signedIn.calls()).toBe(2);

    const privateAnswer = appWith({ cacheControl: "private, no-store" });
    await request(privateAnswer.app).get("/slow");
    await request(privateAnswer.app).get("/slow");
    expect(privateAnswer.calls()).toBe(2);

    const failed = appWith({ status: 503 });
    await request(failed.app).get("/slow");
    await request(failed.app).get("/slow");
    expect(failed.calls()).toBe(2);
  });

  it("keeps a private answer that is the same for everyone when told so, and replays its headers", async () => {
    const t = appWith({ cacheControl: "private, no-store", sameForEveryone: true });
    await request(t.app).get("/slow").expect(200);
    const second = await request(t.app).get("/slow").expect(200);
    expect(second.headers["x-micro-cache"]).toBe("hit");
    expect(second.headers["cache-control"]).toBe("private, no-store");
    expect(t.calls()).toBe(1);

    const signedIn = appWith({ signedIn: true, sameForEveryone: true });
    await request(signedIn.app).get("/slow");
    await request(signedIn.app).get("/slow");
    expect(signedIn.calls()).toBe(2);
  });

  it("keys by the whole address, query included", async () => {
    const t = appWith({});
    await request(t.app).get("/slow?page=1");
    await request(t.app).get("/slow?page=2");
    await request(t.app).get("/slow?page=1");
    expect(t.calls()).toBe(2);
  });
});
