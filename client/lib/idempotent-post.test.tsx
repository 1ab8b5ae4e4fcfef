// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { useIdempotentPost } from "./idempotent-post";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ok = z.object({ ok: z.boolean() });
let post: ReturnType<typeof useIdempotentPost>;
function Probe() {
  post = useIdempotentPost();
  return null;
}

let root: Root;
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
  root = createRoot(document.createElement("div"));
  act(() => root.render(<Probe />));
});
afterEach(() => {
  act(() => root.unmount());
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("useIdempotentPost", () => {
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
