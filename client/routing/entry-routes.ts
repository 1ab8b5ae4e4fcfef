/**
 * The browser's routes: the pages of the entry's table from the start, each route group
 * (./groups) added when a navigation first reaches it (decision 048). The imports of the entry's
 * pages are a chunk of their own (./entry-pages), loaded after hydration; the first page comes by
 * the address the server gave (decision 050). A route group's page imports are likewise apart from
 * its definitions (./group-pages; decision 054).
 */
import { matchRoutes, type PatchRoutesOnNavigationFunction, type RouteObject } from "react-router-dom";
import { entryRouteTable } from "../../shared/routes";
import type { RouteDef } from "../../shared/route-def";
import { withChunkReload } from "./chunk-reload";
import {
  buildRoutes,
  byPage,
  type EnvOf,
  layoutRouteId,
  type PageImporters,
  type PageModule,
  pageImporterOf,
  pageModuleKey,
  pageRoutes,
  ROUTE_GROUPS,
  type RouteGroupModule,
} from "./routes";

let entryPageImports: Promise<PageImporters> | undefined;

/**
 * Starts loading the entry's page imports (once; again after a failure); every page but the first
 * waits for them. A failure reaches the page import that needed them, which follows the reload
 * rule; the load started after hydration does not reload the page by itself.
 */
export function loadEntryPages(): Promise<PageImporters> {
  return (entryPageImports ??= import("./entry-pages").then(
    (m) => m.entryPages,
    (err: unknown) => {
      entryPageImports = undefined;
      throw err;
    },
  ));
}

/**
 * Importers of `defs`' pages (and their children's): a page the server preloaded by the address
 * of its chunk (`modules`, manifest key → URL, from the server; the same module the page imports
 * would give), the others through the page map `rest` gives once one of them is needed.
 */
function pageImporters(
  defs: readonly RouteDef[],
  modules: Readonly<Record<string, string>>,
  rest: () => Promise<PageImporters>,
): PageImporters {
  const out: PageImporters = {};
  // Not walkRoutes: its default table is the whole one, which would bring the route groups back.
  const defsOf = (list: readonly RouteDef[]): RouteDef[] => list.flatMap((def) => [def, ...defsOf(def.children ?? [])]);
  for (const def of defsOf(defs)) {
    const url = modules[pageModuleKey(def)];
    out[def.page] = url
      ? () => import(/* @vite-ignore */ url) as Promise<PageModule>
      : async () => pageImporterOf(def, await rest())();
  }
  return out;
}

/** The entry's pages: the first page's by the address the server gave, the others through ./entry-pages. */
export function entryPageImporters(modules: Readonly<Record<string, string>>): PageImporters {
  return pageImporters(entryRouteTable, modules, loadEntryPages);
}

const groupModules = import.meta.glob<RouteGroupModule>("./groups/*.ts");

/** The route group owning a path (by its first segment), if any. */
export function groupFileOf(pathname: string): string | undefined {
  const first = pathname.split("/")[1] ?? "";
  return Object.hasOwn(ROUTE_GROUPS, first) ? ROUTE_GROUPS[first] : undefined;
}

async function loadGroup(
  file: string,
  modules: Readonly<Record<string, string>> = {},
): Promise<{ defs: RouteDef[]; pages: PageImporters; preload: () => void }> {
  const importer = groupModules[`./groups/${file}.ts`];
  if (!importer) throw new Error(`no route group ${file}`);
  const group = await withChunkReload(importer)();
  // The group's page map, loaded once (again after a failure), as loadEntryPages does the entry's:
  // after hydration for the first page's group, with its first page for a navigation.
  let map: Promise<PageImporters> | undefined;
  const rest = () =>
    (map ??= group.loadPages().then(
      (m) => byPage(m.pages),
      (err: unknown) => {
        map = undefined;
        throw err;
      },
    ));
  return {
    defs: group.defs,
    pages: pageImporters(group.defs, modules, rest),
    preload: () => void rest().catch(() => undefined),
  };
}

/**
 * The routes to hydrate `pathname` with: the entry's pages, plus the route group of the path
 * when the entry's pages alone do not match it completely (as the router would then ask for
 * more routes). The server has preloaded that group's module with the page, and gives the
 * addresses of the page's modules (`modules`).
 */
export async function initialRoutes(
  envOf: EnvOf,
  pathname: string,
  modules: Readonly<Record<string, string>>,
): Promise<{ routes: RouteObject[]; groups: Set<string>; preloadPages?: () => void }> {
  const entryPages = entryPageImporters(modules);
  const entryOnly = buildRoutes(envOf, entryRouteTable, entryPages);
  const matches = matchRoutes(entryOnly, pathname);
  const complete = matches !== null && Object.keys(matches[0]!.params).length === 0;
  const file = complete ? undefined : groupFileOf(pathname);
  if (!file) return { routes: entryOnly, groups: new Set() };
  const group = await loadGroup(file, modules);
  const routes = buildRoutes(envOf, [...entryRouteTable, ...group.defs], { ...entryPages, ...group.pages });
  return { routes, groups: new Set([file]), preloadPages: group.preload };
}

/** Adds a route group the first time a navigation reaches one of its paths. */
export function patchGroups(envOf: EnvOf, patched: Set<string>): PatchRoutesOnNavigationFunction {
  return async ({ path, patch, signal }) => {
    const file = groupFileOf(path);
    if (!file || patched.has(file)) return;
    const group = await loadGroup(file);
    // The page about to load needs the group's page map: started with the routes' patch.
    group.preload();
    if (signal.aborted || patched.has(file)) return;
    for (const def of group.defs) patch(layoutRouteId(def), pageRoutes(def, envOf, group.pages));
    patched.add(file);
  };
}
