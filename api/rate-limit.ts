/**
 * Fixed-window counters in the database, so every web node counts the same requests.
 * `hit` counts one and says whether it is still within the limit; `unhit` takes one back;
 * `count` only reads. All take
 * the database or a transaction (so a count can be undone with the rest of a refused request).
 */
import { Kysely, sql } from "kysely";
import type { Database } from "./db/database";
import type { DB } from "./db/schema";
import { tooManyRequests } from "./http";

type Counters = Database | Kysely<DB>;
const dbOf = (counters: Counters): Kysely<DB> => (counters instanceof Kysely ? counters : counters.db);

const windowStart = (limit: Pick<Limit, "windowSeconds">, now: Date) => {
  const windowMs = limit.windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs);
};

export interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
  message?: string;
}

export async function hit(
  counters: Counters,
  limit: Limit,
  now = new Date(),
): Promise<{ allowed: boolean; retryAfter: number; count: number }> {
  const start = windowStart(limit, now);
  const row = await dbOf(counters)
    .insertInto("rate_limits")
    .values({ key: limit.key, window_start: start, count: 1 })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + 1` }))
    .returning("count")
    .executeTakeFirstOrThrow();
  return { allowed: row.count <= limit.max, retryAfter: secondsLeft(limit, now), count: row.count };
}

/**
 * Takes back one count `hit` made at `at` (a try that turned out not to count: refused, or
 * allowed and harmless), in the window it was counted in.
 */
export async function unhit(counters: Counters, limit: Pick<Limit, "key" | "windowSeconds">, at: Date): Promise<void> {
  await dbOf(counters)
    .updateTable("rate_limits")
    .set({ count: sql`count - 1` })
    .where("key", "=", limit.key)
    .where("window_start", "=", windowStart(limit, at))
    .where("count", ">", 0)
    .execute();
}

/** What a window has counted so far (0 when nothing), without counting. */
export async function count(
  counters: Counters,
  limit: Pick<Limit, "key" | "windowSeconds">,
  now = new Date(),
): Promise<number> {
  const row = await dbOf(counters)
    .selectFrom("rate_limits")
    .select("count")
    .where("key", "=", limit.key)
    .where("window_start", "=", windowStart(limit, now))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** Seconds until the window that `now` falls in ends (at least 1). */
function secondsLeft(limit: Pick<Limit, "windowSeconds">, now: Date): number {
  const end = windowStart(limit, now).getTime() + limit.windowSeconds * 1000;
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}

/** Counts against every limit; throws 429 with Retry-After for the first one exceeded. */
export async function enforce(counters: Counters, limits: Limit[], now = new Date()): Promise<void> {
  for (const limit of limits) {
    const { allowed, retryAfter } = await hit(counters, limit, now);
    if (!allowed) throw tooManyRequests(retryAfter, limit.message);
  }
}
