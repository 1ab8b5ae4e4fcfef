/**
 * Turns the shared route table into router routes, once for the server and once for the
 * browser. Each page is registered as its clean path and as `…/index.html`.
 */
import type { ComponentType } from "react";
import type { RouteObject } from "react-router-dom";
import { type LayoutName, type RouteDef, routeTable } from "../../shared/routes";
import { Document, RootErrorBoundary } from "../app/Document";
import { layouts } from "../layouts/layouts";
import { withChunkReload } from "./chunk-reload";
import type { NavEnv, PageLoaderArgs } from "./nav-context";

export interface PageModule {
  default: ComponentType;
  /** The page's data (the spec's asyncData); must be JSON-safe. */
  loader?: (args: PageLoaderArgs) => unknown;
}

const pageModules = import.meta.glob<PageModule>("../features/**/*.page.tsx");

/** The manifest key of a page module (the server preloads matched pages' chunks by it). */
export function pageModuleKey(def: RouteDef): string {
  return `client/features/${def.page}.page.tsx`;
}

function importerOf(def: RouteDef): () => Promise<PageModule> {
  const importer = pageModules[`../features/${def.page}.page.tsx`];
  if (!importer) throw new Error(`Route ${def.id}: no page module client/features/${def.page}.page.tsx`);
  return withChunkReload(importer);
}

export type EnvOf = (context: unknown) => NavEnv;

function pageRoutes(def: RouteDef, envOf: EnvOf): RouteObject[] {
  const load = importerOf(def);
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
  const children = def.children?.flatMap((child) => pageRoutes(child, envOf));
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

export function buildRoutes(envOf: EnvOf, defs: RouteDef[] = routeTable): RouteObject[] {
  const byLayout = new Map<LayoutName, RouteDef[]>();
  for (const def of defs) {
    const name = def.layout ?? "default";
    byLayout.set(name, [...(byLayout.get(name) ?? []), def]);
  }
  return [
    {
      id: "root",
      path: "/",
      Component: Document,
      ErrorBoundary: RootErrorBoundary,
      children: [...byLayout].map(([name, layoutDefs]) => ({
        id: `layout.${name}`,
        Component: layouts[name],
        children: layoutDefs.flatMap((def) => pageRoutes(def, envOf)),
      })),
    },
  ];
}
