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
  return res.locals.cspNonce ?? "";
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

/** Where the response's nonce goes in the headers helmet makes once (see `securityHeaders`). */
const NONCE_PLACE = "\u0000nonce\u0000";

/**
 * Helmet's headers for pages, with this response's CSP nonce. `https` decides HSTS and
 * upgrade-insecure-requests: both only make sense on an HTTPS origin.
 *
 * Helmet is asked once, for a response whose nonce is a placeholder; each response then gets the
 * same headers, and the CSP with its own nonce where the placeholder was: the same bytes helmet
 * would set, without a dozen middlewares run per page.
 */
export function securityHeaders({ production, https }: { production: boolean; https: boolean }): RequestHandler {
  const scriptSrc = ["'self'", (_req: unknown, res: unknown) => `'nonce-${cspNonce(res as Response)}'`];
  const middleware = helmet({
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
  const { headers, removed } = headersOf(middleware);
  const csp = headers.get("content-security-policy")?.[1].split(NONCE_PLACE);
  if (!csp || csp.length !== 2) throw new Error("helmet's CSP did not carry the nonce once");
  headers.delete("content-security-policy");
  const fixed = [...headers.values()];
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of fixed) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", csp[0] + cspNonce(res) + csp[1]);
    next();
  };
}

/** The headers a helmet middleware sets (and removes) on a response whose nonce is the placeholder. */
function headersOf(middleware: RequestHandler): { headers: Map<string, [string, string]>; removed: string[] } {
  const headers = new Map<string, [string, string]>();
  const removed: string[] = [];
  const res = {
    locals: { cspNonce: NONCE_PLACE },
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), [name, String(value)]);
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
      removed.push(name);
    },
  };
  let called = false;
  middleware(
    {} as never,
    res as never,
    ((err?: unknown) => {
      if (err) throw err;
      called = true;
    }) as never,
  );
  if (!called) throw new Error("helmet did not finish synchronously");
  return { headers, removed };
}
