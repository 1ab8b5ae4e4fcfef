/**
 * Applies the versioned migrations in order, each in its own transaction. Several nodes
 * starting together take turns through a transaction-scoped advisory lock.
 */
import { sql } from "kysely";
import { type Database, openDatabase, PGLITE_START_PARAMS } from "./database";
import { type Migration, migrations as allMigrations } from "./migrations";
import { type ClusterStamp, clusterStamp } from "./pglite-cluster";

const LOCK_KEY = 7_301_842;

export async function migrate(
  database: Pick<Database, "db">,
  migrations: Migration[] = allMigrations,
): Promise<number[]> {
  const { db } = database;
  await sql`create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`.execute(db);
  const applied: number[] = [];
  for (const m of migrations) {
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
      const done = await sql<{
        version: number;
      }>`select version from schema_migrations where version = ${m.version}`.execute(trx);
      if (done.rows.length > 0) return;
      await sql.raw(m.up).execute(trx);
      await sql`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`.execute(trx);
      applied.push(m.version);
    });
  }
  return applied;
}

/** The stamp of a PGlite cluster holding every migration of this build. */
export const currentClusterStamp = (): ClusterStamp => clusterStamp(PGLITE_START_PARAMS, allMigrations);

/** A new PGlite cluster (in memory) with every migration applied, as a gzip tar archive, and its stamp. */
export async function migratedCluster(): Promise<{ archive: Uint8Array; stamp: ClusterStamp }> {
  const database = await openDatabase({});
  try {
    await migrate(database);
    return { archive: await database.dumpCluster!(), stamp: currentClusterStamp() };
  } finally {
    await database.close();
  }
}
