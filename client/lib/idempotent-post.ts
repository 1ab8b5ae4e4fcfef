/**
 * POSTs that must happen once (paying, ordering, exchanging, redeeming) carry an
 * Idempotency-Key: the same key while the same request is retried after a network failure, a
 * fresh one once the server has answered or the request changes.
 */
import type { z } from "zod";
import { createAjax } from "../../shared/ajax";

/** Where one learner action keeps its key between attempts (a React ref, or any holder). */
export interface IdempotencyKeyHolder {
  current: { fingerprint: string; key: string } | null;
}

/** A POST with the holder's Idempotency-Key, made for this request unless the same one is retried. */
export async function postIdempotent<T>(
  holder: IdempotencyKeyHolder,
  path: string,
  body: unknown,
  schema?: z.ZodType<T> | PromiseLike<z.ZodType<T>>,
): Promise<T> {
  const fingerprint = `${path} ${JSON.stringify(body ?? null)}`;
  if (!holder.current || holder.current.fingerprint !== fingerprint) {
    holder.current = { fingerprint, key: crypto.randomUUID() };
  }
  try {
    const result = await createAjax({ headers: { "Idempotency-Key": holder.current.key } })<T>(path, {
      method: "POST",
      body,
      ...(schema ? { schema } : {}),
    });
    holder.current = null;
    return result;
  } catch (err) {
    // The server answered (a refusal): the next attempt is a new action.
    const status = (err as { statusCode?: number } | null)?.statusCode ?? 0;
    if (status > 0 && status < 500) holder.current = null;
    throw err;
  }
}
