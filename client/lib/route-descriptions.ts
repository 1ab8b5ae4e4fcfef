/**
 * Where the document head finds a page's description (shared/page-descriptions.ts). The server
 * provides the table when its renderer loads; the browser loads it after hydration and before
 * its first navigation (decision 048). Until then the head uses the description the server sent
 * for the page being hydrated, which is the same.
 */
import type { RouteDef } from "../../shared/route-def";

type Lookup = (chain: readonly RouteDef[]) => string | undefined;

let lookup: Lookup | undefined;

export function provideRouteDescriptions(fn: Lookup): void {
  lookup = fn;
}

/** The description of the deepest matched route that has one; `sent` before the table is loaded. */
export function describeRoute(chain: readonly RouteDef[], sent: string | undefined): string | undefined {
  return lookup ? lookup(chain) : sent;
}
