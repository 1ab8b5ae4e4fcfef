/**
 * The web server, in the order a request meets it (DESIGN §2): a stored anonymous page is answered
 * first, ahead of Express (`handler`, decision 026); then request id + baseline headers + log → health → proxies → CSP nonce + helmet → compression → /assets →
 * robots.txt, favicon → server rendering → error handler.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import compression from "compression";
import type { RequestListener } from "node:http";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import QRCode from "qrcode";
import { createApiRouter, isConnectionError, SERVICE_BUSY_RETRY_AFTER_S, type Services } from "../api/index";
import { SERVICE_BUSY_MESSAGE } from "../shared/errors";
import { type AssetResolver, devAssets, manifestAssets } from "./assets";
import { precompressedAssets } from "./precompressed";
import { createBroadcaster } from "./broadcaster";
import { buildInfo } from "./build-info";
import type { AppConfig } from "./config";
import { createInProcessApi, type InProcessApi } from "./in-process-api";
import { createLogger, serializeRequest, serializeResponse } from "./logger";
import { httpMetrics, metricsEndpoint } from "./metrics";
import { type LagSampler, overloadGuard } from "./overload";
import { createUpstreamProxy } from "./proxy";
import { Readiness, remoteApiCheck } from "./readiness";
import { requestDeadline } from "./request-deadline";
import { createRenderer, type StaticRootData } from "./render";
import { pageCacheFor } from "./page-cache-setup";
import { type PageCache, REQUEST_ID } from "./page-cache";
import { assignNonce, baselineHeaders, securityHeaders } from "./security";
import { canonicalRedirect } from "./canonical";
import { mountSiteFiles } from "./site-files";
import { viewerResolver } from "./viewer";

export interface AppOptions {
  logger?: Logger;
  /** The in-process API and its database; absent when API_ORIGIN points elsewhere. */
  services?: Services;
  readiness?: Readiness;
  /** Development: Vite's middlewares (sources, HMR) and a renderer loaded through Vite. */
  dev?: { middlewares: RequestHandler; render: RequestHandler };
  /** A route table other than the shared one (tests of the pipeline itself). */
  routes?: import("../shared/route-def").RouteDef[];
  /** The event-loop lag the overload guard reads (tests pass their own). */
  lagSampler?: LagSampler;
  /** Wall clock in milliseconds, for the demo broadcaster (tests pass their own). */
  now?: () => number;
}

export interface App {
  app: Express;
  /**
   * What the HTTP server calls for each request: stored anonymous pages answered before Express
   * (PageCache#front), everything else by `app`.
   */
  handler: RequestListener;
  readiness: Readiness;
  logger: Logger;
  /** The API for server-side loaders, without a socket; absent when API_ORIGIN is set. */
  inProcessApi?: InProcessApi;
  /** Anonymous pages kept in memory; absent when off (PAGE_CACHE) or without the database. */
  pageCache?: PageCache;
}

export async function rootDataFor(config: AppConfig): Promise<StaticRootData> {
  return {
    siteName: config.siteName,
    publicOrigin: config.publicOrigin,
    build: buildInfo(config.deployEnv),
    mobileSiteUrl: config.mobileSiteUrl ?? null,
    mobileSiteQrSvg: config.mobileSiteUrl
      ? await QRCode.toString(config.mobileSiteUrl, {
          type: "svg",
          margin: 1,
          color: { dark: "#222222", light: "#fffdf8" },
        })
      : null,
    servicePhone: config.servicePhone,
    serviceEmail: config.serviceEmail,
    icpNumber: config.icpNumber ?? null,
    siteVerification: { baidu: config.baiduSiteVerification ?? null, bing: config.bingSiteVerification ?? null },
    devtoolsBlock: config.devtoolsBlock,
    fixtures: config.testFixtures,
    payments: config.payments.provider === "none" ? "off" : config.payments.provider === "sandbox" ? "sandbox" : "live",
  };
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const services = options.services;
  if (!services && !config.apiOrigin) throw new Error("createApp needs services unless API_ORIGIN is set");
  // Ready when the database answers, and, with API_ORIGIN, the remote API.
  const readiness =
    options.readiness ??
    new Readiness([
      ...(services ? [{ name: "database", run: () => services.database.ping() }] : []),
      ...(config.apiOrigin ? [remoteApiCheck(config.apiOrigin)] : []),
    ]);
  const app = express();
  app.disable("x-powered-by");
  // Client IPs come from X-Forwarded-For only across the configured number of our own proxies.
  app.set("trust proxy", config.trustProxyHops);

  // 1. Request id, deadline, baseline headers, metrics, overload and access log.
  useRequestBasics(app, config, readiness, logger, options.lagSampler);

  // Anonymous pages from memory: kept at step 8, answered ahead of Express (`handler`), emptied by any
  // node's catalogue change (decision 026).
  const pageCache =
    services && !options.dev && config.pageCache ? await pageCacheFor(config.pageCache, services, logger) : null;

  // 2. Liveness and readiness.
  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const report = await readiness.check();
    res.status(report.ready ? 200 : 503).json(report);
  });

  // Prometheus metrics: bearer token only (404 without METRICS_TOKEN); METRICS_PORT serves them apart.
  app.get("/metrics", metricsEndpoint(config.metrics.token));

  // 3. Proxies (before any body parsing or compression), or the in-process services.
  const inProcessApi = mountUpstreams(app, config, services, logger, options.now);

  // 4. Security headers with this response's CSP nonce.
  app.use(
    assignNonce,
    securityHeaders({ production: config.production, https: config.publicOrigin.startsWith("https:") }),
  );

  // 5. Compression; React flushes through it, so the streamed shell is not held back.
  app.use(
    compression({
      filter: (req, res) =>
        !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
    }),
  );

  // 6. Built assets: content-hashed, immutable; a missing file is a plain 404, never a page.
  const assets = mountAssets(app, config, options.dev);

  // 7. robots.txt, the sitemap, the favicon, generated pictures, videos and the development outbox.
  mountSiteFiles(app, config, services);

  // 8. Server rendering of every other GET/HEAD.
  const render =
    options.dev?.render ??
    createRenderer({
      apiOrigin: config.apiOrigin,
      assets,
      root: await rootDataFor(config),
      streamTimeoutMs: config.streamTimeoutMs,
      logger,
      routes: options.routes,
      inProcessApi,
    });
  app.get(
    "/{*splat}",
    canonicalRedirect(options.routes),
    ...(pageCache ? [pageCache.capture()] : []),
    viewerResolver(config, services),
    render,
  );
  app.use((_req, res) => {
    res.setHeader("Allow", "GET, HEAD");
    res.status(405).type("text/plain").send("Method Not Allowed");
  });

  // 9. Errors: a status and a short text, never a stack.
  app.use(pageErrorHandler);

  let handler: RequestListener = app;
  if (pageCache) {
    const front = pageCache.front({
      draining: () => readiness.draining,
      trustRequestId: config.trustProxyHops > 0,
      logger,
    });
    handler = (req, res) => {
      if (!front(req, res)) app(req, res);
    };
  }
  return { app, handler, readiness, logger, inProcessApi, pageCache: pageCache ?? undefined };
}

/** Step 1: what every request meets first, pages or not. */
function useRequestBasics(
  app: Express,
  config: AppConfig,
  readiness: Readiness,
  logger: Logger,
  lagSampler: LagSampler | undefined,
) {
  app.use((req, res, next) => {
    const incoming = req.get("x-request-id");
    const id = config.trustProxyHops > 0 && incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    // While draining, clients are told not to reuse the connection.
    if (readiness.draining) res.setHeader("Connection", "close");
    next();
  });
  // A request still arriving past its route's deadline: 408 (lesson videos have hours, the rest minutes).
  app.use(requestDeadline());
  // Every response, pages or not, is never sniffed nor framed (helmet adds the rest for pages, step 4).
  app.use(baselineHeaders({ production: config.production, https: config.publicOrigin.startsWith("https:") }));
  // Request counts and latency by route pattern (server/metrics.ts).
  app.use(httpMetrics());
  // Overload: 503 + Retry-After at once while the event loop lags, before any work (decision 027).
  app.use(overloadGuard({ thresholdMs: config.overloadLagMs, sampler: lagSampler, logger }));
  app.use(
    pinoHttp({
      logger,
      // pino-http hands over the bare response; Express gave it its `locals` before this runs.
      genReqId: (_req, res) => (res as express.Response).locals.requestId ?? randomUUID(),
      serializers: { req: serializeRequest, res: serializeResponse },
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" || req.url === "/metrics" },
    }),
  );
}

/**
 * Step 3: /api, /avatar and /broadcast, proxied to their origins or served here. One API router
 * serves both the browsers (/api here) and the page loaders (injected, no socket): that is returned.
 */
function mountUpstreams(
  app: Express,
  config: AppConfig,
  services: Services | undefined,
  logger: Logger,
  now: (() => number) | undefined,
): InProcessApi | undefined {
  const proxy = (mount: string, target: string, json: boolean) =>
    createUpstreamProxy({ mount, target, json, logger, timeoutMs: config.upstreamTimeoutMs });
  let inProcessApi: InProcessApi | undefined;
  if (config.apiOrigin) app.use("/api", proxy("/api", config.apiOrigin, true));
  else if (services) {
    const apiRouter = createApiRouter(services.api);
    app.use("/api", apiRouter);
    inProcessApi = createInProcessApi(apiRouter, logger);
  }
  if (config.avatarOrigin) {
    app.use("/avatar", proxy("/avatar", config.avatarOrigin, false));
  } else {
    app.use(
      "/avatar",
      express.static(path.join(config.dataDir, "uploads", "avatars"), {
        fallthrough: false,
        index: false,
        maxAge: "1h",
        dotfiles: "deny",
        // Mounted before helmet: uploads get their own headers, so they can never run as a page.
        setHeaders: (res) => {
          res.setHeader("X-Content-Type-Options", "nosniff");
          res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox; frame-ancestors 'none'");
          res.setHeader("Content-Disposition", 'inline; filename="avatar.webp"');
          res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        },
      }),
    );
  }
  if (config.broadcastOrigin) {
    app.use("/broadcast", proxy("/broadcast", config.broadcastOrigin, false));
  } else {
    // The demo broadcaster: every stream key loops a sample video as a live HLS stream.
    app.use("/broadcast", createBroadcaster({ mediaDir: config.mediaDir, now }));
  }
  return inProcessApi;
}

/** Step 6: the built assets (or Vite's middlewares in development), and how pages name them. */
function mountAssets(app: Express, config: AppConfig, dev: AppOptions["dev"]): AssetResolver {
  if (dev) {
    app.use(dev.middlewares);
    return devAssets();
  }
  if (!config.clientDir) throw new Error("clientDir is required outside development");
  // The build's brotli and gzip copies first (decision 056), then the files themselves.
  app.use("/assets", precompressedAssets(path.join(config.clientDir, "assets")));
  app.use(
    "/assets",
    express.static(path.join(config.clientDir, "assets"), {
      immutable: true,
      maxAge: "1y",
      index: false,
      fallthrough: false,
    }),
  );
  return manifestAssets(config.clientDir);
}

/** Step 9: a status and a short text, never a stack. */
const pageErrorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  // The database or the API cannot be reached: busy for now, not broken (see decision 014).
  const unreachable = isConnectionError(err);
  const status = unreachable
    ? 503
    : typeof err?.status === "number" && err.status >= 400 && err.status < 600
      ? err.status
      : 500;
  // A visitor who left mid-request aborts the page's loaders: nothing failed on our side.
  const clientGone = req.destroyed || res.destroyed;
  if (clientGone) {
    req.log?.debug({ err: { message: err?.message } }, "client went away");
    return;
  }
  if (unreachable) req.log?.warn({ err: { message: err?.message, code: err?.code } }, "dependency unreachable");
  else if (status >= 500) req.log?.error({ err }, "request failed");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.setHeader("Cache-Control", "no-store");
  if (status === 503) {
    res.setHeader("Retry-After", String(SERVICE_BUSY_RETRY_AFTER_S));
    res.status(503).type("text/plain").send(SERVICE_BUSY_MESSAGE);
  } else if (status === 404) res.status(404).type("text/plain").send("Not Found");
  else
    res
      .status(status)
      .type("text/plain")
      .send(status >= 500 ? "Internal Server Error" : "Bad Request");
};
