import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAjax } from "../shared/ajax";
import { IN_PROCESS_ORIGIN, createInProcessApi } from "./in-process-api";

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
  router.get("/slow", (_req, res) => {
    res.on("close", () => {
      if (!res.writableFinished) slowClosed = true;
    });
  });
  return router;
}
let slowClosed = false;

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
