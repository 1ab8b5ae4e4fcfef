/**
 * How the API speaks HTTP: JSON only, inputs validated by the shared zod schemas, errors as
 * `{ error: { code, message } }` with the right status, state-changing calls from our own
 * pages only (CSRF), and handlers that may be async.
 */
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import { AppError, SERVICE_BUSY_MESSAGE } from "../shared/errors";
import { isConnectionError, SERVICE_BUSY_RETRY_AFTER_S } from "./db/connection-errors";

/**
 * An error the API answers as `{ error: { code, message, details? } }` with its status: the site's
 * one error type (AppError, shared/errors.ts) with the API's machine-readable code.
 */
export class ApiError extends AppError {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(status, message);
    this.name = "ApiError";
  }

  /** The HTTP status (the same as `statusCode`). */
  get status(): number {
    return this.statusCode;
  }
}

export const unauthorized = () => new ApiError(401, "unauthorized", "请先登录");
export const forbidden = (message = "没有权限执行此操作") => new ApiError(403, "forbidden", message);
export const notFound = (message = "内容不存在") => new ApiError(404, "not_found", message);
export const tooManyRequests = (retryAfterSeconds: number, message = "操作太频繁，请稍后再试") =>
  new ApiError(
    429,
    "rate_limited",
    message,
    { retryAfter: retryAfterSeconds },
    { "Retry-After": String(retryAfterSeconds) },
  );

/** Validates input with a shared schema; the first problem is the message, all go in details. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw new ApiError(400, "invalid_input", issues[0]?.message ?? "输入不正确", issues);
}

/** Public catalogue answers are the same for every visitor: browsers and shared caches keep them a minute. */
const PUBLIC_CACHE = "public, max-age=60";

export function publicJson(res: Response, body: unknown) {
  res.setHeader("Cache-Control", PUBLIC_CACHE);
  res.json(body);
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The routes (relative to the API mount) whose body is an image: they read it themselves, with
 * their own size limit, and judge it by its bytes. Everything else stays JSON-only.
 */
const IMAGE_BODY_ROUTES: ReadonlyArray<{ method: string; path: string | RegExp }> = [
  { method: "POST", path: "/me/avatar" },
  { method: "POST", path: /^\/homework\/tasks\/\d+\/photos$/ },
  { method: "POST", path: /^\/practice\/diary\/\d{4}-\d{2}-\d{2}\/photo$/ },
  { method: "POST", path: /^\/admin\/(courses|books|commodities)\/\d+\/cover$/ },
];

/** Lesson video uploads: the route refuses or reads the bytes itself, and judges them. */
export const VIDEO_BODY_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: "POST", path: /^\/admin\/lessons\/\d+\/video$/ },
];

/** Alipay posts its notifications as a form; that route parses (and verifies) the form itself. */
const FORM_BODY_ROUTES: ReadonlyArray<{ method: string; path: string }> = [
  { method: "POST", path: "/payments/notify/alipay" },
];

/** The exact bytes of a JSON body, kept for signatures computed over them (WeChat Pay). */
export type RawBodyRequest = Request & { rawBody?: Buffer };

/**
 * Whether an upload route may read this body: one declared as its kind (`image/*`, `video/*`), or
 * declared as nothing in particular (`application/octet-stream`, or no type at all, as phones
 * send some HEIC photos and browsers some video files). The route then judges the bytes
 * themselves; a body declared as something else (text, JSON, a form) is not an upload.
 */
function mayBeUpload(req: Request, kind: "image" | "video"): boolean {
  const type = req.headers["content-type"];
  if (type === undefined || type.trim() === "") return true;
  return Boolean(req.is([`${kind}/*`, "application/octet-stream"]));
}

/** Reads an upload route's body whole (up to `limit` bytes) whatever it was declared as (see `mayBeUpload`). */
export const rawUpload = (kind: "image" | "video", limit: number): RequestHandler =>
  express.raw({ type: (req) => mayBeUpload(req as Request, kind), limit });

/** The largest JSON body (deploy/nginx.conf takes no larger body outside the upload routes). */
export const JSON_BODY_MAX_BYTES = 32 * 1024;

/** JSON bodies only, small. A body of another type is 415; a malformed one 400; too large 413. */
export function jsonBody(limit = JSON_BODY_MAX_BYTES, imageRoutes = IMAGE_BODY_ROUTES): RequestHandler[] {
  return [
    (req, _res, next) => {
      const length = Number(req.headers["content-length"] ?? 0);
      const hasBody = length > 0 || req.headers["transfer-encoding"] !== undefined;
      const routeOf = (routes: ReadonlyArray<{ method: string; path: string | RegExp }>) =>
        routes.some(
          (r) => r.method === req.method && (typeof r.path === "string" ? r.path === req.path : r.path.test(req.path)),
        );
      if (routeOf(imageRoutes) && mayBeUpload(req, "image")) return next();
      if (routeOf(VIDEO_BODY_ROUTES) && mayBeUpload(req, "video")) return next();
      const formRoute = FORM_BODY_ROUTES.some((r) => r.method === req.method && r.path === req.path);
      if (formRoute && req.is("application/x-www-form-urlencoded")) return next();
      if (BODY_METHODS.has(req.method) && hasBody && !req.is("application/json")) {
        next(new ApiError(415, "unsupported_media_type", "请求内容必须是 JSON"));
        return;
      }
      next();
    },
    express.json({
      limit,
      strict: true,
      verify: (req, _res, buf) => {
        (req as RawBodyRequest).rawBody = buf;
      },
    }),
  ];
}

/** Where state-changing calls may come from (see `sameOriginOnly`). */
export interface SameSitePolicy {
  /** The site's own origins (PUBLIC_ORIGIN). */
  origins: string[];
  /**
   * Also the origin the request itself was sent to (its Host): outside `pro` when PUBLIC_ORIGIN
   * is not set, so the site works at 127.0.0.1 or a LAN address as well as at localhost.
   */
  acceptRequestHost: boolean;
}

/**
 * CSRF: a state-changing call must come from our own pages. Browsers say where a request
 * comes from (Sec-Fetch-Site, Origin); a request with cookies that says neither is refused.
 */
export function sameOriginOnly(policy: SameSitePolicy): RequestHandler {
  const allowed = new Set(policy.origins);
  // A page opened at another address of this server: say where to open it instead.
  const refusal = () =>
    forbidden(
      policy.acceptRequestHost
        ? "跨站请求已被拒绝"
        : `跨站请求已被拒绝：请在本站地址 ${policy.origins[0] ?? ""} 打开网页后再试`,
    );
  return (req, res, next) => {
    res.vary("Origin");
    res.vary("Sec-Fetch-Site");
    if (!BODY_METHODS.has(req.method)) return next();
    const site = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const host = req.host;
    const ownOrigin = policy.acceptRequestHost && host !== undefined && origin === `${req.protocol}://${host}`;
    if (site !== undefined && site !== "same-origin") return next(refusal());
    if (origin !== undefined && !allowed.has(origin) && !ownOrigin) return next(refusal());
    if (site === undefined && origin === undefined && req.headers.cookie) return next(refusal());
    next();
  };
}

/** The client's IP as counted for rate limits: from our own proxies only (trust proxy hops). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

export const apiErrorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.setHeader("Cache-Control", "private, no-store");
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
    res
      .status(err.status)
      .json({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } });
    return;
  }
  const type = (err as { type?: string } | null)?.type;
  if (type === "entity.too.large") {
    res.status(413).json({ error: { code: "payload_too_large", message: "提交的内容太大" } });
    return;
  }
  if (type === "entity.parse.failed") {
    res.status(400).json({ error: { code: "invalid_json", message: "请求内容不是有效的 JSON" } });
    return;
  }
  if (isConnectionError(err)) {
    // The database is down or restarting: the client may retry, nothing is wrong with the request.
    req.log?.warn(
      { err: { message: (err as Error).message, code: (err as { code?: unknown }).code } },
      "database unreachable",
    );
    res.setHeader("Retry-After", String(SERVICE_BUSY_RETRY_AFTER_S));
    res.status(503).json({ error: { code: "service_unavailable", message: SERVICE_BUSY_MESSAGE } });
    return;
  }
  req.log?.error({ err }, "api error");
  res.status(500).json({ error: { code: "internal", message: "服务器开小差了，请稍后再试" } });
};
