/**
 * Fixed-window counters in the database, so every web node counts the same requests.
 * `hit` counts one and says whether it is still within the limit.
 */
import { sql } from "kysely";
import type { Database } from "./db/database.server";
import { tooManyRequests } from "./http.server";

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
  message?: string;
}

export async function hit(
  database: Database,
  limit: Limit,
  now = new Date(),
): Promise<{ allowed: boolean; retryAfter: number }> {
  const windowMs = limit.windowSeconds * 1000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await database.db
    .insertInto("rate_limits")
    .values({ key: limit.key, window_start: start, count: 1 })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
    .returning("count")
    .executeTakeFirstOrThrow();
  const retryAfter = Math.max(1, Math.ceil((start.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: row.count <= limit.max, retryAfter };
}

/** Counts against every limit; throws 429 with Retry-After for the first one exceeded. */
export async function enforce(database: Database, limits: Limit[], now = new Date()): Promise<void> {
  for (const limit of limits) {
    const { allowed, retryAfter } = await hit(database, limit, now);
    if (!allowed) throw tooManyRequests(retryAfter, limit.message);
  }
}

/** Old windows are only history. */
export async function pruneRateLimits(database: Database, now = new Date()): Promise<void> {
  await database.db
    .deleteFrom("rate_limits")
    .where("window_start", "<", new Date(now.getTime() - 2 * 86_400_000))
    .execute();
}
