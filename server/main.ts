/**
 * Process entry: configuration, the HTTP server, readiness and graceful shutdown.
 * `--dev` serves the sources through Vite with hot reload.
 */
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";
import type { App, AppOptions } from "./app.server";
import { ConfigError, loadConfig } from "./config.server";
import { createLogger } from "./logger.server";
import { startMetricsServer } from "./metrics.server";
import type { Services } from "./services.server";

const dev = process.argv.includes("--dev");
const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig(process.env, dev ? {} : { clientDir: path.resolve(here, "../client") });
  const logger = createLogger(config.logLevel);
  const server = createServer();
  // Longer than a load balancer's 60 s idle timeout, so the balancer closes idle sockets first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // The database (migrated, and seeded on the first embedded start) unless the API runs elsewhere.
  let services: Services | undefined;
  const openIfInProcess = async (open: (c: typeof config, l: typeof logger) => Promise<Services>) => {
    if (!config.apiOrigin) services = await open(config, logger);
  };

  let created: App;
  if (dev) {
    const { createServer: createVite } = await import("vite");
    const vite = await createVite({ server: { middlewareMode: true, hmr: { server } }, appType: "custom" });
    const { createApp, rootDataFor } = (await vite.ssrLoadModule(
      "/server/app.server.ts",
    )) as typeof import("./app.server");
    const { devAssets } = (await vite.ssrLoadModule("/server/assets.server.ts")) as typeof import("./assets.server");
    const root = await rootDataFor(config);
    // Re-created when Vite reloads the module, so server-side edits apply on the next request.
    let cached: { mod: unknown; render: RequestHandler } | undefined;
    const render: RequestHandler = async (req, res, next) => {
      const mod = (await vite.ssrLoadModule("/server/render.server.tsx")) as typeof import("./render.server");
      if (cached?.mod !== mod) {
        cached = {
          mod,
          render: mod.createRenderer({
            apiOrigin: config.apiOrigin,
            assets: devAssets(),
            root,
            streamTimeoutMs: config.streamTimeoutMs,
            logger,
          }),
        };
      }
      cached.render(req, res, next);
    };
    const options: AppOptions = { logger, services, dev: { middlewares: vite.middlewares, render } };
    created = await createApp(config, options);
  } else {
    const { createApp } = await import("./app.server");
    const { openServices } = await import("./services.server");
    await openIfInProcess(openServices);
    created = await createApp(config, { logger, services });
  }
  const { app, readiness } = created;
  server.on("request", app);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // /metrics on a listener of its own when METRICS_PORT is set (loopback unless METRICS_HOST says otherwise).
  await startMetricsServer(config.metrics, logger);
  readiness.markReady();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port, env: config.deployEnv, dev }, `墨池课堂 listening on http://localhost:${port}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "draining");
    readiness.markDraining();
    const deadline = setTimeout(() => {
      logger.warn("shutdown deadline reached; closing remaining connections");
      server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    // Readiness is 503 from now on; keep serving for the balancer's deregistration delay, then
    // stop accepting and wait for in-flight responses. Sockets that finish their response while
    // draining are idle keep-alive sockets, closed on the next sweep.
    setTimeout(() => {
      const sweep = setInterval(() => server.closeIdleConnections(), 200);
      sweep.unref();
      server.close((err) => {
        clearTimeout(deadline);
        clearInterval(sweep);
        if (err) logger.error({ err }, "close failed");
        // PGlite flushes to DATA_DIR on close; a pool closes its connections.
        void (services?.close() ?? Promise.resolve())
          .catch((closeErr: unknown) => logger.error({ err: closeErr }, "database close failed"))
          .finally(() => {
            logger.info("stopped");
            logger.flush?.();
            process.exit(err ? 1 : 0);
          });
      });
      server.closeIdleConnections();
    }, config.drainDelayMs).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  // A refused setting is one line saying why; anything else keeps its stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
