/**
 * The services behind the site in this process: the database (migrated on start, seeded on
 * the first embedded start), outgoing messages and the API context.
 */
import type { Logger } from "pino";
import type { ApiContext } from "../api/context.server";
import { type Database, openDatabase } from "../api/db/database.server";
import { migrate } from "../api/db/migrate.server";
import { seedIfEmpty } from "../api/db/seed.server";
import { DevOutbox, Messenger } from "../api/providers/messages.server";
import type { AppConfig } from "./config.server";

export interface Services {
  database: Database;
  api: ApiContext;
  close(): Promise<void>;
}

export async function apiContextFor(
  config: AppConfig,
  database: Database,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<ApiContext> {
  const outbox = new DevOutbox(config.production ? null : config.dataDir);
  return {
    database,
    messenger: new Messenger({ sms: outbox, email: outbox }, logger),
    outbox: config.production ? null : outbox,
    settings: {
      production: config.production,
      publicOrigin: config.publicOrigin,
      siteName: config.siteName,
      dataDir: config.dataDir,
      cookies: { secure: config.publicOrigin.startsWith("https:") },
    },
    logger,
    now,
  };
}

export async function openServices(config: AppConfig, logger: Logger, database?: Database): Promise<Services> {
  const db = database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  await migrate(db);
  if (!config.databaseUrl && !database) {
    const seeded = await seedIfEmpty(db);
    if (seeded) logger.info("first start: demo accounts created (see README)");
  }
  const api = await apiContextFor(config, db, logger);
  return { database: db, api, close: () => db.close() };
}
