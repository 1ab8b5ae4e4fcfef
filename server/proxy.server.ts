/**
 * Proxies of DESIGN §2: /api → the API origin, /avatar → the avatar origin, /broadcast → the
 * broadcast origin. Mounted before body parsers and compression so bodies and event streams
 * pass through untouched. An upstream that is down answers 502 (JSON for /api, a page
 * otherwise); the process never crashes for it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler } from "express";
import { createProxyMiddleware } from "http-proxy-middleware";
import type { Logger } from "pino";

export function badGatewayHtml(): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>502</title></head><body><h1>502</h1><p>上游服务暂时不可用，请稍后再试。</p><p><a href="/">Go back to home</a></p></body></html>`;
}

export function createUpstreamProxy(opts: {
  mount: string;
  target: string;
  json: boolean;
  logger: Logger;
  timeoutMs?: number;
}): RequestHandler {
  const { mount, target, json, logger } = opts;
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    // The mount path is stripped by Express: put it back in the target.
    target: `${target}${mount}`,
    changeOrigin: true,
    xfwd: true,
    proxyTimeout: opts.timeoutMs ?? 30_000,
    timeout: opts.timeoutMs ?? 30_000,
    on: {
      error(err, _req, res) {
        logger.warn(
          { err: { message: err.message, code: (err as NodeJS.ErrnoException).code }, mount },
          "upstream failed",
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
          out.writeHead(502, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
          out.end(JSON.stringify({ error: { code: "bad_gateway", message: "上游服务暂时不可用，请稍后再试" } }));
        } else {
          out.writeHead(502, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
          out.end(badGatewayHtml());
        }
      },
    },
  }) as unknown as RequestHandler;
}
