/**
 * Server rendering (DESIGN §3): match the shared table, run middleware and validate, then the
 * page loaders, then stream the whole document with renderToPipeableStream. Browsers get the
 * shell as soon as it is ready; crawlers get the complete page in one piece.
 */
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import { createHash } from "node:crypto";
import { isbot } from "isbot";
import type { Logger } from "pino";
import {
  createStaticHandler,
  type DataStrategyFunction,
  type DataStrategyResult,
  matchRoutes,
  type StaticHandler,
  type StaticHandlerContext,
} from "react-router-dom";
import { laterPartsLoading } from "../client/lib/hydrate-later";
import type { RootData } from "../client/lib/root-data";
import { createDataStrategy, toRouteError } from "../client/routing/data-strategy";
import type { NavEnv } from "../client/routing/nav-context";
import { buildAllRoutes } from "../client/routing/all-routes";
import { moduleKeysOf } from "../client/routing/routes";
import { provideRouteDescriptions } from "../client/lib/route-descriptions";
import { routeDescription } from "../shared/page-descriptions";
import { createAjax } from "../shared/ajax";
import { AppError, SERVICE_BUSY_MESSAGE } from "../shared/errors";
import { accessOf, defOf, isStaffAccess } from "../shared/routes";
import type { RouteDef } from "../shared/route-def";
import { serializeBoot } from "../shared/serialize";
import { SERVICE_BUSY_RETRY_AFTER_S, ssrLoaders } from "../api/index";
import type { AssetResolver } from "./assets";
import { isUnsupportedBrowser } from "./browser-support";
import { IN_PROCESS_ORIGIN, type InProcessApi } from "./in-process-api";
import { hydrationState, matchedBranch, type PageStream, streamDocument } from "./render-stream";

export type StaticRootData = Omit<RootData, "assets" | "viewer">;

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
    const page: PageStream = {
      res,
      root,
      assets,
      route,
      matchedAt,
      crawler,
      logger: opts.logger,
      streamTimeoutMs: opts.streamTimeoutMs,
    };
    streamDocument(page, ctx, 0, boot);
  };
}
