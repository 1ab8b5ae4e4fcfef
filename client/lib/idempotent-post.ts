/**
 * POSTs that must happen once (paying, ordering, exchanging, redeeming) carry an
 * Idempotency-Key: the same key while the same request is retried after a network failure, a
 * fresh one once the server has answered or the request changes.
 */
import { useCallback, useRef } from "react";
import type { z } from "zod";
import { createAjax } from "../../shared/ajax";

/** A POST with an Idempotency-Key: one key per learner action, kept while the same call is retried. */
export function useIdempotentPost() {
  const current = useRef<{ fingerprint: string; key: string } | null>(null);
  return useCallback(
    async <T>(path: string, body: unknown, schema: z.ZodType<T> | PromiseLike<z.ZodType<T>>): Promise<T> => {
      const fingerprint = `${path} ${JSON.stringify(body ?? null)}`;
      if (!current.current || current.current.fingerprint !== fingerprint) {
        current.current = { fingerprint, key: crypto.randomUUID() };
      }
      try {
        const result = await createAjax({ headers: { "Idempotency-Key": current.current.key } })(path, {
          method: "POST",
          body,
          schema,
        });
        current.current = null;
        return result;
      } catch (err) {
        // The server answered (a refusal): the next attempt is a new action.
        const status = (err as { statusCode?: number } | null)?.statusCode ?? 0;
        if (status > 0 && status < 500) current.current = null;
        throw err;
      }
    },
    [],
  );
}
