/**
 * The process's metrics (Prometheus, prom-client): one registry the API modules record into
 * and the web server exposes (server/metrics.ts). Labels carry route patterns, job names
 * and outcomes only: never a raw path, an id or anything about a person.
 */
import type { RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: "mochi_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: "mochi_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its response, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: SECONDS,
  registers,
});

export const ssrRender = new Histogram({
  name: "mochi_ssr_render_seconds",
  help: "Server rendering from the route match to the shell being ready (stage=shell) and to the end of the document (stage=complete).",
  labelNames: ["route", "stage"] as const,
  buckets: SECONDS,
  registers,
});

export const ssrLoaders = new Histogram({
  name: "mochi_ssr_loader_seconds",
  help: "Route middleware, validation and page loaders of a server-rendered page, by route pattern.",
  labelNames: ["route"] as const,
  buckets: SECONDS,
  registers,
});

export const pageCacheRequests = new Counter({
  name: "mochi_page_cache_requests_total",
  help: "Anonymous page requests the page cache could answer: hit (from memory) or miss (rendered).",
  labelNames: ["outcome"] as const,
  registers,
});

export const pageCacheInvalidations = new Counter({
  name: "mochi_page_cache_invalidations_total",
  help: "Times this node emptied its page cache (a catalogue change on any node, or LISTEN restored).",
  registers,
});

export const pageCacheBytes = new Gauge({
  name: "mochi_page_cache_bytes",
  help: "Bytes of page (identity and gzip) the page cache holds on this process.",
  registers,
});

export const sseOpenStreams = new Gauge({
  name: "mochi_sse_open_streams",
  help: "Server-sent event streams open on this process.",
  registers,
});

export const jobRuns = new Counter({
  name: "mochi_job_runs_total",
  help: "Periodic job runs this process won the period for and executed, by job.",
  labelNames: ["job"] as const,
  registers,
});

export const jobFailures = new Counter({
  name: "mochi_job_failures_total",
  help: "Periodic job runs that failed, by job.",
  labelNames: ["job"] as const,
  registers,
});

export const jobDuration = new Histogram({
  name: "mochi_job_duration_seconds",
  help: "Duration of periodic job runs on this process, by job.",
  labelNames: ["job"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 300],
  registers,
});

export const jobLastSuccess = new Gauge({
  name: "mochi_job_last_success_timestamp_seconds",
  help: "When a run of the job last succeeded on this process (Unix time).",
  labelNames: ["job"] as const,
  registers,
});

export const paymentOutcomes = new Counter({
  name: "mochi_payments_total",
  help: "Payment notices handled, by outcome (credited, replayed, unknown_order, amount_mismatch, refunded_late).",
  labelNames: ["outcome"] as const,
  registers,
});

export const refundOutcomes = new Counter({
  name: "mochi_refunds_total",
  help: "Refunds asked of a payment provider, by outcome (succeeded, failed).",
  labelNames: ["outcome"] as const,
  registers,
});

/** What a connection pool reports; PGlite (one session, no pool) has none. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new Set<() => PoolStats>();

function poolSum(): PoolStats {
  const sum = { total: 0, idle: 0, waiting: 0 };
  for (const stats of pools) {
    const s = stats();
    sum.total += s.total;
    sum.idle += s.idle;
    sum.waiting += s.waiting;
  }
  return sum;
}

new Gauge({
  name: "mochi_db_pool_connections",
  help: "Database pool connections by state (in_use, idle); absent on the embedded database, which has no pool.",
  labelNames: ["state"] as const,
  registers,
  collect() {
    this.reset();
    if (pools.size === 0) return;
    const { total, idle } = poolSum();
    this.set({ state: "in_use" }, total - idle);
    this.set({ state: "idle" }, idle);
  },
});

new Gauge({
  name: "mochi_db_pool_waiting",
  help: "Queries waiting for a free database pool connection; absent on the embedded database.",
  labelNames: ["pool"] as const,
  registers,
  collect() {
    this.reset();
    if (pools.size > 0) this.set({ pool: "main" }, poolSum().waiting);
  },
});

/** Reports a connection pool while it is open; returns the function that stops reporting it. */
export function trackPool(stats: () => PoolStats): () => void {
  pools.add(stats);
  return () => {
    pools.delete(stats);
  };
}

let defaultsStarted = false;

/** Process metrics of prom-client (CPU, memory, GC, event-loop delay), once per process. */
export function startDefaultMetrics() {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/**
 * Records the Express route pattern a request matched (`/api/courses/:id`), as Express sets
 * `req.route`: at that moment `req.baseUrl` holds the mount path, which is restored by the time
 * an error handler answers. Mounted first in the API router.
 */
export const recordRoutePattern: RequestHandler = (req, res, next) => {
  let route: unknown;
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: unknown) {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === "string") res.locals.routePattern = req.baseUrl + path;
    },
  });
  next();
};
