/**
 * How long a request may take to arrive whole, body included, per route (reference: "a
 * requestTimeout that covers the slowest upload, with per-route upload size and time caps").
 * Node's requestTimeout is one number for a whole server: the servers set it to the slowest upload
 * there is, a lesson video (`serverTimeouts`), and `requestDeadline` holds every other request to
 * the five minutes that were Node's default. A body still arriving at its deadline is answered 408
 * and its connection closed. Behind nginx, uploads are streamed through as they arrive
 * (deploy/nginx.conf), so these deadlines are the ones a slow connection meets.
 */
import type { Server } from "node:http";
import type { RequestHandler } from "express";
import { VIDEO_BODY_ROUTES } from "../api/index";

/** Any request but a lesson video upload: Node's own default. */
export const REQUEST_TIMEOUT_MS = 300_000;
/** A lesson video upload: 2 GB (VIDEO_UPLOAD_MAX_MB's default) at about 2.5 Mbit/s. */
export const VIDEO_UPLOAD_TIMEOUT_MS = 2 * 3_600_000;

/** The servers' socket timeouts: idle keep-alive, headers, and the longest request of all. */
export function serverTimeouts(server: Server): void {
  // Longer than a load balancer's 60 s idle timeout, so the balancer closes idle sockets first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = VIDEO_UPLOAD_TIMEOUT_MS;
}

const isVideoUpload = (method: string, path: string) =>
  path.startsWith("/api/") && VIDEO_BODY_ROUTES.some((r) => r.method === method && r.path.test(path.slice(4)));

const TIMED_OUT = JSON.stringify({ error: { code: "request_timeout", message: "请求发送太慢，已超时，请重试" } });

/** Holds each request with a body to its route's deadline (the app's first middleware). */
export function requestDeadline(
  limits: { defaultMs: number; videoUploadMs: number } = {
    defaultMs: REQUEST_TIMEOUT_MS,
    videoUploadMs: VIDEO_UPLOAD_TIMEOUT_MS,
  },
): RequestHandler {
  return (req, res, next) => {
    const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
    if (!hasBody || req.complete) return next();
    const ms = isVideoUpload(req.method, req.path) ? limits.videoUploadMs : limits.defaultMs;
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (res.headersSent) return void req.socket.destroy();
      res.writeHead(408, { "Content-Type": "application/json; charset=utf-8", Connection: "close" }).end(TIMED_OUT);
      // The rest of the body is never read: the connection goes once the answer is out.
      res.once("finish", () => req.socket.destroy());
    }, ms);
    timer.unref();
    res.once("close", () => clearTimeout(timer));
    next();
  };
}
