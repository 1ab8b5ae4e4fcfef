/**
 * Overload is answered, not queued (decision 027). While the event loop lags past
 * OVERLOAD_LAG_MS, a new request is answered at once with 503, `Retry-After` and a few bytes,
 * before any logging, rendering or API work: a visitor is told to come back in a second or two
 * instead of waiting in a queue until a timeout. Requests already admitted finish as usual (a page's
 * loaders call the API in process, past this guard), and the probes (/healthz, /readyz, /metrics)
 * and built assets are always served, so the load balancer never mistakes a busy node for a
 * dead one and an admitted page still gets its scripts.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { Counter, Gauge } from "prom-client";
import { metricsRegistry } from "../api/index";
import { SERVICE_BUSY_MESSAGE } from "../shared/errors";

/** The event loop's recent delay, in milliseconds. */
export interface LagSampler {
  /** The lag that has lasted: the smaller reading of the last two windows. */
  lagMs(): number;
  stop(): void;
}

export interface LagSamplerOptions {
  /** How often the window is read and restarted. */
  intervalMs?: number;
  /** Timer resolution of the delay histogram (subtracted from its mean). */
  resolutionMs?: number;
}

const shedRequests = new Counter({
  name: "mochi_overload_shed_total",
  help: "Requests answered 503 at once because the event loop lagged past OVERLOAD_LAG_MS, by kind (page or api).",
  labelNames: ["kind"] as const,
  registers: [metricsRegistry],
});

const lagGauge = new Gauge({
  name: "mochi_overload_event_loop_lag_seconds",
  help: "Mean event-loop delay over the last sampling window, as the overload guard sees it.",
  registers: [metricsRegistry],
});

/**
 * Every `intervalMs` (500 ms): the larger of the mean of perf_hooks' event-loop delay histogram
 * over that window (minus its timer resolution) and the lateness of the sampling timer itself.
 * The mean says how long callbacks waited for the loop on average, which a busy loop keeps high;
 * the lateness catches one long block the mean would dilute (its sample lands among many short
 * ones). The lag reported is the smaller reading of the last two windows: one long block (a
 * burst of new connections, a garbage collection) passes without shedding anybody, a loop that
 * stays behind for two windows in a row sheds. Costs one unref'd timer and the histogram's;
 * nothing runs per request.
 */
export function eventLoopLagSampler({ intervalMs = 500, resolutionMs = 10 }: LagSamplerOptions = {}): LagSampler {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  let lag = 0;
  let previous = 0;
  let expected = performance.now() + intervalMs;
  // The first window holds whatever the process did while starting (migrations, the first
  // imports): it is read and dropped, so a node that just became ready does not shed for it.
  let first = true;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = Math.max(0, now - expected);
    expected = now + intervalMs;
    if (first) {
      first = false;
      histogram.reset();
      return;
    }
    const mean = histogram.count > 0 ? Math.max(0, histogram.mean / 1e6 - resolutionMs) : 0;
    previous = lag;
    lag = Math.max(mean, late);
    histogram.reset();
    lagGauge.set(Math.min(lag, previous) / 1000);
  }, intervalMs);
  timer.unref();
  return {
    lagMs: () => Math.min(lag, previous),
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/** Paths that are never shed: the probes and metrics, and the content-hashed built assets. */
export function neverShed(path: string): boolean {
  return path === "/healthz" || path === "/readyz" || path === "/metrics" || path.startsWith("/assets/");
}

/** Seconds to wait: one per second of lag, between 1 and 5. */
export function retryAfterSeconds(lagMs: number): number {
  return Math.min(5, Math.max(1, Math.ceil(lagMs / 1000)));
}

export interface OverloadGuardOptions {
  /** Shed while the sampled lag is at least this; 0 turns the guard off. */
  thresholdMs: number;
  /** Where the lag comes from; default: a sampler of this process's event loop. */
  sampler?: LagSampler;
  logger?: Logger;
}

/** The middleware; placed right after the request id and the request metrics. */
export function overloadGuard({ thresholdMs, sampler, logger }: OverloadGuardOptions): RequestHandler {
  if (thresholdMs <= 0) return (_req, _res, next) => next();
  const lag = sampler ?? eventLoopLagSampler();
  let shedding = false;
  return (req, res, next) => {
    const lagMs = lag.lagMs();
    const over = lagMs >= thresholdMs;
    if (over !== shedding) {
      shedding = over;
      if (over) logger?.warn({ lagMs: Math.round(lagMs), thresholdMs }, "event loop lagging: shedding new requests");
      else logger?.info({ lagMs: Math.round(lagMs), thresholdMs }, "event loop caught up: admitting requests");
    }
    if (!over || neverShed(req.path)) {
      next();
      return;
    }
    const api = req.path === "/api" || req.path.startsWith("/api/");
    shedRequests.inc({ kind: api ? "api" : "page" });
    res.statusCode = 503;
    res.setHeader("Retry-After", String(retryAfterSeconds(lagMs)));
    res.setHeader("Cache-Control", "no-store");
    if (api) {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(JSON.stringify({ error: { code: "overloaded", message: SERVICE_BUSY_MESSAGE } }));
    } else {
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(SERVICE_BUSY_MESSAGE);
    }
  };
}
