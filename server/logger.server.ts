/**
 * Structured logs (pino). Cookies, authorization, set-cookie and anything that looks like a
 * code, token, ticket or password in a query string never reach the log.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import pino, { type Logger } from "pino";

const SECRET_QUERY_KEYS = /^(code|token|ticket|password|secret|sign|signature|key|phone|email)$/i;

/** The path with secret-looking query values replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.test(key)) params.set(key, "[redacted]");
  const rest = params.toString();
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          "req.headers.cookie",
          "req.headers.authorization",
          'req.headers["proxy-authorization"]',
          'res.headers["set-cookie"]',
          "password",
          "code",
          "token",
          "*.password",
          "*.code",
          "*.token",
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

export function serializeRequest(req: IncomingMessage & { id?: unknown }) {
  return {
    id: req.id,
    method: req.method,
    url: redactUrl(req.url ?? ""),
    headers: {
      "user-agent": req.headers["user-agent"],
      referer: req.headers.referer ? redactUrl(String(req.headers.referer)) : undefined,
      cookie: req.headers.cookie ? "[redacted]" : undefined,
      authorization: req.headers.authorization ? "[redacted]" : undefined,
    },
  };
}

export function serializeResponse(res: ServerResponse) {
  return { statusCode: res.statusCode };
}
