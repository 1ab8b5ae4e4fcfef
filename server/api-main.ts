/**
 * The API on its own (`npm run start:api`): for deployments that run it as a separate service
 * and point the web nodes at it with API_ORIGIN. Same configuration, same shutdown.
 */
import { createServer } from "node:http";
import express from "express";
import { pinoHttp } from "pino-http";
import { createApiRouter } from "../api/index";
import { ConfigError, loadConfig } from "./config";
import { createLogger, serializeRequest, serializeResponse } from "./logger";
import { httpMetrics, metricsEndpoint, startMetricsServer } from "./metrics";
import { Readiness } from "./readiness";
import { requestDeadline, serverTimeouts } from "./request-deadline";
import { baselineHeaders } from "./security";
import { openServices } from "./services";

async function main() {
  const config = loadConfig(process.env, { apiOrigin: undefined });
  const logger = createLogger(config.logLevel);
  const services = await openServices(config, logger);
  const readiness = new Readiness([{ name: "database", run: () => services.database.ping() }]);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxyHops);
  app.use(requestDeadline());
  app.use(baselineHeaders({ production: config.production, https: config.publicOrigin.startsWith("https:") }));
  app.use(httpMetrics());
  app.use(pinoHttp({ logger, serializers: { req: serializeRequest, res: serializeResponse } }));
  app.get("/metrics", metricsEndpoint(config.metrics.token));
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const report = await readiness.check();
    res.status(report.ready ? 200 : 503).json(report);
  });
  app.use("/api", createApiRouter(services.api));

  const server = createServer(app);
  serverTimeouts(server);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  await startMetricsServer(config.metrics, logger);
  readiness.markReady();
  logger.info({ port: config.port }, "API listening");

  const stop = () => {
    readiness.markDraining();
    const deadline = setTimeout(() => process.exit(1), config.shutdownTimeoutMs);
    deadline.unref();
    setTimeout(() => {
      server.close(() => {
        void services.close().finally(() => process.exit(0));
      });
      // Event streams end with a reconnect event, so they do not hold the drain (decision 013).
      services.api.eventStreams.drain();
      server.closeIdleConnections();
      setInterval(() => server.closeIdleConnections(), 200).unref();
    }, config.drainDelayMs).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err: unknown) => {
  // A refused setting is one line saying why; anything else keeps its stack.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
