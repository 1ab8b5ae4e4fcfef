// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type IdempotencyKeyHolder, postIdempotent } from "./idempotent-post";

const ok = z.object({ ok: z.boolean() });
/** One learner action's key, kept between its attempts. */
let holder: IdempotencyKeyHolder;
const post = <T,>(path: string, body: unknown, schema: z.ZodType<T>) => postIdempotent(holder, path, body, schema);

let keys: string[];
let answers: Array<() => Response>;
beforeEach(() => {
  keys = [];
  answers = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      keys.push((init.headers as Record<string, string>)["Idempotency-Key"]!);
      const answer = answers.shift();
      if (!answer) throw new TypeError("Failed to fetch");
      return answer();
    }),
  );
  holder = { current: null };
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("postIdempotent", () => {
  it("keeps the key while the same request is retried after a network failure, and renews it once answered", async () => {
    await expect(post("/api/wallet/exchange", { bishan: 1 }, ok)).rejects.toThrow("Failed to fetch");
    answers.push(json(200, { ok: true }));
    await expect(post("/api/wallet/exchange", { bishan: 1 }, ok)).resolves.toEqual({ ok: true });
    answers.push(json(200, { ok: true }));
    await post("/api/wallet/exchange", { bishan: 1 }, ok);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it("a refusal ends the action; another body is another action", async () => {
    answers.push(json(409, { message: "金币余额不足" }));
    await expect(post("/api/wallet/exchange", { bishan: 1 }, ok)).rejects.toMatchObject({ statusCode: 409 });
    await expect(post("/api/wallet/exchange", { bishan: 1 }, ok)).rejects.toThrow("Failed to fetch");
    await expect(post("/api/wallet/exchange", { bishan: 2 }, ok)).rejects.toThrow("Failed to fetch");
    expect(new Set(keys).size).toBe(3);
  });
});
