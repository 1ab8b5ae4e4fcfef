/**
 * The API in this process, opened from the web server's configuration: the database (migrated on
 * start, seeded on the first embedded start) and the API's services. The wiring itself is the
 * API's composition root (api/compose/services.ts); this file adds what only the web server knows:
 * where the database is, and whether the development outbox may be read.
 */
import type { Logger } from "pino";
import {
  type ApiConfig,
  type ApiContext,
  createApiContext,
  type Database,
  hasPgliteDatabase,
  openDatabase,
  prepareDatabase,
  type Services,
  startApi,
} from "../api/index";
import type { AppConfig } from "./config";
import { databaseOptions } from "./database-options";
import { outboxAllowed } from "./dev-outbox";

const apiConfig = (config: AppConfig): ApiConfig => ({ ...config, outboxReadable: outboxAllowed(config) });

export function apiContextFor(
  config: AppConfig,
  database: Database,
  logger: Logger,
  now?: () => Date,
): Promise<ApiContext> {
  return createApiContext(apiConfig(config), database, logger, now);
}

/**
 * Whether this node's embedded database is still to be created with the demo data. PGlite's
 * WebAssembly memory grows while the demo data is written and never gives it back (a node that
 * did it idled at about 800 MB, one started on the same folder afterwards at about 300 MB), so the
 * server has a short-lived process of its own do that first (decision 028).
 */
export function needsFirstStart(config: AppConfig): boolean {
  return !config.apiOrigin && !config.databaseUrl && config.demoData && !hasPgliteDatabase(config.dataDir);
}

/** The first start's work, in its own process: migrate, write the demo data, close. */
export async function prepareFirstStart(config: AppConfig, logger: Logger): Promise<void> {
  const db = await openDatabase(databaseOptions(config, logger));
  try {
    await prepareDatabase(db, apiConfig(config), logger);
  } finally {
    await db.close();
  }
}

/** Opens the database (unless given one: then no demo data is written) and starts the API on it. */
export async function openServices(config: AppConfig, logger: Logger, database?: Database): Promise<Services> {
  const db = database ?? (await openDatabase(databaseOptions(config, logger)));
  return startApi(apiConfig(config), db, logger, { seedDemo: !database });
}
