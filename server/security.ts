/**
 * A fresh CSP nonce per response, and helmet's headers around it. No 'unsafe-inline' for
 * scripts: React's streaming runtime, the router and the boot data all carry the nonce.
 */
import { randomFillSync } from "node:crypto";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";

const NONCE_BYTES = 16;
/** Random bytes for 256 nonces, drawn from the system's CSPRNG at once and used once each. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/**
 * 128 random bits, base64: a CSP nonce. One `randomFillSync` call per 256 nonces instead of one
 * per response (a call costs about as much as serving a cached page's headers).
 */
export function freshNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

export function cspNonce(res: Response): string {
  return res.locals.cspNonce as string;
}

export const assignNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = freshNonce();
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
