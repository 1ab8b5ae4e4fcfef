/**
 * Browser entry: read the boot payload, load the first page's route group and resolve the lazy
 * pages of the first match, then hydrate the whole document with the same route table the server used.
 */
// Fast Refresh's preamble must run before any component module (empty in builds).
import "@vitejs/plugin-react/preamble";
// Before any module that could build a zod schema.
import "./lib/zod-config";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { createBrowserRouter, matchRoutes, type RouteObject, RouterProvider } from "react-router-dom";
import { BOOT_ELEMENT_ID, DocumentProvider, type RootData } from "./lib/root-data";
import { browserApi } from "./lib/api";
import { provideRouteDescriptions } from "./lib/route-descriptions";
import { emitRouteChanged, registerNavigationHook, routeChangedEventHook } from "./lib/nav-hooks";
import { loaderIncrement, progressBar } from "./lib/progress";
import { createDataStrategy } from "./routing/data-strategy";
import type { NavEnv } from "./routing/nav-context";
import { initialRoutes, loadEntryPages, patchGroups } from "./routing/entry-routes";
import "./styles/app.css";

declare global {
  interface Window {
    __staticRouterHydrationData?: unknown;
  }
}

async function boot() {
  const element = document.getElementById(BOOT_ELEMENT_ID);
  if (!element?.textContent) throw new Error("boot payload missing");
  const raw = element.textContent;
  const payload = JSON.parse(raw) as { root: RootData; router: unknown };
  const root = payload.root;

  const env: NavEnv = {
    isServer: false,
    viewer: root.viewer,
    // The server sends unsupported browsers to /bowser before anything hydrates.
    unsupportedBrowser: false,
    userAgent: navigator.userAgent,
    fixtures: root.fixtures,
    api: browserApi,
    onLoaderResolved: (def) => progressBar.increase(loaderIncrement(def)),
  };
  // The entry's pages, and the route group of this page when it belongs to one (decision 048);
  // this page's modules by the addresses the server preloaded (decision 050).
  const { routes, groups, preloadPages } = await initialRoutes(
    () => env,
    window.location.pathname,
    root.assets.modules,
  );

  // Lazy pages of the first match must be in place before hydration, or the router would
  // start without them and render a fallback instead of the server's HTML.
  const initial = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    initial.map(async ({ route }) => {
      if (typeof route.lazy !== "function") return;
      const resolved = await route.lazy();
      Object.assign(route as RouteObject, { ...resolved, lazy: undefined });
    }),
  );

  // The router reads (and revives errors from) this global when no hydrationData is given.
  window.__staticRouterHydrationData = payload.router;
  // The pages' descriptions (the document head) load after hydration; a navigation waits for them.
  let described: Promise<void> | undefined;
  const describe = () =>
    (described ??= import("../shared/page-descriptions").then(
      (m) => provideRouteDescriptions(m.routeDescription),
      () => provideRouteDescriptions(() => undefined),
    ));
  const strategy = createDataStrategy(() => env);
  const router = createBrowserRouter(routes, {
    dataStrategy: async (args) => {
      await describe();
      return strategy(args);
    },
    patchRoutesOnNavigation: patchGroups(() => env, groups),
  });

  registerNavigationHook(routeChangedEventHook);

  // Progress bar: starts when a navigation changes the page (not for query-only changes);
  // a newer navigation restarts it (the router has already aborted the older one).
  let previous = router.state.location;
  let loadingKey: string | null = null;
  let barRunning = false;
  router.subscribe((state) => {
    const next = state.navigation.location;
    if (state.navigation.state !== "idle" && next) {
      if (next.key !== loadingKey) {
        loadingKey = next.key;
        if (next.pathname !== state.location.pathname) {
          progressBar.start();
          barRunning = true;
        }
      }
      return;
    }
    loadingKey = null;
    const error = state.errors ? Object.values(state.errors)[0] : undefined;
    if (barRunning) {
      if (error) progressBar.fail();
      progressBar.finish();
      barRunning = false;
    }
    if (state.location.key !== previous.key) {
      const from = previous.pathname + previous.search;
      previous = state.location;
      emitRouteChanged({ to: state.location.pathname + state.location.search, from, error });
    }
  });

  hydrateRoot(
    document,
    <StrictMode>
      <DocumentProvider value={{ root, nonce: "", boot: raw }}>
        <RouterProvider router={router} />
      </DocumentProvider>
    </StrictMode>,
  );
  void describe();
  void loadEntryPages().catch(() => undefined);
  // The other pages of this page's route group, if it has one (decision 054).
  preloadPages?.();
}

boot().catch((err) => {
  console.error("boot failed", err);
});
