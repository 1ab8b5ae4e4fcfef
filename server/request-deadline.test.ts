/**
 * Per-route request deadlines: a body dribbled to an ordinary route is cut off (408) at its
 * deadline, a lesson video upload may go on arriving for as long as its own; the servers let
 * the slowest upload through.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { REQUEST_TIMEOUT_MS, requestDeadline, serverTimeouts, VIDEO_UPLOAD_TIMEOUT_MS } from "./request-deadline";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function start(): Promise<number> {
  const app = express();
  app.use(requestDeadline({ defaultMs: 400, videoUploadMs: 3000 }));
  const readAll: express.RequestHandler = (req, res) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.json({ bytes }));
  };
  app.post("/api/orders", readAll);
  app.post("/api/admin/lessons/:id/video", readAll);
  server = createServer(app);
  serverTimeouts(server);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `total` bytes, the first at once and the rest after `pauseMs`: the status, or "closed". */
function dribble(port: number, path: string, total: number, pauseMs: number): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, method: "POST", headers: { "Content-Length": total } });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", () => resolve("closed"));
    req.write(Buffer.alloc(1));
    setTimeout(() => {
      if (!req.destroyed) req.end(Buffer.alloc(total - 1));
    }, pauseMs);
  });
}

describe("request deadlines", () => {
  it("answers 408 to a body still arriving at an ordinary route's deadline", async () => {
    const port = await start();
    const started = Date.now();
    expect(await dribble(port, "/api/orders", 10, 1500)).toBe(408);
    expect(Date.now() - started).toBeLessThan(1400);
    // In time, the same route reads the body.
    expect(await dribble(port, "/api/orders", 10, 50)).toBe(200);
  });

  it("gives a lesson video upload its own, longer deadline", async () => {
    const port = await start();
    expect(await dribble(port, "/api/admin/lessons/12/video", 10, 1200)).toBe(200);
    expect(await dribble(port, "/api/admin/lessons/12/video", 10, 4000)).toBe(408);
  });

  it("lets a server take requests as long as the slowest upload, five minutes being the rest's", () => {
    const s = createServer();
    serverTimeouts(s);
    expect(s.requestTimeout).toBe(VIDEO_UPLOAD_TIMEOUT_MS);
    expect(VIDEO_UPLOAD_TIMEOUT_MS).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    expect(s.headersTimeout).toBeLessThan(s.requestTimeout);
    expect(s.keepAliveTimeout).toBeLessThan(s.headersTimeout);
  });
});
