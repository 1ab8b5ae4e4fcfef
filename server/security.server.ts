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
    strictTransportSecurity: production && https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}
