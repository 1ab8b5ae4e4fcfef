/**
 * Structured logs (pino). Cookies, authorization, set-cookie and anything that looks like a
 * code, token, ticket or password in a query string never reach the log.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type Logger } from "pino";

const SECRET_QUERY_KEYS = /^(code|token|ticket|password|secret|sign|signature|key|phone|email|gift)$/i;
/** Paths that carry a secret themselves: a gift's claim code (/api/gifts/{code}…). */
const SECRET_PATH = /^(\/api\/gifts\/)[^/?#]+/;
/** Staff searches find people by phone or e-mail: their free text stays out of the log. */
const STAFF_PATH = /^(\/api)?\/(admin|teach)(\/|$)/;

/** The path with secret path segments and secret-looking query values replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).replace(SECRET_PATH, "$1[redacted]");
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  const staff = STAFF_PATH.test(path);
  for (const key of [...params.keys()])
    if (SECRET_QUERY_KEYS.test(key) || (staff && key === "q")) params.set(key, "[redacted]");
  const rest = params.toString();
  return rest ? `${path}?${rest}` : path;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ["password", "code", "token", "*.password", "*.code", "*.token"],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

/** Only what helps to follow a request: no cookies, no credentials, no secret query values. */
export function serializeRequest(req: IncomingMessage & { id?: unknown }) {
  const headers: Record<string, string> = {};
  if (req.headers["user-agent"]) headers["user-agent"] = req.headers["user-agent"];
  if (req.headers.referer) headers.referer = redactUrl(req.headers.referer);
  return { id: req.id, method: req.method, url: redactUrl(req.url ?? ""), headers };
}

export function serializeResponse(res: ServerResponse) {
  return { statusCode: res.statusCode };
}
