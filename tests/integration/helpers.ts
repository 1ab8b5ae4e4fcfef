import { existsSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { type AppOptions, createApp } from "../../server/app.server";
import { type AppConfig, loadConfig } from "../../server/config.server";
import { openServices } from "../../server/services.server";
import { testDatabase } from "../db";

export const distDir = path.resolve(process.env.DIST_DIR ?? "dist");
export const clientDir = path.join(distDir, "client");

/** The app as tests use it: built client assets, fixtures on, silent logs, marked ready. */
export async function testApp(
  overrides: Partial<AppConfig> = {},
  options: AppOptions = {},
  env: NodeJS.ProcessEnv = {},
) {
  if (!existsSync(path.join(clientDir, ".vite/manifest.json"))) {
    throw new Error("No client build: run `npm run build` before the integration tests (npm test does).");
  }
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent", TEST_FIXTURES: "1", DATA_DIR: "test-results/data", ...env },
    { clientDir, ...overrides },
  );
  const logger = pino({ level: "silent" });
  const handle = config.apiOrigin ? null : await testDatabase();
  const services = handle ? await openServices(config, logger, handle.database) : undefined;
  const created = await createApp(config, { logger, services, ...options });
  created.readiness.markReady();
  return { ...created, services, dispose: async () => handle?.dispose() };
}

export const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
export const GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
export const IE11_UA = "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko";
