/**
 * Proxies of DESIGN §2: /api → the API origin, /avatar → the avatar origin, /broadcast → the
 * broadcast origin. Mounted before body parsers and compression so bodies and event streams
 * pass through untouched. An upstream that refuses answers 502, one that has not sent its
 * response headers within the budget (UPSTREAM_TIMEOUT_MS) 504: JSON in the API's error shape
 * for /api, a small Chinese page otherwise. The process never crashes for either.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";
import type { Logger } from "pino";

/**
 * After the headers an answer may stay quiet for a while (event streams send a heartbeat every
 * 15 s): only a silence this long cuts it.
 */
const IDLE_AFTER_HEADERS_MS = 60_000;
const TIMED_OUT = "UPSTREAM_TIMEOUT";

const FAILURES = {
  502: { code: "bad_gateway", message: "上游服务暂时不可用，请稍后再试" },
  504: { code: "gateway_timeout", message: "上游服务响应超时，请稍后再试" },
} as const;
const PAGE_TITLES = { 502: "服务暂时不可用", 504: "请求超时" } as const;

/** The error page's parts (status, message, the way home) for a file or stream the proxy could not get. */
function upstreamErrorHtml(status: 502 | 504): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${status} ${PAGE_TITLES[status]}</title></head><body><h1>${status}</h1><p>${FAILURES[status].message}。</p><p><a href="/">Go back to home</a></p></body></html>`;
}

/**
 * The client each proxied request comes from, as this node resolved it through its trusted hops
 * (TRUST_PROXY_HOPS). The upstream is told that address alone, not the chain with this node's
 * peer appended: an API that trusts this one hop would otherwise see every visitor as the load
 * balancer, one IP for every rate limit.
 */
const resolvedClients = new WeakMap<IncomingMessage, string>();

export function createUpstreamProxy(opts: {
  mount: string;
  target: string;
  json: boolean;
  logger: Logger;
  /** Budget for the upstream's response headers. */
  timeoutMs: number;
}): RequestHandler {
  const { mount, target, json, logger, timeoutMs } = opts;
  // Logs name the upstream by mount and origin only: never a path or query (they may carry personal data).
  const upstream = new URL(target).origin;
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    // The mount path is stripped by Express: put it back in the target.
    target: `${target}${mount}`,
    changeOrigin: true,
    xfwd: true,
    // hpm's proxyTimeout is an idle timeout of the upstream socket; the budget for the headers
    // is ours (below). No incoming `timeout`: it would drop the client without any answer.
    proxyTimeout: Math.max(timeoutMs, IDLE_AFTER_HEADERS_MS),
    on: {
      proxyReq(proxyReq: ClientRequest, req: IncomingMessage) {
        const client = resolvedClients.get(req);
        if (client) proxyReq.setHeader("x-forwarded-for", client);
        const timer = setTimeout(() => {
          proxyReq.destroy(Object.assign(new Error("upstream did not answer in time"), { code: TIMED_OUT }));
        }, timeoutMs);
        timer.unref();
        proxyReq.once("response", () => clearTimeout(timer));
        proxyReq.once("close", () => clearTimeout(timer));
      },
      error(err, _req, res) {
        const code = (err as NodeJS.ErrnoException).code;
        const status = code === TIMED_OUT || code === "ETIMEDOUT" ? 504 : 502;
        logger.warn(
          { upstream: { mount, origin: upstream }, status, err: { message: err.message, code } },
          status === 504 ? "upstream timed out" : "upstream failed",
        );
        if (!("writeHead" in res)) {
          (res as Socket).destroy();
          return;
        }
        const out = res as ServerResponse;
        if (out.headersSent) {
          out.destroy();
          return;
        }
        if (json) {
          out.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
          out.end(JSON.stringify({ error: FAILURES[status] }));
        } else {
          out.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
          out.end(upstreamErrorHtml(status));
        }
      },
    },
  }) as unknown as RequestHandler;
  return (req, res, next) => {
    // Read before the proxy appends its peer to X-Forwarded-For (which would change `req.ip`).
    resolvedClients.set(req, req.ip ?? req.socket.remoteAddress ?? "");
    return proxy(req, res, next);
  };
}
