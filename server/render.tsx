/**
 * Server rendering (DESIGN §3): match the shared table, run middleware and validate, then the
 * page loaders, then stream the whole document with renderToPipeableStream. Browsers get the
 * shell as soon as it is ready; crawlers get the complete page in one piece.
 */
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { isbot } from "isbot";
import type { Logger } from "pino";
import { renderToPipeableStream } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  type DataRouteObject,
  type DataStrategyFunction,
  type DataStrategyResult,
  isRouteErrorResponse,
  matchRoutes,
  type StaticHandler,
  type StaticHandlerContext,
  StaticRouterProvider,
} from "react-router-dom";
import { laterPartsLoading } from "../client/lib/hydrate-later";
import { DocumentProvider, type RootData } from "../client/lib/root-data";
import { createDataStrategy, toRouteError } from "../client/routing/data-strategy";
import type { NavEnv } from "../client/routing/nav-context";
import { buildAllRoutes } from "../client/routing/all-routes";
import { moduleKeysOf } from "../client/routing/routes";
import { provideRouteDescriptions } from "../client/lib/route-descriptions";
import { routeDescription } from "../shared/page-descriptions";
import { createAjax } from "../shared/ajax";
import { AppError, ERROR_PAGE_FAILED, GO_HOME_TEXT, normalizeError, SERVICE_BUSY_MESSAGE } from "../shared/errors";
import { accessOf, defOf, isStaffAccess, type RouteDef } from "../shared/routes";
import { serializeBoot } from "../shared/serialize";
import { SERVICE_BUSY_RETRY_AFTER_S, ssrLoaders, ssrRender } from "../api/index";
import type { AssetResolver } from "./assets";
import { isUnsupportedBrowser } from "./browser-support";
import { IN_PROCESS_ORIGIN, type InProcessApi } from "./in-process-api";
import { cspNonce } from "./security";

export type StaticRootData = Omit<RootData, "assets" | "viewer">;

/** The router's dehydrated state, in the shape createBrowserRouter reads back. */
export function hydrationState(ctx: StaticHandlerContext) {
  let errors: Record<string, unknown> | null = null;
  if (ctx.errors) {
    errors = {};
    for (const [id, err] of Object.entries(ctx.errors)) {
      if (isRouteErrorResponse(err)) errors[id] = { ...err, __type: "RouteErrorResponse" };
      else if (err instanceof Error) errors[id] = { message: err.message, __type: "Error" };
      else errors[id] = err;
    }
  }
  return { loaderData: ctx.loaderData, actionData: ctx.actionData, errors };
}

/**
 * Express request → Fetch Request whose signal aborts when the client goes away. It carries the
 * method, the URL and the signal only: no loader or middleware reads request headers (the visitor
 * reaches them through `env`: the viewer, the browser check, and the API client that forwards the
 * cookie), so they are not copied into a Headers object on every page.
 */
function toFetchRequest(req: ExpressRequest, res: ExpressResponse, url: URL): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(url, { method: req.method, signal: controller.signal });
}

/** The last resort when even the error page cannot be rendered: static, no script. */
export function errorPageFailedHtml(siteName: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${siteName}</title></head><body><h2>${ERROR_PAGE_FAILED}</h2><p>显示错误页时又发生了错误。</p><p><a href="/">${GO_HOME_TEXT}</a></p></body></html>`;
}

/**
 * How loaders reach the API from this process: over HTTP to API_ORIGIN (the global fetch keeps
 * its connections alive), else injected into the in-process API, never over a socket to this
 * very server (whose listener closes while the process drains: decision 013).
 */
export function loaderApiFor(
  req: ExpressRequest,
  res: ExpressResponse,
  opts: Pick<RendererOptions, "apiOrigin" | "inProcessApi">,
): { baseUrl: string; fetch?: typeof fetch } {
  if (opts.apiOrigin) return { baseUrl: opts.apiOrigin };
  if (!opts.inProcessApi) throw new Error("the renderer needs API_ORIGIN or the in-process API");
  // The visitor's address as resolved through our trusted proxies only (trust proxy hops).
  const clientIp = req.ip ?? req.socket.remoteAddress ?? "unknown";
  // The session the page read for its viewer (server/app.ts), so the API does not read it again.
  const session = res.locals.pageSession;
  return { baseUrl: IN_PROCESS_ORIGIN, fetch: opts.inProcessApi.fetchFor(clientIp, session) };
}

export const LOADER_API_TIMEOUT_MS = 5000;

export interface RendererOptions {
  apiOrigin?: string;
  assets: AssetResolver;
  root: StaticRootData;
  streamTimeoutMs: number;
  logger: Logger;
  routes?: RouteDef[];
  /** The API in this process (no API_ORIGIN): loaders call it without a socket. */
  inProcessApi?: InProcessApi;
}

/**
 * Weak validator of an anonymous page: its boot payload (loader data, errors and root data, with
 * the build's stylesheets and preloads, as the page embeds it), status, entry scripts and crawler
 * flavour. It hashes the payload already serialised for the page, never serialises the data again.
 */
export function pageEtag(boot: string, statusCode: number, bootstrap: readonly string[], crawler: boolean): string {
  const hash = createHash("sha256")
    .update(boot)
    .update(`\0${statusCode}\0${bootstrap.join("\n")}\0${crawler ? 1 : 0}`)
    .digest("base64url")
    .slice(0, 27);
  return `W/"${hash}"`;
}

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === opaque;
  });
}

/** The route-table pattern (`/course/:id`) of the router's matches; null when no page matched. */
export function patternOfMatches(matches: ReadonlyArray<{ route: { path?: string; handle?: unknown } }> | null) {
  if (!matches?.some((m) => defOf(m.route))) return null;
  const parts = matches.map((m) => m.route.path ?? "").filter((p) => p && p !== "/");
  return `/${parts.join("/")}`;
}

/**
 * The matched route-table pattern of a URL, for metrics; null when no page matches. This matches
 * the whole table again (react-router's `matchRoutes` flattens and ranks it on every call), so the
 * renderer only uses it when the static handler gave no matches back (a redirect, a failure);
 * rendered pages take the pattern from the handler's own matches.
 */
export function routePatternOf(routes: Parameters<typeof matchRoutes>[0], pathname: string): string | null {
  return patternOfMatches(matchRoutes(routes, pathname));
}

/**
 * The matched branch of the route tree (each matched route with the next one as its only child),
 * for the static router. createStaticRouter copies every route it is given into a new data route
 * on each call; rendering reads the matches, the loader data and the errors of the handler's
 * context, never the rest of the table, so it gets the branch instead of the whole table (every
 * page twice, about 300 routes) on every page.
 */
export function matchedBranch(matches: StaticHandlerContext["matches"]): DataRouteObject[] {
  let branch: DataRouteObject[] | undefined;
  for (let i = matches.length - 1; i >= 0; i--) {
    const route = matches[i]?.route;
    if (route) branch = [{ ...route, children: branch } as DataRouteObject];
  }
  return branch ?? [];
}

/** How many distinct paths `branchHandlers` remembers (the oldest is forgotten first). */
export const BRANCH_PATHS_REMEMBERED = 5000;
const MAX_REMEMBERED_PATH = 256;

/**
 * A static handler per matched branch of the table. react-router's handler matches a request by
 * flattening and ranking the whole table (every page twice, about 300 branches) on every query;
 * here each path is matched against the whole table once, and later requests for it are queried
 * on a handler that holds only its branch (the same route objects and ids, so loader data and
 * errors are keyed as the browser's router expects). A path that matches nothing is left to the
 * whole table, which renders the 404 page.
 */
export function branchHandlers(whole: StaticHandler, remember = BRANCH_PATHS_REMEMBERED) {
  const byBranch = new Map<string, StaticHandler>();
  const byPath = new Map<string, StaticHandler>();
  return function handlerFor(pathname: string): StaticHandler {
    const known = byPath.get(pathname);
    if (known) return known;
    const matches = matchRoutes(whole.dataRoutes, pathname);
    if (!matches?.length) return whole;
    const key = matches.map((m) => m.route.id).join("\0");
    const chosen = byBranch.get(key) ?? createStaticHandler(matchedBranch(matches));
    byBranch.set(key, chosen);
    // Only page paths of a sensible length are remembered: a visitor cannot fill it with 404s or
    // kilobyte-long addresses.
    if (pathname.length <= MAX_REMEMBERED_PATH) {
      if (byPath.size >= remember) byPath.delete(byPath.keys().next().value as string);
      byPath.set(pathname, chosen);
    }
    return chosen;
  };
}

/**
 * The page when a signed-in visitor's session could not be read (the database or the API is
 * down): no loader runs, the page being opened is the error page with 503 "service busy".
 */
const serviceBusy: DataStrategyFunction = async ({ matches }) => {
  const toLoad = matches.filter((m) => m.shouldCallHandler());
  const deepest = toLoad[toLoad.length - 1];
  const results: Record<string, DataStrategyResult> = {};
  await Promise.all(
    toLoad.map(async (match) => {
      results[match.route.id] = await match.resolve(async () => {
        if (match === deepest) throw toRouteError(new AppError(503, SERVICE_BUSY_MESSAGE));
        return null;
      });
    }),
  );
  return results;
};

provideRouteDescriptions(routeDescription);

export function createRenderer(opts: RendererOptions) {
  const envOf = (context: unknown) => context as NavEnv;
  const handler = createStaticHandler(buildAllRoutes(envOf, opts.routes));
  const handlerFor = branchHandlers(handler);
  const dataStrategy = createDataStrategy(envOf);

  return async function render(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    const matchedAt = performance.now();
    const patternOfPath = () => routePatternOf(handler.dataRoutes, req.path) ?? "unmatched page";
    const userAgent = req.get("user-agent") ?? "";
    const viewer = res.locals.viewer ?? null;
    const busy = res.locals.viewerUnavailable === true;
    const forwarded: Record<string, string> = { "x-request-id": res.locals.requestId ?? "" };
    if (req.headers.cookie) forwarded.cookie = req.headers.cookie;
    const api = createAjax({
      ...loaderApiFor(req, res, opts),
      headers: forwarded,
      timeoutMs: LOADER_API_TIMEOUT_MS,
    });
    const env: NavEnv = {
      isServer: true,
      viewer,
      unsupportedBrowser: isUnsupportedBrowser(userAgent),
      userAgent,
      fixtures: opts.root.fixtures,
      api,
    };

    let ctx: StaticHandlerContext | Response;
    let route: string;
    try {
      const url = new URL(req.originalUrl, "http://localhost");
      ctx = await handlerFor(url.pathname).query(toFetchRequest(req, res, url), {
        requestContext: env,
        dataStrategy: busy ? serviceBusy : dataStrategy,
      });
      route = ctx instanceof Response ? patternOfPath() : (patternOfMatches(ctx.matches) ?? "unmatched page");
      res.locals.routePattern = route;
      ssrLoaders.observe({ route }, (performance.now() - matchedAt) / 1000);
    } catch (err) {
      res.locals.routePattern = patternOfPath();
      next(err);
      return;
    }
    if (res.writableEnded || res.destroyed) return;

    if (ctx instanceof Response) {
      const location = ctx.headers.get("Location");
      if (location && ctx.status >= 300 && ctx.status < 400) {
        res.setHeader("Cache-Control", "no-store");
        res.redirect(ctx.status, location);
      } else {
        res
          .status(ctx.status)
          .type(ctx.headers.get("Content-Type") ?? "text/plain")
          .send(await ctx.text());
      }
      return;
    }

    const chain = ctx.matches.map((m) => defOf(m.route)).filter((d): d is RouteDef => Boolean(d));
    const assets = opts.assets.forModules(moduleKeysOf(chain));
    const root: RootData = {
      ...opts.root,
      viewer,
      assets: { css: assets.css, fonts: assets.fonts, modulepreload: assets.modulepreload, modules: assets.modules },
      routeDescription: routeDescription(chain),
    };
    const personal = busy || Boolean(viewer) || chain.some((d) => d.access !== undefined && d.access !== "public");
    if (busy) res.setHeader("Retry-After", String(SERVICE_BUSY_RETRY_AFTER_S));
    const crawler = isbot(userAgent);
    // The boot payload, serialised once: embedded in the page and, for anonymous pages, hashed.
    const boot = serializeBoot({ root, router: hydrationState(ctx) });
    if (isStaffAccess(accessOf(chain))) res.setHeader("X-Robots-Tag", "noindex, nofollow");
    if (personal) {
      res.setHeader("Cache-Control", "private, no-store");
    } else {
      // Anonymous pages: cached and revalidated. The tag covers the page's data and the build,
      // so a revalidation that matches skips rendering entirely.
      res.setHeader("Cache-Control", "no-cache");
      if (ctx.statusCode === 200) {
        const etag = pageEtag(boot, ctx.statusCode, assets.bootstrap, crawler);
        res.setHeader("ETag", etag);
        if (etagMatches(req.get("if-none-match"), etag)) {
          // The stored copy keeps the CSP (and nonce) it was sent with: a 304 must not replace it.
          res.removeHeader("Content-Security-Policy");
          res.status(304).end();
          return;
        }
      }
    }
    // A page module evaluated for the first time started loading its later parts: the page is
    // rendered with them in place, not with their empty fallback.
    const parts = laterPartsLoading();
    if (parts) {
      await parts;
      if (res.writableEnded || res.destroyed) return;
    }
    streamDocument(ctx, 0, boot);

    function streamDocument(context: StaticHandlerContext, attempt: number, boot: string) {
      const nonce = cspNonce(res);
      /*
       * React renders inside an AsyncLocalStorage run of its own (the store is its whole render
       * state, the page's output included), and its callbacks below are called from inside that
       * run. Whatever they start there would carry the render with it: writing the response arms
       * the keep-alive socket's idle timer, and a timer or file request keeps the store of the
       * context it was created in. The render then outlived its response until the socket's next
       * request, survived the young generation's collections and was promoted on every page
       * (decision 052). The callbacks run in the context this request had before rendering.
       */
      const outside = AsyncLocalStorage.snapshot();
      const router = createStaticRouter(matchedBranch(context.matches), context);
      const status = context.statusCode;
      let settled = false;
      /*
       * A render error before the response began. The page renders inside a Suspense boundary
       * (Document), where React would answer an error with the boundary left empty for the browser
       * to retry; the visitor instead gets the error page, as for an error in the document's frame.
       */
      let failedBeforeSend: { err: unknown } | null = null;
      const { pipe, abort } = renderToPipeableStream(
        <DocumentProvider value={{ root, nonce, boot, styles: assets.styles }}>
          <StaticRouterProvider router={router} context={context} hydrate={false} nonce={nonce} />
        </DocumentProvider>,
        {
          nonce,
          bootstrapModules: assets.bootstrap,
          // A boundary whose content is ready is written in place, however long: React would
          // otherwise send a long one (the page itself is one, see Document) behind a hidden div and
          // move it with a script. Only boundaries still loading come later.
          progressiveChunkSize: Number.MAX_SAFE_INTEGER,
          onShellReady() {
            ssrRender.observe({ route, stage: "shell" }, (performance.now() - matchedAt) / 1000);
            if (!crawler) outside(send);
          },
          onAllReady() {
            if (crawler) outside(send);
          },
          onShellError(err) {
            outside(shellFailed, err);
          },
          onError(err) {
            if (!settled) failedBeforeSend ??= { err };
            res.locals.renderFailed = true;
            if (!res.destroyed) opts.logger.error({ err }, "render error");
          },
        },
      );
      function shellFailed(err: unknown) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.logger.error({ err, attempt }, "render failed");
        // The failed page's validator does not describe the error page sent instead.
        res.removeHeader("ETag");
        if (attempt === 0) {
          const { statusCode, message } = normalizeError(err);
          const failed = new Error(message);
          const failedContext: StaticHandlerContext = {
            ...context,
            errors: { root: failed },
            statusCode: statusCode >= 400 ? statusCode : 500,
            loaderData: {},
          };
          streamDocument(failedContext, 1, serializeBoot({ root, router: hydrationState(failedContext) }));
        } else if (!res.headersSent) {
          res.status(500).type("html").send(errorPageFailedHtml(root.siteName));
        }
      }
      function send() {
        if (settled) return;
        if (failedBeforeSend) {
          shellFailed(failedBeforeSend.err);
          abort(failedBeforeSend.err);
          return;
        }
        settled = true;
        res.status(status);
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        res.once("finish", () =>
          ssrRender.observe({ route, stage: "complete" }, (performance.now() - matchedAt) / 1000),
        );
        // A page with boundaries still loading is ended later, from React's own run: the end too
        // (and the socket's keep-alive timer it arms) happens outside it.
        const end = res.end;
        res.end = function (this: ExpressResponse, ...args: unknown[]) {
          return outside(() => (end as (...a: unknown[]) => ExpressResponse).apply(this, args));
        } as ExpressResponse["end"];
        pipe(res);
      }
      const timer = setTimeout(() => abort(new Error("render timed out")), opts.streamTimeoutMs);
      timer.unref();
      res.on("close", () => {
        clearTimeout(timer);
        if (!res.writableFinished) abort(new Error("client went away"));
      });
    }
  };
}
