/**
 * Turns route definitions into router routes, once for the server and once for the browser.
 * Each page is registered as its clean path and as `…/index.html`.
 *
 * The browser's entry knows the pages of `entryRouteTable` only; each route group (the /my
 * pages, /teach, /admin, the test fixtures) is a module of its own under ./groups, holding its
 * definitions and its pages' imports, loaded with the group's first page (decision 048). The
 * server builds the whole table at once (./all-routes).
 */
import type { ComponentType } from "react";
import type { RouteObject } from "react-router-dom";
import type { LayoutName, RouteDef } from "../../shared/route-def";
import { Document, RootErrorBoundary } from "../app/Document";
import { layouts } from "../layouts/layouts";
import { withChunkReload } from "./chunk-reload";
import type { NavEnv, PageLoaderArgs } from "./nav-context";

export interface PageModule {
  default: ComponentType;
  /** The page's data (the spec's asyncData); must be JSON-safe. */
  loader?: (args: PageLoaderArgs) => unknown;
}

/** Page modules by page name (`RouteDef.page`, e.g. "my/Order"). */
export type PageImporters = Record<string, () => Promise<PageModule>>;

/** Keys a `import.meta.glob` of `…/features/**\/*.page.tsx` by page name. */
export function byPage(glob: Record<string, () => Promise<PageModule>>): PageImporters {
  const out: PageImporters = {};
  for (const [file, importer] of Object.entries(glob)) {
    const page = /\/features\/(.+)\.page\.tsx$/.exec(file)?.[1];
    if (page) out[page] = importer;
  }
  return out;
}

/**
 * A route group's module (./groups/*.ts): its top-level definitions, and the import of its pages'
 * imports (an `import.meta.glob` keyed by file, in ./group-pages/*.ts of the same name), which
 * load apart (decision 054). It imports nothing of the entry at run time, so it stays one chunk
 * of its own.
 */
export interface RouteGroupModule {
  defs: RouteDef[];
  loadPages: () => Promise<{ pages: Record<string, () => Promise<PageModule>> }>;
}

/** Route groups by the first path segment they own, and the file under ./groups holding each. */
export const ROUTE_GROUPS: Readonly<Record<string, string>> = {
  my: "my",
  teach: "teach",
  admin: "admin",
  __test: "fixtures",
};

/** The manifest key of a route group's module. */
export const groupModuleKey = (file: string) => `client/routing/groups/${file}.ts`;

/** The route group a top-level definition heads, if any. */
export function groupOf(def: RouteDef): string | undefined {
  return Object.hasOwn(ROUTE_GROUPS, def.path) ? ROUTE_GROUPS[def.path] : undefined;
}

/** The manifest key of a page module (the server preloads matched pages' chunks by it). */
export function pageModuleKey(def: RouteDef): string {
  return `client/features/${def.page}.page.tsx`;
}

/**
 * What the server preloads for a matched chain: the pages' modules and, when the chain is in a
 * route group, the group's module (the browser needs it before it can hydrate).
 */
export function moduleKeysOf(chain: RouteDef[]): string[] {
  const group = chain[0] ? groupOf(chain[0]) : undefined;
  const keys = chain.map(pageModuleKey);
  return group ? [groupModuleKey(group), ...keys] : keys;
}

export type EnvOf = (context: unknown) => NavEnv;

/** The importer of a definition's page module. */
export function pageImporterOf(def: RouteDef, pages: PageImporters): () => Promise<PageModule> {
  const importer = pages[def.page];
  if (!importer) throw new Error(`Route ${def.id}: no page module client/features/${def.page}.page.tsx`);
  return importer;
}

function importerOf(def: RouteDef, pages: PageImporters): () => Promise<PageModule> {
  return withChunkReload(pageImporterOf(def, pages));
}

/** The router routes of one definition (and its children); a route group's are patched in this way. */
export function pageRoutes(def: RouteDef, envOf: EnvOf, pages: PageImporters): RouteObject[] {
  const load = importerOf(def, pages);
  const shared = {
    handle: { def },
    loader: async ({
      request,
      params,
      context,
    }: {
      request: Request;
      params: PageLoaderArgs["params"];
      context?: unknown;
    }) => {
      const mod = await load();
      if (!mod.loader) return null;
      return (await mod.loader({ request, params, signal: request.signal, env: envOf(context) })) ?? null;
    },
    lazy: async () => ({ Component: (await load()).default }),
  };
  const children = def.children?.flatMap((child) => pageRoutes(child, envOf, pages));
  const indexHtml: RouteObject = {
    ...shared,
    id: `${def.id}~index.html`,
    path: def.path ? `${def.path}/index.html` : "index.html",
  };
  if (children) {
    // A parent's `/index.html` form is its index child's; the parent itself is registered once.
    return [{ ...shared, id: def.id, path: def.path, children }];
  }
  const clean: RouteObject = def.path
    ? { ...shared, id: def.id, path: def.path }
    : { ...shared, id: def.id, index: true };
  return [clean, indexHtml];
}

/** The id of the layout route a top-level definition is a child of. */
export const layoutRouteId = (def: RouteDef) => `layout.${def.layout ?? "default"}`;

export function buildRoutes(envOf: EnvOf, defs: RouteDef[], pages: PageImporters): RouteObject[] {
  const byLayout = new Map<LayoutName, RouteDef[]>();
  // Every layout route exists, with or without pages: a route group loaded later is added
  // under its layout's route (patchRoutes needs the parent).
  for (const name of Object.keys(layouts) as LayoutName[]) byLayout.set(name, []);
  for (const def of defs) byLayout.get(def.layout ?? "default")!.push(def);
  return [
    {
      id: "root",
      path: "/",
      Component: Document,
      ErrorBoundary: RootErrorBoundary,
      children: [...byLayout].map(([name, layoutDefs]) => ({
        id: `layout.${name}`,
        Component: layouts[name],
        children: layoutDefs.flatMap((def) => pageRoutes(def, envOf, pages)),
      })),
    },
  ];
}
