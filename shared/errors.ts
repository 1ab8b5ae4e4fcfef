/**
 * The one error type of the site and the texts the spec fixes (§8). Monitoring and tests
 * match the English texts, so they keep their exact wording.
 */
export const NOT_FOUND_MESSAGE = "This page could not be found";
export const GO_HOME_TEXT = "Go back to home";
export const ERROR_PAGE_FAILED = "An error occurred while showing the error page";
export const unknownMiddlewareMessage = (name: string) => `Unknown middleware ${name}`;
export const ajaxErrorMessage = (status: number) => `ajax error ${status}`;
export const AJAX_TIMEOUT_MESSAGE = "ajax timeout";
/** A dependency (the database, the API) cannot be reached for now: 503 with Retry-After. */
export const SERVICE_BUSY_MESSAGE = "服务繁忙，请稍后再试";

/**
 * An error with an HTTP status: thrown by pages and loaders (the error page shows it), and the base
 * of the client's AjaxError (shared/ajax.ts) and the API's ApiError (api/http.ts, which adds a code).
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.name = "AppError";
    this.statusCode = statusCode;
  }
}

export interface NormalizedError {
  statusCode: number;
  message: string;
}

type ErrorLike = {
  statusCode?: unknown;
  status?: unknown;
  response?: { status?: unknown } | null;
  message?: unknown;
};

function toStatus(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

/** Status from statusCode, status or response.status, else 500; the message as a string. */
export function normalizeError(err: unknown): NormalizedError {
  if (err === null || err === undefined) return { statusCode: 500, message: "Error" };
  if (typeof err === "string") return { statusCode: 500, message: err };
  if (typeof err !== "object") return { statusCode: 500, message: String(err) };
  const e = err as ErrorLike;
  const statusCode = toStatus(e.statusCode) ?? toStatus(e.status) ?? toStatus(e.response?.status) ?? 500;
  let message: string;
  if (typeof e.message === "string" && e.message) message = e.message;
  else {
    try {
      message = JSON.stringify(err);
    } catch {
      message = "Error";
    }
  }
  return { statusCode, message };
}
