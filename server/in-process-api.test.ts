import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { microCache } from "../api/micro-cache";
import { createAjax, JSON_VALUE } from "../shared/ajax";
import { IN_PROCESS_ORIGIN, createInProcessApi, type PageSession } from "./in-process-api";

const logger = pino({ level: "silent" });

/** An API that says what it saw of the request. */
function echoRouter() {
  const router = express.Router();
  router.use(express.json());
  router.all("/echo", (req, res) => {
    res.cookie("seen", "1", { httpOnly: true });
    res.status(req.method === "POST" ? 201 : 200).json({
      method: req.method,
      url: req.originalUrl,
      ip: req.ip,
      cookie: req.get("cookie") ?? null,
      requestId: req.get("x-request-id") ?? null,
      body: req.body ?? null,
    });
  });
  // What the API's session middleware would find in place for this call.
  router.all("/session", (_req, res) => {
    res.json({ handedOver: res.locals.auth !== undefined, auth: res.locals.auth ?? null });
  });
  router.get("/slow", (_req, res) => {
    res.on("close", () => {
      if (!res.writableFinished) slowClosed = true;
    });
  });
  return router;
}
let slowClosed = false;

/** An API whose answer holds what JSON writes in its own way, from an object it keeps. */
const kept = { at: new Date("2026-12-01T08:00:00.000Z"), note: undefined, rows: [{ id: 1, tags: ["楷"] }] };
function keptRouter() {
  const router = express.Router();
  router.get("/kept", (_req, res) => {
    res.json(kept);
  });
  let calls = 0;
  router.get("/catalogue", microCache({ ttlMs: 60_000 }), (_req, res) => {
    calls++;
    res.setHeader("Cache-Control", "public, max-age=60");
    res.json({ calls, at: new Date(0) });
  });
  return router;
}

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

describe("the in-process API for page loaders", () => {
  it("answers through the shared ajax client with the visitor's cookie, request id and IP, no forged header counts", async () => {
    const api = createInProcessApi(echoRouter(), logger);
    const ajax = createAjax({
      baseUrl: IN_PROCESS_ORIGIN,
      headers: { cookie: "mochi_session=abc", "x-request-id": "req-12345678", "x-forwarded-for": "6.6.6.6" },
      fetch: api.fetchFor("203.0.113.7"),
    });
    const got = await ajax<Record<string, unknown>>("/api/echo?x=1");
    expect(got).toEqual({
      method: "GET",
      url: "/api/echo?x=1",
      ip: "203.0.113.7",
      cookie: "mochi_session=abc",
      requestId: "req-12345678",
      body: null,
    });
    const posted = await ajax<Record<string, unknown>>("/api/echo", { method: "POST", body: { 字: "永" } });
    expect(posted).toMatchObject({ method: "POST", body: { 字: "永" } });
  });

  it("hands the page's session read to reading calls only, and no header can hand one over", async () => {
    const api = createInProcessApi(echoRouter(), logger);
    const auth = { user: { id: 7, nickname: "临帖" }, sessionIdHash: "hash-7" };
    const session = { auth } as unknown as PageSession;
    const read = createAjax({ baseUrl: IN_PROCESS_ORIGIN, fetch: api.fetchFor("127.0.0.1", session) });
    expect(await read("/api/session")).toEqual({ handedOver: true, auth });
    // A signed-out visitor's page hands over "nobody": the API need not look for a session.
    const nobody = createAjax({ baseUrl: IN_PROCESS_ORIGIN, fetch: api.fetchFor("127.0.0.1", { auth: null }) });
    expect(await nobody("/api/session")).toEqual({ handedOver: true, auth: null });
    // A call that changes something reads the session for itself.
    expect(await read("/api/session", { method: "POST", body: {} })).toEqual({ handedOver: false, auth: null });
    // Without a page session nothing is in place, whatever the headers say.
    const plain = createAjax({
      baseUrl: IN_PROCESS_ORIGIN,
      headers: { "x-page-session": JSON.stringify({ ...auth, user: { id: 7 } }), authorization: "Bearer x" },
      fetch: api.fetchFor("127.0.0.1"),
    });
    expect(await plain("/api/session")).toEqual({ handedOver: false, auth: null });
    // Calls of one page do not leak into the next: each fetch carries its own.
    const [a, b] = await Promise.all([read("/api/session"), plain("/api/session")]);
    expect(a).toMatchObject({ handedOver: true });
    expect(b).toMatchObject({ handedOver: false });
  });

  it("hands a JSON answer over as a value: no JSON written by the API nor parsed by the loader", async () => {
    const api = createInProcessApi(keptRouter(), logger);
    const ajax = createAjax({ baseUrl: IN_PROCESS_ORIGIN, fetch: api.fetchFor("127.0.0.1") });
    const stringify = vi.spyOn(JSON, "stringify");
    const parse = vi.spyOn(JSON, "parse");
    try {
      const got = await ajax<typeof kept>("/api/kept");
      // What the bytes would have read as: the date as its ISO string, no undefined member.
      expect(got).toStrictEqual({ at: "2026-12-01T08:00:00.000Z", rows: [{ id: 1, tags: ["楷"] }] });
      // (The request log writes its own lines; the answer is never written nor read as text.)
      expect(stringify.mock.calls.filter(([value]) => value === kept)).toEqual([]);
      expect(parse.mock.calls.filter(([text]) => String(text).includes("rows"))).toEqual([]);
      // The loader's copy is its own: changing it leaves the handler's object as it was.
      got.rows[0]!.tags.push("行");
      expect(kept.rows[0]!.tags).toEqual(["楷"]);
    } finally {
      stringify.mockRestore();
      parse.mockRestore();
    }
    // Any other reader of the fetch still reads the JSON the API would have written.
    const res = await api.fetchFor("127.0.0.1")(`${IN_PROCESS_ORIGIN}/api/kept`);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON_VALUE in res).toBe(true);
    expect(await res.text()).toBe(JSON.stringify(kept));
  });

  it("hands the micro-cache's kept answer over as a fresh copy each time, and network callers get its JSON", async () => {
    const router = keptRouter();
    const api = createInProcessApi(router, logger);
    const ajax = createAjax({ baseUrl: IN_PROCESS_ORIGIN, fetch: api.fetchFor("127.0.0.1") });
    const first = await ajax<{ calls: number; at: string }>("/api/catalogue");
    expect(first).toStrictEqual({ calls: 1, at: "1970-01-01T00:00:00.000Z" });
    first.calls = 99;
    const parse = vi.spyOn(JSON, "parse");
    const second = await ajax<{ calls: number }>("/api/catalogue");
    const parsed = parse.mock.calls.filter(([text]) => String(text).includes("calls"));
    parse.mockRestore();
    expect(parsed).toEqual([]);
    expect(second).toStrictEqual({ calls: 1, at: "1970-01-01T00:00:00.000Z" });
    expect(second).not.toBe(first);
    // The same kept answer over HTTP: written once as JSON from the kept value.
    const site = express();
    site.use("/api", router);
    const server = createServer(site).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const reply = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/catalogue`, {
      signal: AbortSignal.timeout(3000),
    });
    expect(reply.headers.get("x-micro-cache")).toBe("hit");
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await reply.text()).toBe('{"calls":1,"at":"1970-01-01T00:00:00.000Z"}');
  });

  it("keeps status and headers, Set-Cookie included, and a 404 stays a 404", async () => {
    const api = createInProcessApi(echoRouter(), logger);
    const fetchIt = api.fetchFor("127.0.0.1");
    const res = await fetchIt(`${IN_PROCESS_ORIGIN}/api/echo`, { method: "POST" });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.getSetCookie()[0]).toMatch(/^seen=1;.*HttpOnly/);
    expect((await fetchIt(`${IN_PROCESS_ORIGIN}/api/none`)).status).toBe(404);
    await expect(fetchIt("http://127.0.0.1:9/api/echo")).rejects.toThrow(/not an in-process API URL/);
  });

  it("a timeout ends the call (504 from ajax) and the API sees its client go", async () => {
    slowClosed = false;
    const api = createInProcessApi(echoRouter(), logger);
    const ajax = createAjax({ baseUrl: IN_PROCESS_ORIGIN, timeoutMs: 100, fetch: api.fetchFor("127.0.0.1") });
    const started = Date.now();
    await expect(ajax("/api/slow")).rejects.toMatchObject({ statusCode: 504 });
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 20));
    expect(slowClosed).toBe(true);
  });

  it("leaves the other Express apps of the process alone (their real requests still work)", async () => {
    const api = createInProcessApi(echoRouter(), logger);
    await api.fetchFor("127.0.0.1")(`${IN_PROCESS_ORIGIN}/api/echo`);
    const site = express();
    site.set("trust proxy", false);
    site.get("/who", (req, res) => res.json({ ip: req.ip }));
    const server = createServer(site).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const reply = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/who`, {
      signal: AbortSignal.timeout(3000),
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ ip: "127.0.0.1" });
  });
});
