/**
 * Metrics for Prometheus (the registry lives in api/metrics.ts): request counts and
 * latency by route pattern, and the endpoint that serves them. /metrics is never public: on the
 * main port it needs `Authorization: Bearer $METRICS_TOKEN` (404 when no token is configured),
 * and METRICS_PORT serves it on its own listener (loopback by default).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { httpDuration, httpRequests, metricsRegistry, startDefaultMetrics } from "../api/index";

export interface MetricsConfig {
  /** A separate listener for /metrics; absent: none. */
  port?: number;
  host: string;
  /** Bearer token for /metrics; absent: /metrics on the main port is 404. */
  token?: string;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Requests no route pattern names: a fixed label per kind, never the raw path. */
const EXACT = new Set([
  "/healthz",
  "/readyz",
  "/robots.txt",
  "/sitemap.xml",
  "/favicon.svg",
  "/favicon.ico",
  "/metrics",
]);
const PREFIXES = ["/assets", "/media", "/avatar", "/broadcast", "/api", "/dev"];

function routeLabel(req: Request, res: Response): string {
  const pattern = res.locals.routePattern;
  if (typeof pattern === "string") return pattern;
  const path = req.path;
  if (EXACT.has(path)) return path;
  const prefix = PREFIXES.find((p) => path === p || path.startsWith(`${p}/`));
  return prefix ? `${prefix}/*` : "unmatched";
}

/**
 * Counts one response and its time since `started` (`process.hrtime.bigint()`) by method, route
 * pattern and status; returns the seconds. Express's responses and the page cache's hits ahead
 * of it (server/page-cache.ts) are both counted here, so they share one set of labels.
 */
export function countResponse(method: string, route: string, status: number, started: bigint): number {
  const labels = { method: METHODS.has(method) ? method : "OTHER", route, status: String(status) };
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
  return seconds;
}

/** Counts and times every response by method, route pattern and status. */
export function httpMetrics(): RequestHandler {
  startDefaultMetrics();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => countResponse(req.method, routeLabel(req, res), res.statusCode, started));
    next();
  };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares the bearer token in constant time (both sides hashed to one length first). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(header ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(presented), digest(token));
}

async function answer(res: ServerResponse) {
  res.setHeader("Content-Type", metricsRegistry.contentType);
  res.setHeader("Cache-Control", "no-store");
  res.end(await metricsRegistry.metrics());
}

/** Checks the token (when one is configured); false when the request was refused. */
function admitted(req: IncomingMessage, res: ServerResponse, token: string | undefined): boolean {
  if (!token || bearerMatches(req.headers.authorization, token)) return true;
  res.statusCode = 401;
  res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.end("Unauthorized");
  return false;
}

/** GET /metrics on the main port: only with the configured bearer token. */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (!token) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    if (!admitted(req, res, token)) return;
    answer(res).catch(next);
  };
}

/** The separate listener (METRICS_PORT): /metrics only, with the token too when one is set. */
export async function startMetricsServer(config: MetricsConfig, logger: Logger): Promise<Server | null> {
  if (config.port === undefined) return null;
  startDefaultMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if ((req.method !== "GET" && req.method !== "HEAD") || path !== "/metrics") {
      res.statusCode = 404;
      res.end("Not Found");
      return;
    }
    if (!admitted(req, res, config.token)) return;
    answer(res).catch((err: unknown) => {
      logger.error({ err }, "metrics failed");
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  server.unref();
  return server;
}
