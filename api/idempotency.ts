/**
 * Idempotent requests (reliability reference §4): a state-changing call that moves money or
 * counted things carries an `Idempotency-Key` (a UUID). The first request with a key runs and its
 * response is stored; the same key again returns the stored response; the same key with another
 * body is refused with 422; the same key while the first is still running gets 409.
 * Keys are scoped per learner and route.
 */
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import { sql } from "kysely";
import type { Database } from "./db/database";
import { ApiError } from "./http";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/**
 * Runs `work` once per (user, route, key). `work` returns the status and body to store; an
 * ApiError it throws is stored too (a retry gets the same refusal), other errors are not (the key
 * is released so the client may retry).
 */
export async function withIdempotency<T>(
  database: Database,
  input: { userId: number; route: string; key: string; body: unknown },
  work: () => Promise<{ status: number; body: T }>,
): Promise<StoredResponse<T>> {
  const fingerprint = fingerprintOf(input.body);
  const claimed = await database.db
    .insertInto("idempotency_keys")
    .values({ user_id: input.userId, route: input.route, key: input.key, fingerprint })
    .onConflict((oc) => oc.columns(["user_id", "route", "key"]).doNothing())
    .returning("key")
    .executeTakeFirst();
  if (!claimed) {
    const earlier = await database.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("user_id", "=", input.userId)
      .where("route", "=", input.route)
      .where("key", "=", input.key)
      .executeTakeFirst();
    if (!earlier) throw new ApiError(409, "idempotency_in_flight", "相同的请求正在处理中，请稍后再试");
    if (earlier.fingerprint !== fingerprint)
      throw new ApiError(422, "idempotency_key_reused", "该幂等键已用于另一个请求，请勿重复使用");
    if (earlier.completed_at === null || earlier.status_code === null)
      throw new ApiError(409, "idempotency_in_flight", "相同的请求正在处理中，请稍后再试");
    return { status: earlier.status_code, body: earlier.response as T, replayed: true };
  }
  let result: { status: number; body: T };
  try {
    result = await work();
  } catch (err) {
    if (err instanceof ApiError) {
      result = { status: err.status, body: { error: { code: err.code, message: err.message } } as T };
    } else {
      await database.db
        .deleteFrom("idempotency_keys")
        .where("user_id", "=", input.userId)
        .where("route", "=", input.route)
        .where("key", "=", input.key)
        .execute();
      throw err;
    }
  }
  await database.db
    .updateTable("idempotency_keys")
    .set({ status_code: result.status, response: JSON.stringify(result.body), completed_at: sql<Date>`now()` })
    .where("user_id", "=", input.userId)
    .where("route", "=", input.route)
    .where("key", "=", input.key)
    .execute();
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
  const result = await withIdempotency(database, { ...input, key }, async () => ({ status, body: await work() }));
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
