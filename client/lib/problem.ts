/** Turning a failed call into Chinese text for a form: the message, the fields it names, when to retry. */
import { z } from "zod";
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

const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
const fieldDetailsSchema = z.array(z.object({ path: z.string(), message: z.string() }));
const retryDetailsSchema = z.object({ retryAfter: z.number().int().positive() });

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
  const body = apiErrorBodySchema.safeParse(err.body);
  if (body.success) {
    problem.message = body.data.error.message;
    problem.code = body.data.error.code;
    const fields = fieldDetailsSchema.safeParse(body.data.error.details);
    if (fields.success)
      for (const f of fields.data) if (f.path && !(f.path in problem.fields)) problem.fields[f.path] = f.message;
    // The API repeats Retry-After in the body; the shared client does not expose headers.
    const retry = retryDetailsSchema.safeParse(body.data.error.details);
    if (retry.success) problem.retryAfter = retry.data.retryAfter;
  } else if (err.statusCode === 504) problem.message = "请求超时，请稍后重试";
  else if (err.statusCode === 429) problem.message = "操作太频繁，请稍后再试";
  else if (err.statusCode === 404) problem.message = "该功能暂未开放";
  else problem.message = "服务暂时不可用，请稍后再试";
  return problem;
}

/** The first message of each field of a failed zod check. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".");
    if (key && !(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
