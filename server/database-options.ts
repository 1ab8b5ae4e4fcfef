/** Which database a configuration names, and how a new embedded one is made. */
import type { Logger } from "pino";
import { currentClusterStamp, type DatabaseOptions, hasPgliteDatabase, readClusterArchive } from "../api/index";
import type { AppConfig } from "./config";

/**
 * The database this configuration names. A new embedded one is unpacked from the build's migrated
 * cluster when the build has a current one (api/db/pglite-cluster.ts), else made by initdb.
 */
export function databaseOptions(config: AppConfig, logger?: Logger): DatabaseOptions {
  const options: DatabaseOptions = { url: config.databaseUrl, dataDir: config.dataDir, logger };
  if (config.databaseUrl || hasPgliteDatabase(config.dataDir)) return options;
  options.clusterArchive = config.clusterArchive
    ? readClusterArchive(config.clusterArchive, currentClusterStamp())
    : undefined;
  logger?.info(
    options.clusterArchive
      ? "new embedded database: unpacked from the build's migrated cluster"
      : "new embedded database: made by initdb (the build has no current cluster archive)",
  );
  return options;
}
