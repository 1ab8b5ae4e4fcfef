/**
 * The page cache of this node, listening for catalogue changes. Without LISTEN nothing would
 * ever empty it, so when LISTEN cannot be set up the node renders every page instead.
 */
import type { Logger } from "pino";
import { watchCatalogue } from "../api/index";
import { PageCache, type PageCacheOptions } from "./page-cache";
import type { Services } from "../api/index";

export async function pageCacheFor(
  limits: Pick<PageCacheOptions, "maxEntries" | "maxBytes" | "ttlMs">,
  services: Pick<Services, "database">,
  logger: Logger,
): Promise<PageCache | null> {
  const cache = new PageCache({ ...limits, logger });
  try {
    await watchCatalogue(services.database, (reason) => cache.invalidate(reason));
  } catch (err) {
    logger.warn({ err: { message: (err as Error).message } }, "page cache off: catalogue changes cannot be heard");
    return null;
  }
  return cache;
}
