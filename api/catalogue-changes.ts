/**
 * Where a node hears that the catalogue changed (any node's write, through the database triggers
 * of migrations 010 and 019): a NOTIFY on `catalogue_changed` whose payload is `<schema>.<table>`.
 * NOTIFY is per database, so a change in another schema of the same database is not ours and is
 * passed over. When the LISTEN connection comes back after a loss, notifications sent meanwhile
 * are gone, so that counts as a change too.
 */
import { sql } from "kysely";
import type { Database } from "./db/database";

const CATALOGUE_CHANNEL = "catalogue_changed";

/** Whether a `catalogue_changed` payload speaks of this schema (a bare table name does too). */
export function isOwnChange(payload: string, schema: string): boolean {
  const dot = payload.indexOf(".");
  return dot < 0 || payload.slice(0, dot) === schema;
}

/** Calls `onChange` for every catalogue change and every LISTEN reconnection; returns the unsubscribe. */
export async function watchCatalogue(
  database: Database,
  onChange: (reason: string) => void,
): Promise<() => Promise<void>> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const schema = rows[0]?.schema ?? "public";
  const unlisten = await database.listen(CATALOGUE_CHANNEL, (payload) => {
    if (isOwnChange(payload, schema)) onChange(payload || "change");
  });
  const unrestored = database.onListenRestored(() => onChange("listen restored"));
  return async () => {
    unrestored();
    await unlisten();
  };
}
