/**
 * Where a node hears that the catalogue changed (any node's write, through the database trigger
 * of migration 010): a NOTIFY on `catalogue_changed`. When the LISTEN connection comes back after
 * a loss, notifications sent meanwhile are gone, so that counts as a change too.
 */
import type { Database } from "./db/database";

export const CATALOGUE_CHANNEL = "catalogue_changed";

/** Calls `onChange` for every catalogue change and every LISTEN reconnection; returns the unsubscribe. */
export async function watchCatalogue(
  database: Database,
  onChange: (reason: string) => void,
): Promise<() => Promise<void>> {
  const unlisten = await database.listen(CATALOGUE_CHANNEL, (table) => onChange(table || "change"));
  const unrestored = database.onListenRestored(() => onChange("listen restored"));
  return async () => {
    unrestored();
    await unlisten();
  };
}
