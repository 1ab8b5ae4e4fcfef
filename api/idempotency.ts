/**
 * Idempotent requests (reliability reference §4): a state-changing call that moves money or
 * counted things carries an `Idempotency-Key` (a UUID). The first request with a key runs and its
 * response is stored; the same key again returns the stored response; the same key with another
 * body is refused with 422; the same key while the first is still running gets 409.
 * Keys are scoped per learner and route.
 *
 * A claim is a lease (decision 071): it names the process that runs the request and holds the key
 * for IDEMPOTENCY_LEASE_MS, renewed while the work runs. A process that dies (kill -9, a lost
 * node) stops renewing; once its lease has run out, a retry takes the key over with one
 * conditional UPDATE, so of many retries at once exactly one runs the work. Finished keys are kept
 * IDEMPOTENCY_KEEP_MS, then purged by the `idempotency-keys` job.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import { type ExpressionBuilder, sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "./db/database";
import type { DB } from "./db/schema";
import { ApiError } from "./http";
import type { JobDefinition } from "./jobs/registry";
import { PROCESS_NODE } from "./process-node";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long a claim holds its key unrenewed: a retry this long after its holder died takes over. */
export const IDEMPOTENCY_LEASE_MS = 30_000;
/** The holder renews its lease this often while the work runs, so work of any length keeps its key. */
const IDEMPOTENCY_RENEW_MS = 10_000;
/** A finished key answers retries this long (the draft standard's 24 h), then the job purges it. */
export const IDEMPOTENCY_KEEP_MS = 24 * 3_600_000;

export interface StoredResponse<T> {
  status: number;
  body: T;
  /** true when this answer was stored by an earlier request with the same key. */
  replayed: boolean;
}

export function idempotencyKeyOf(req: Request): string {
  const key = req.get("idempotency-key");
  if (!key) throw new ApiError(400, "idempotency_key_required", "缺少请求幂等键（Idempotency-Key）");
  if (!UUID.test(key)) throw new ApiError(400, "idempotency_key_invalid", "请求幂等键格式不正确");
  return key.toLowerCase();
}

export function fingerprintOf(body: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(body ?? null))
    .digest("hex");
}

const leaseEnd = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;

function inFlight(seconds: number): ApiError {
  return new ApiError(
    409,
    "idempotency_in_flight",
    `相同的请求正在处理中，请 ${seconds} 秒后再试`,
    { retryAfter: seconds },
    { "Retry-After": String(seconds) },
  );
}

export interface IdempotencyOptions {
  /** The holder named in the claim (default: this process). */
  node?: string;
  leaseMs?: number;
  renewMs?: number;
  /** Where a lost lease is reported. */
  logger?: Logger;
}

/**
 * Runs `work` once per (user, route, key). `work` returns the status and body to store; an
 * ApiError it throws is stored too (a retry gets the same refusal), other errors are not (the key
 * is released so the client may retry).
 */
export async function withIdempotency<T>(
  database: Database,
  input: { userId: number; route: string; key: string; body: unknown },
  work: () => Promise<{ status: number; body: T }>,
  options: IdempotencyOptions = {},
): Promise<StoredResponse<T>> {
  const node = options.node ?? PROCESS_NODE;
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const fingerprint = fingerprintOf(input.body);
  const { db } = database;
  const thisKey = (eb: ExpressionBuilder<DB, "idempotency_keys">) =>
    eb.and({ user_id: input.userId, route: input.route, key: input.key });

  const claimed =
    (await db
      .insertInto("idempotency_keys")
      .values({
        user_id: input.userId,
        route: input.route,
        key: input.key,
        fingerprint,
        lease_owner: node,
        lease_expires_at: leaseEnd(leaseMs),
      })
      .onConflict((oc) => oc.columns(["user_id", "route", "key"]).doNothing())
      .returning("key")
      .executeTakeFirst()) ??
    // The key exists: take it over if its holder's lease ran out. One statement: of retries at
    // once, the first to lock the row moves the lease, the others then find it in the future.
    (await db
      .updateTable("idempotency_keys")
      .set({ lease_owner: node, lease_expires_at: leaseEnd(leaseMs) })
      .where(thisKey)
      .where("completed_at", "is", null)
      .where("fingerprint", "=", fingerprint)
      .where((eb) => eb.or([eb("lease_expires_at", "<", sql<Date>`now()`), eb("lease_expires_at", "is", null)]))
      .returning("key")
      .executeTakeFirst());
  if (!claimed) {
    const earlier = await db
      .selectFrom("idempotency_keys")
      .where(thisKey)
      .selectAll()
      .select(sql<number>`greatest(1, ceil(extract(epoch from (lease_expires_at - now()))))::int`.as("lease_left"))
      .executeTakeFirst();
    // Released a moment ago by a holder whose work failed: the client tries again shortly.
    if (!earlier) throw inFlight(1);
    if (earlier.fingerprint !== fingerprint)
      throw new ApiError(422, "idempotency_key_reused", "该幂等键已用于另一个请求，请勿重复使用");
    if (earlier.completed_at === null || earlier.status_code === null) throw inFlight(earlier.lease_left ?? 1);
    return { status: earlier.status_code, body: earlier.response as T, replayed: true };
  }

  const renewal = setInterval(() => {
    db.updateTable("idempotency_keys")
      .set({ lease_expires_at: leaseEnd(leaseMs) })
      .where(thisKey)
      .where("lease_owner", "=", node)
      .where("completed_at", "is", null)
      .executeTakeFirst()
      .then((renewed) => {
        if (renewed.numUpdatedRows === 0n)
          options.logger?.error({ route: input.route }, "idempotency lease lost while its work runs");
      })
      .catch((err: unknown) => options.logger?.warn({ err, route: input.route }, "idempotency lease not renewed"));
  }, options.renewMs ?? IDEMPOTENCY_RENEW_MS);
  renewal.unref();
  let result: { status: number; body: T };
  try {
    result = await work();
  } catch (err) {
    if (err instanceof ApiError) {
      result = { status: err.status, body: { error: { code: err.code, message: err.message } } as T };
    } else {
      await db
        .deleteFrom("idempotency_keys")
        .where(thisKey)
        .where("lease_owner", "=", node)
        .where("completed_at", "is", null)
        .execute();
      throw err;
    }
  } finally {
    clearInterval(renewal);
  }
  const stored = await db
    .updateTable("idempotency_keys")
    .set({
      status_code: result.status,
      response: JSON.stringify(result.body),
      completed_at: sql<Date>`now()`,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where(thisKey)
    .where("lease_owner", "=", node)
    .executeTakeFirst();
  if (stored.numUpdatedRows === 0n)
    options.logger?.error({ route: input.route }, "idempotency key was taken over before its work finished");
  return { ...result, replayed: false };
}

/**
 * The route side of it: reads the request's key, runs `work` once for it, and answers with the
 * stored status and body (marking a replay with `Idempotent-Replayed: true`).
 */
export async function respondIdempotently<T>(
  database: Database,
  req: Request,
  res: Response,
  input: { userId: number; route: string; body: unknown },
  work: () => Promise<T>,
  status = 200,
): Promise<void> {
  const key = idempotencyKeyOf(req);
  const result = await withIdempotency(database, { ...input, key }, async () => ({ status, body: await work() }), {
    logger: req.log,
  });
  if (result.replayed) res.setHeader("Idempotent-Replayed", "true");
  res.status(result.status).json(result.body);
}

/** `respondIdempotently` for one database, with positional arguments: what the money routers call. */
export function idempotentResponder(database: Database) {
  return <T>(
    req: Request,
    res: Response,
    userId: number,
    route: string,
    body: unknown,
    work: () => Promise<T>,
    status?: number,
  ) => respondIdempotently(database, req, res, { userId, route, body }, work, status);
}

/** Deletes keys finished (or claims abandoned) more than IDEMPOTENCY_KEEP_MS ago; answers how many. */
export async function purgeIdempotencyKeys(database: Database): Promise<number> {
  const result = await database.db
    .deleteFrom("idempotency_keys")
    .where(
      sql<Date>`coalesce(completed_at, lease_expires_at)`,
      "<",
      sql<Date>`now() - make_interval(secs => ${IDEMPOTENCY_KEEP_MS / 1000})`,
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const idempotencyKeysJob: JobDefinition = {
  name: "idempotency-keys",
  everyMs: 3_600_000,
  async run(ctx) {
    const purged = await purgeIdempotencyKeys(ctx.database);
    if (purged) ctx.logger.info({ purged }, "expired idempotency keys purged");
    return { purged };
  },
};
