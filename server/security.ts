/**
 * A fresh CSP nonce per response, and helmet's headers around it. No 'unsafe-inline' for
 * scripts: React's streaming runtime, the router and the boot data all carry the nonce.
 */
import { randomBytes } from "node:crypto";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";

export function cspNonce(res: Response): string {
  return res.locals.cspNonce as string;
}

export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
};

/**
 * What every response carries, whoever answers it (the API, the proxies and their error pages,
 * uploads, health checks, static files): no sniffing, never framed, HSTS on an HTTPS origin in
 * production. Mounted first; pages get helmet's full set later, which replaces these headers.
 * A proxied upstream's own headers of the same names win (they are set when it answers).
 */
export function baselineHeaders({ production, https }: { production: boolean; https: boolean }): RequestHandler {
  const hsts = production && https ? HSTS : null;
  return (_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
    if (hsts) res.setHeader("Strict-Transport-Security", hsts);
    next();
  };
}

const HSTS_MAX_AGE_S = 31_536_000;
const HSTS = `max-age=${HSTS_MAX_AGE_S}; includeSubDomains`;

/** `https` decides HSTS and upgrade-insecure-requests: both only make sense on an HTTPS origin. */
export function securityHeaders({ production, https }: { production: boolean; https: boolean }): RequestHandler {
  const scriptSrc = ["'self'", (_req: unknown, res: unknown) => `'nonce-${cspNonce(res as Response)}'`];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "script-src": scriptSrc,
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "media-src": ["'self'", "blob:"],
        "connect-src": production ? ["'self'"] : ["'self'", "ws:", "wss:"],
        "font-src": ["'self'", "data:"],
        "frame-ancestors": ["'self'"],
        "form-action": ["'self'"],
        // A plain-HTTP origin (localhost, the embedded default) must keep working.
        "upgrade-insecure-requests": https ? [] : null,
      },
    },
    strictTransportSecurity: production && https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}
