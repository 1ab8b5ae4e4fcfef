/**
 * Streaming a rendered page (server/render.tsx matched it and ran its loaders): browsers get the
 * shell as soon as it is ready, crawlers the complete page; a page that fails to render is
 * replaced by the error page, and that failing too by a static last resort.
 */
import type { Response as ExpressResponse } from "express";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";
import { renderToPipeableStream } from "react-dom/server";
import {
  createStaticRouter,
  type DataRouteObject,
  isRouteErrorResponse,
  type StaticHandlerContext,
  StaticRouterProvider,
} from "react-router-dom";
import { DocumentProvider, type RootData } from "../client/lib/root-data";
import { ERROR_PAGE_FAILED, GO_HOME_TEXT, normalizeError } from "../shared/errors";
import { serializeBoot } from "../shared/serialize";
import { ssrRender } from "../api/index";
import type { PageAssets } from "./assets";
import { cspNonce } from "./security";

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

/** The last resort when even the error page cannot be rendered: static, no script. */
function errorPageFailedHtml(siteName: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${siteName}</title></head><body><h2>${ERROR_PAGE_FAILED}</h2><p>显示错误页时又发生了错误。</p><p><a href="/">${GO_HOME_TEXT}</a></p></body></html>`;
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

/** What streaming one page needs to know of its request. */
export interface PageStream {
  res: ExpressResponse;
  root: RootData;
  assets: PageAssets;
  /** The route pattern, for the render-time metrics. */
  route: string;
  /** When the page was matched (performance.now()), for the render-time metrics. */
  matchedAt: number;
  /** Crawlers get the complete page in one piece. */
  crawler: boolean;
  logger: Logger;
  streamTimeoutMs: number;
}

export function streamDocument(page: PageStream, context: StaticHandlerContext, attempt: number, boot: string) {
  const { res, root, assets, route, matchedAt, crawler } = page;
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
        if (!res.destroyed) page.logger.error({ err }, "render error");
      },
    },
  );
  function shellFailed(err: unknown) {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    page.logger.error({ err, attempt }, "render failed");
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
      streamDocument(page, failedContext, 1, serializeBoot({ root, router: hydrationState(failedContext) }));
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
    res.once("finish", () => ssrRender.observe({ route, stage: "complete" }, (performance.now() - matchedAt) / 1000));
    // A page with boundaries still loading is ended later, from React's own run: the end too
    // (and the socket's keep-alive timer it arms) happens outside it.
    const end = res.end;
    res.end = function (this: ExpressResponse, ...args: unknown[]) {
      return outside(() => (end as (...a: unknown[]) => ExpressResponse).apply(this, args));
    } as ExpressResponse["end"];
    pipe(res);
  }
  const timer = setTimeout(() => abort(new Error("render timed out")), page.streamTimeoutMs);
  timer.unref();
  res.on("close", () => {
    clearTimeout(timer);
    if (!res.writableFinished) abort(new Error("client went away"));
  });
}
