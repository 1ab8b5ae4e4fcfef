/**
 * The one HTTP client of the site, for pages in the browser and loaders on the server.
 * Failures carry the texts monitoring matches (spec §8): "ajax error {status}" for a status
 * of 400 or more, "ajax timeout" when the time limit passes.
 */
import type { z } from "zod";
import { AJAX_TIMEOUT_MESSAGE, AppError, ajaxErrorMessage } from "./errors";

export class AjaxError extends AppError {
  /** The API's own error body `{ error: { code, message } }`, when it sent one. */
  readonly body: unknown;
  constructor(statusCode: number, message: string, body?: unknown) {
    super(statusCode, message);
    this.name = "AjaxError";
    this.body = body;
  }
}

export interface AjaxOptions {
  /** Origin for relative paths (the server's own origin in loaders; "" in the browser). */
  baseUrl?: string;
  timeoutMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export interface RequestOptions<T> {
  signal?: AbortSignal;
  /**
   * Validates the response body; a mismatch is a 502 (the server broke its contract). A promise
   * of the schema (`import("…/contracts/x").then((m) => m.xSchema)`) keeps the contract, and
   * zod with it, out of a page's initial JavaScript: the browser loads it while the request
   * runs (decision 030).
   */
  schema?: z.ZodType<T> | PromiseLike<z.ZodType<T>>;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
}

const DEFAULT_AJAX_TIMEOUT_MS = 15_000;

/**
 * Where a response carries its body as a value already parsed: the API in this process hands
 * its JSON answers over this way (server/in-process-api.ts), so a loader's call costs no second
 * JSON round trip. A registered symbol, the same in every bundle that holds this module.
 */
export const JSON_VALUE = Symbol.for("mochi.ajax.json-value");

export function createAjax(options: AjaxOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_AJAX_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  return async function ajax<T = unknown>(path: string, req: RequestOptions<T> = {}): Promise<T> {
    // A schema still loading must not reject unobserved when the request fails first.
    const schema = req.schema && "then" in req.schema ? Promise.resolve(req.schema) : req.schema;
    if (schema instanceof Promise) schema.catch(() => undefined);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl ?? ""}${path}`, {
        method: req.method ?? "GET",
        headers: {
          Accept: "application/json",
          ...(req.body !== undefined ? { "Content-Type": "application/json" } : {}),
          ...options.headers,
        },
        body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
        signal,
        credentials: "same-origin",
      });
    } catch (err) {
      if (timeout.signal.aborted && !req.signal?.aborted) throw new AjaxError(504, AJAX_TIMEOUT_MESSAGE);
      throw err; // the caller aborted (a newer navigation), or the network failed
    } finally {
      clearTimeout(timer);
    }
    let body: unknown = null;
    if (JSON_VALUE in res) body = res[JSON_VALUE];
    else {
      const text = await res.text();
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
    }
    if (res.status >= 400) throw new AjaxError(res.status, ajaxErrorMessage(res.status), body);
    if (!schema) return body as T;
    const parsed = (await schema).safeParse(body);
    if (!parsed.success) throw new AjaxError(502, ajaxErrorMessage(502), body);
    return parsed.data;
  };
}

export type Ajax = ReturnType<typeof createAjax>;
