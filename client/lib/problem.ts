/** Turning a failed call into Chinese text for a form: the message, the fields it names, when to retry. */
import { AjaxError } from "../../shared/ajax";

/** What a failed call means for the form: a message, the fields it names, when to retry. */
export interface Problem {
  message: string;
  /** Field name → message, from the API's `invalid_input` details. */
  fields: Record<string, string>;
  /** Seconds to wait (a 429's Retry-After). */
  retryAfter: number | null;
  code: string | null;
  statusCode: number | null;
}

// Plain checks rather than zod schemas: every page shows problems, and zod stays out of a
// page's first JavaScript (decision 030).
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The API's error body `{ error: { code, message, details? } }`, or null. */
function apiErrorOf(body: unknown): { code: string; message: string; details: unknown } | null {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error) || typeof error.code !== "string" || typeof error.message !== "string") return null;
  return { code: error.code, message: error.message, details: error.details };
}

/** `invalid_input` details: `[{ path, message }]`, or null. */
function fieldDetailsOf(details: unknown): { path: string; message: string }[] | null {
  if (!Array.isArray(details)) return null;
  const ok = details.every((d) => isRecord(d) && typeof d.path === "string" && typeof d.message === "string");
  return ok ? (details as { path: string; message: string }[]) : null;
}

/** A 429's `{ retryAfter }` (a positive whole number of seconds), or null. */
function retryAfterOf(details: unknown): number | null {
  const value = isRecord(details) ? details.retryAfter : undefined;
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}

export function describeProblem(err: unknown): Problem {
  const problem: Problem = {
    message: "网络连接失败，请检查网络后重试",
    fields: {},
    retryAfter: null,
    code: null,
    statusCode: null,
  };
  if (!(err instanceof AjaxError)) return problem;
  problem.statusCode = err.statusCode;
  const error = apiErrorOf(err.body);
  if (error) {
    problem.message = error.message;
    problem.code = error.code;
    const fields = fieldDetailsOf(error.details);
    if (fields) for (const f of fields) if (f.path && !(f.path in problem.fields)) problem.fields[f.path] = f.message;
    // The API repeats Retry-After in the body; the shared client does not expose headers.
    problem.retryAfter = retryAfterOf(error.details);
  } else if (err.statusCode === 504) problem.message = "请求超时，请稍后重试";
  else if (err.statusCode === 429) problem.message = "操作太频繁，请稍后再试";
  else if (err.statusCode === 404) problem.message = "该功能暂未开放";
  else problem.message = "服务暂时不可用，请稍后再试";
  return problem;
}
