/**
 * A code chunk that fails to load (usually after a deploy replaced it) reloads the page once,
 * at most once per 60 s, tracked in sessionStorage under the original key (spec §8). Within
 * the window the error goes on to the error page.
 */
import { CHUNK_RELOAD_STORAGE_KEY, CHUNK_RELOAD_THROTTLE_MS } from "../../shared/constants";

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading( CSS)? chunk \d+ failed/i;

export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return err.name === "ChunkLoadError" || CHUNK_ERROR.test(err.message);
}

/** Reloads when allowed; returns whether it did. */
export function reloadOnceForChunkError(
  storage: Pick<Storage, "getItem" | "setItem"> | undefined,
  now: number,
  reload: () => void,
): boolean {
  if (!storage) return false;
  try {
    const previous = Number.parseInt(storage.getItem(CHUNK_RELOAD_STORAGE_KEY) ?? "", 10);
    if (!previous || previous + CHUNK_RELOAD_THROTTLE_MS < now) {
      storage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
      reload();
      return true;
    }
  } catch {
    // Storage may be disabled (private mode): then the error page shows, as without the rule.
  }
  return false;
}

/** Wraps a dynamic import so a chunk failure in the browser triggers the reload rule. */
export function withChunkReload<T>(importer: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await importer();
    } catch (err) {
      if (typeof window !== "undefined" && isChunkLoadError(err)) {
        reloadOnceForChunkError(window.sessionStorage, Date.now(), () => window.location.reload());
      }
      throw err;
    }
  };
}
