/**
 * Tells a database that cannot be reached (down, restarting, out of connections, a cut network)
 * from a query that failed on its own. The first is worth a 503 and a retry; the second is a bug.
 * Classified by code: node's socket errors, PostgreSQL's connection classes (08, 57P0x, 53300),
 * and the few node-postgres failures that carry no code at all.
 */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** node-postgres and its pool say these in words only. */
const PG_MESSAGES = [
  /^timeout exceeded when trying to connect$/i,
  /^Connection terminated/i,
  /^Client has encountered a connection error and is not queryable$/i,
  /^Client was closed and is not queryable$/i,
];

export const SERVICE_BUSY_RETRY_AFTER_S = 5;

export function isConnectionError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string" && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true;
  }
  if (typeof message === "string" && PG_MESSAGES.some((m) => m.test(message))) return true;
  if (Array.isArray(errors) && errors.some((e) => isConnectionError(e, depth + 1))) return true;
  return isConnectionError(cause, depth + 1);
}
