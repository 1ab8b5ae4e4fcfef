/**
 * The browser's routes: the pages of the entry's table from the start, each route group
 * (./groups) added when a navigation first reaches it (decision 048).
 */
import { matchRoutes, type PatchRoutesOnNavigationFunction, type RouteObject } from "react-router-dom";
import { entryRouteTable, type RouteDef } from "../../shared/routes";
import { withChunkReload } from "./chunk-reload";
import {
  buildRoutes,
  byPage,
  type EnvOf,
  layoutRouteId,
  type PageImporters,
  type PageModule,
  pageRoutes,
  ROUTE_GROUPS,
  type RouteGroupModule,
} from "./routes";

/** The entry's pages: every page module outside the route groups' folders (and /my/logout). */
const entryPages = byPage({
  ...import.meta.glob<PageModule>([
    "../features/**/*.page.tsx",
    "!../features/my/**",
    "!../features/teach/**",
    "!../features/admin/**",
    "!../features/fixture/**",
  ]),
  ...import.meta.glob<PageModule>("../features/my/Logout.page.tsx"),
});

const groupModules = import.meta.glob<RouteGroupModule>("./groups/*.ts");

/** The route group owning a path (by its first segment), if any. */
export function groupFileOf(pathname: string): string | undefined {
  const first = pathname.split("/")[1] ?? "";
  return Object.hasOwn(ROUTE_GROUPS, first) ? ROUTE_GROUPS[first] : undefined;
}

async function loadGroup(file: string): Promise<{ defs: RouteDef[]; pages: PageImporters }> {
  const importer = groupModules[`./groups/${file}.ts`];
  if (!importer) throw new Error(`no route group ${file}`);
  const group = await withChunkReload(importer)();
  return { defs: group.defs, pages: byPage(group.pages) };
}

/**
 * The routes to hydrate `pathname` with: the entry's pages, plus the route group of the path
 * when the entry's pages alone do not match it completely (as the router would then ask for
 * more routes). The server has preloaded that group's module with the page.
 */
export async function initialRoutes(
  envOf: EnvOf,
  pathname: string,
): Promise<{ routes: RouteObject[]; groups: Set<string> }> {
  const entryOnly = buildRoutes(envOf, entryRouteTable, entryPages);
  const matches = matchRoutes(entryOnly, pathname);
  const complete = matches !== null && Object.keys(matches[0]!.params).length === 0;
  const file = complete ? undefined : groupFileOf(pathname);
  if (!file) return { routes: entryOnly, groups: new Set() };
  const group = await loadGroup(file);
  const routes = buildRoutes(envOf, [...entryRouteTable, ...group.defs], { ...entryPages, ...group.pages });
  return { routes, groups: new Set([file]) };
}

/** Adds a route group the first time a navigation reaches one of its paths. */
export function patchGroups(envOf: EnvOf, patched: Set<string>): PatchRoutesOnNavigationFunction {
  return async ({ path, patch, signal }) => {
    const file = groupFileOf(path);
    if (!file || patched.has(file)) return;
    const group = await loadGroup(file);
    if (signal.aborted || patched.has(file)) return;
    for (const def of group.defs) patch(layoutRouteId(def), pageRoutes(def, envOf, group.pages));
    patched.add(file);
  };
}
