import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AjaxError, createAjax } from "./ajax";
import { normalizeError } from "./errors";

const respond = (status: number, body: unknown) => async () =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), { status });

describe("ajax client", () => {
  it("returns the parsed body, validated by the schema", async () => {
    const ajax = createAjax({ fetch: respond(200, { n: 1 }) });
    expect(await ajax("/x", { schema: z.object({ n: z.number() }) })).toEqual({ n: 1 });
  });

  it('reports "ajax error {status}" for 400 and above, with the status', async () => {
    const ajax = createAjax({ fetch: respond(404, { error: { code: "not_found", message: "无" } }) });
    const err = await ajax("/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AjaxError);
    expect(normalizeError(err)).toEqual({ statusCode: 404, message: "ajax error 404" });
    expect((err as AjaxError).body).toEqual({ error: { code: "not_found", message: "无" } });
    const err500 = await createAjax({ fetch: respond(500, "oops") })("/x").catch((e: unknown) => e);
    expect((err500 as Error).message).toBe("ajax error 500");
  });

  it('reports "ajax timeout" when the time limit passes', async () => {
    const never: typeof fetch = (_input, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    const err = await createAjax({ fetch: never, timeoutMs: 30 })("/slow").catch((e: unknown) => e);
    expect((err as Error).message).toBe("ajax timeout");
  });

  it("a caller's abort is not a timeout", async () => {
    const never: typeof fetch = (_input, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    const controller = new AbortController();
    const pending = createAjax({ fetch: never, timeoutMs: 10_000 })("/slow", { signal: controller.signal });
    controller.abort();
    const err = await pending.catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
  });

  it("a body that breaks the contract is a 502", async () => {
    const err = await createAjax({ fetch: respond(200, { n: "one" }) })("/x", {
      schema: z.object({ n: z.number() }),
    }).catch((e: unknown) => e);
    expect((err as AjaxError).statusCode).toBe(502);
  });

  it("takes a promise of the schema (a contract loaded on demand) and validates with it", async () => {
    const ajax = createAjax({ fetch: respond(200, { n: 1 }) });
    const schema = Promise.resolve(z.object({ n: z.number() }));
    expect(await ajax("/x", { schema })).toEqual({ n: 1 });
    const bad = await createAjax({ fetch: respond(200, { n: "one" }) })("/x", { schema }).catch((e: unknown) => e);
    expect((bad as AjaxError).statusCode).toBe(502);
  });

  it("a request failing before its schema loaded reports the request's error, not the schema's", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const schema = Promise.reject<z.ZodType<{ n: number }>>(new Error("chunk failed"));
      const err = await createAjax({ fetch: respond(404, {}) })("/x", { schema }).catch((e: unknown) => e);
      expect((err as Error).message).toBe("ajax error 404");
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
