import type { Params } from "react-router-dom";
import type { Ajax } from "../../shared/ajax";
import type { Viewer } from "../../shared/contracts/viewer";
import type { RouteDef } from "../../shared/route-def";

/**
 * What the page pipeline needs from the place it runs in. The server builds one per request
 * (passed as the router's request context); the browser keeps one for the session.
 */
export interface NavEnv {
  isServer: boolean;
  viewer: Viewer | null;
  /** The server found this browser too old for the site (bowser; crawlers never are). */
  unsupportedBrowser: boolean;
  /** The visitor's User-Agent: the request's on the server, `navigator.userAgent` in the browser. */
  userAgent?: string;
  /** Test fixture routes are served (TEST_FIXTURES=1, never in production). */
  fixtures: boolean;
  /** The API client: same-origin in the browser; on the server it forwards the visitor's cookies. */
  api: Ajax;
  /** Notified each time a page loader resolves (drives the progress bar in the browser). */
  onLoaderResolved?: (def: RouteDef) => void;
}

/** Arguments every route middleware receives. Redirect by throwing `redirect()`, fail by throwing AppError. */
export interface MiddlewareContext {
  env: NavEnv;
  request: Request;
  url: URL;
  params: Params;
  /** The matched route definitions, outermost first. */
  chain: RouteDef[];
}

export type RouteMiddleware = (ctx: MiddlewareContext) => void | Promise<void>;

/** Arguments of a page loader (the spec's asyncData). */
export interface PageLoaderArgs {
  request: Request;
  params: Params;
  signal: AbortSignal;
  env: NavEnv;
}
