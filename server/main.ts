/**
 * Process entry: configuration, the HTTP server, readiness and graceful shutdown.
 * `--dev` serves the sources through Vite with hot reload.
 */
import { createServer, type Server } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";
import type { App, AppOptions } from "./app";
import { CLUSTER_ARCHIVE_NAME, type Services } from "../api/index";
import { type AppConfig, ConfigError, loadConfig } from "./config";
import { FIRST_START, firstStartInChild } from "./first-start";
import type { Logger } from "pino";
import { createLogger } from "./logger";
import { startMetricsServer } from "./metrics";
import type { Readiness } from "./readiness";
import { serverTimeouts } from "./request-deadline";

const dev = process.argv.includes("--dev");
const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig(
    process.env,
    dev
      ? {}
      : { clientDir: path.resolve(here, "../client"), clusterArchive: path.resolve(here, "..", CLUSTER_ARCHIVE_NAME) },
  );
  const logger = createLogger(config.logLevel);
  if (process.argv.includes(FIRST_START)) {
    const { prepareFirstStart } = await import("./services");
    await prepareFirstStart(config, logger);
    process.exit(0);
  }
  const server = createServer();
  serverTimeouts(server);

  // The database (migrated, and seeded on the first embedded start) unless the API runs elsewhere.
  let services: Services | undefined;
  const openIfInProcess = async (open: (c: typeof config, l: typeof logger) => Promise<Services>) => {
    if (!config.apiOrigin) services = await open(config, logger);
  };

  let created: App;
  if (dev) {
    const { createServer: createVite } = await import("vite");
    const vite = await createVite({ server: { middlewareMode: true, hmr: { server } }, appType: "custom" });
    const { createApp, rootDataFor } = (await vite.ssrLoadModule("/server/app.ts")) as typeof import("./app");
    const { devAssets } = (await vite.ssrLoadModule("/server/assets.ts")) as typeof import("./assets");
    const { openServices } = (await vite.ssrLoadModule("/server/services.ts")) as typeof import("./services");
    await openIfInProcess(openServices);
    const root = await rootDataFor(config);
    // Re-created when Vite reloads the module, so server-side edits apply on the next request.
    let cached: { mod: unknown; render: RequestHandler } | undefined;
    const render: RequestHandler = async (req, res, next) => {
      const mod = (await vite.ssrLoadModule("/server/render.tsx")) as typeof import("./render");
      if (cached?.mod !== mod) {
        cached = {
          mod,
          render: mod.createRenderer({
            apiOrigin: config.apiOrigin,
            assets: devAssets(),
            root,
            streamTimeoutMs: config.streamTimeoutMs,
            logger,
            // Set by createApp below, before the first request arrives.
            inProcessApi: created.inProcessApi,
          }),
        };
      }
      cached.render(req, res, next);
    };
    const options: AppOptions = { logger, services, dev: { middlewares: vite.middlewares, render } };
    created = await createApp(config, options);
  } else {
    const { createApp } = await import("./app");
    const { needsFirstStart, openServices } = await import("./services");
    // When that process fails, opening the database below migrates and seeds in this one.
    if (needsFirstStart(config)) firstStartInChild(fileURLToPath(import.meta.url), logger);
    await openIfInProcess(openServices);
    created = await createApp(config, { logger, services });
  }
  const { handler, readiness } = created;
  server.on("request", handler);
  const closeQuietSockets = trackSockets(server);

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

  const shutdown = drainOnSignal(server, config, logger, readiness, services, closeQuietSockets);
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** Keeps track of which sockets are between requests, and since when; returns the drain's sweep. */
function trackSockets(server: Server): () => void {
  // For the drain: which sockets are between requests, and since when.
  const sockets = new Map<Socket, { inFlight: number; served: number; quietSince: number; readWhenQuiet: number }>();
  server.on("connection", (socket: Socket) => {
    sockets.set(socket, { inFlight: 0, served: 0, quietSince: Date.now(), readWhenQuiet: 0 });
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (req, res) => {
    const state = sockets.get(req.socket);
    if (!state) return;
    state.inFlight += 1;
    res.once("close", () => {
      state.inFlight -= 1;
      state.served += 1;
      state.quietSince = Date.now();
      state.readWhenQuiet = req.socket.bytesRead;
    });
  });
  /**
   * Closes the sockets nobody is using. Not Node's closeIdleConnections: it also destroys a
   * socket whose request is still unread in its buffer (a busy event loop), and that client
   * sees a reset. A socket counts as unused once quiet for 0.5 s after a response (responses
   * during the drain say Connection: close, so these are keep-alive sockets from before it),
   * or for 2 s after connecting without a request. A socket that has received bytes since its
   * last response carries a request being parsed and is left alone. The decision waits for
   * setImmediate, after the event loop's poll phase, so requests already in the kernel's buffer
   * are read (and counted) first instead of being reset with the socket.
   */
  return () => {
    setImmediate(() => {
      const now = Date.now();
      for (const [socket, state] of sockets) {
        if (state.inFlight > 0 || socket.bytesRead !== state.readWhenQuiet) continue;
        if (now - state.quietSince >= (state.served > 0 ? 500 : 2000)) socket.destroy();
      }
    });
  };
}

/*
 * Drain (decision 013), all inside SHUTDOWN_TIMEOUT_MS (8 s, below Docker's 10 s):
 * 1. readiness answers 503 and every response says Connection: close; pages and API calls
 *    are still served for DRAIN_DELAY_MS, while the load balancer takes the node out;
 * 2. the listener closes; every event stream gets a reconnect event and ends, so its browser
 *    resumes on another node; unused keep-alive sockets are closed, now and every 100 ms;
 * 3. in-flight pages and API calls finish (loaders call the API in-process, not through the
 *    closed listener); once the last connection is gone the database closes and we exit 0.
 * At the deadline the remaining connections are cut and we exit 1, the database closed too.
 */
function drainOnSignal(
  server: Server,
  config: AppConfig,
  logger: Logger,
  readiness: Readiness,
  services: Services | undefined,
  closeQuietSockets: () => void,
): (signal: string) => void {
  let stopping = false;
  return (signal: string) => {
    if (stopping) return;
    stopping = true;
    const startedAt = Date.now();
    logger.info({ signal, drainDelayMs: config.drainDelayMs, timeoutMs: config.shutdownTimeoutMs }, "draining");
    readiness.markDraining();
    let exiting = false;
    const exit = (code: number) => {
      if (exiting) return;
      exiting = true;
      // PGlite flushes to DATA_DIR on close; a pool closes its connections. Bounded, so a stuck
      // database cannot carry the process past the container's stop timeout.
      const closing = Promise.race([
        services?.close() ?? Promise.resolve(),
        new Promise((_, reject) => setTimeout(() => reject(new Error("database close timed out")), 1500).unref()),
      ]);
      void closing
        .catch((err: unknown) => logger.error({ err }, "database close failed"))
        .finally(() => {
          logger.info({ exitCode: code, ms: Date.now() - startedAt }, "stopped");
          logger.flush?.();
          process.exit(code);
        });
    };
    const deadline = setTimeout(() => {
      logger.warn("shutdown deadline reached; closing remaining connections");
      server.closeAllConnections();
      exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    setTimeout(() => {
      const sweep = setInterval(closeQuietSockets, 100);
      sweep.unref();
      // The listener only (net.Server#close): http.Server#close would also run
      // closeIdleConnections at once (see closeQuietSockets). Called back when no socket is left.
      NetServer.prototype.close.call(server, (err?: Error) => {
        clearTimeout(deadline);
        clearInterval(sweep);
        if (err) logger.error({ err }, "close failed");
        exit(err ? 1 : 0);
      });
      // After the listener closed, so no browser comes back to this node.
      const streams = services?.api.eventStreams.drain() ?? 0;
      if (streams > 0) logger.info({ streams }, "event streams told to reconnect");
      closeQuietSockets();
    }, config.drainDelayMs).unref();
  };
}

main().catch((err: unknown) => {
  // A refused setting is one line saying why; anything else keeps its stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
