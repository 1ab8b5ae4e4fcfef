/**
 * A migrated database for one test file: PGlite in memory (unpacked from the run's migrated
 * cluster), or, when TEST_DATABASE_URL is set, a schema of its own on that PostgreSQL server,
 * dropped afterwards. `dataDir` keeps the PGlite database in a folder (for a command to open);
 * `migrations` applies only those, on a new empty database.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { type Database, type DatabaseOptions, openDatabase } from "../api/db/database";
import { currentClusterStamp, migrate } from "../api/db/migrate";
import type { Migration } from "../api/db/migrations";
import { readClusterArchive } from "../api/db/pglite-cluster";

let cluster: Blob | undefined;

/** The run's migrated cluster (tests/pglite-cluster-setup.ts); it must be there and current. */
function migratedClusterOfThisRun(): Blob {
  if (cluster) return cluster;
  const file = inject("pgliteCluster");
  cluster = file ? readClusterArchive(file, currentClusterStamp()) : undefined;
  if (!cluster) throw new Error(`the test run's migrated PGlite cluster is missing or stale: ${file || "(none)"}`);
  return cluster;
}

export interface TestDatabase {
  database: Database;
  dispose(): Promise<void>;
}

/** `listenRetryBaseMs` applies on PostgreSQL only; the connections are named `mochi-test <schema>`. */
export async function testDatabase(
  options: Pick<DatabaseOptions, "listenRetryBaseMs" | "dataDir"> & { migrations?: Migration[] } = {},
): Promise<TestDatabase & { applicationName?: string; schema?: string }> {
  const { migrations, dataDir, ...pgOptions } = options;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({
      dataDir,
      clusterArchive: migrations ? undefined : migratedClusterOfThisRun(),
    });
    // Already migrated unless `migrations` is given: then this only checks it.
    await migrate(database, migrations);
    return { database, dispose: () => database.close() };
  }
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const applicationName = `mochi-test ${schema}`;
  const database = await openDatabase({ url, schema, poolSize: 20, applicationName, ...pgOptions });
  await migrate(database, migrations);
  return {
    database,
    applicationName,
    schema,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}
