/**
 * The one way a page writes to the API (decision 078): `useMutation()` runs one action at a time
 * (busy), keeps what went wrong as a problem in Chinese with the fields the API named, checks a
 * form's values with its shared schema first when asked (field errors, focus on the first), and:
 * - `idempotent: true`: each POST carries an Idempotency-Key, the same while one action is retried
 *   after a network failure (client/lib/idempotent-post.ts, loaded with the first send);
 * - a call the console's API refuses for want of a step-up asks for one and goes again (decision
 *   072; outside the console calls simply run);
 * - `after`: runs after a success before the action stops being busy (a staff page reloads its
 *   data with `useRevalidator().revalidate`).
 * Failures are described with `describeProblemLater`, so a page's first load carries neither the
 * failure texts nor the key handling (decision 057).
 */
import { useCallback, useRef, useState } from "react";
import type { z } from "zod";
import type { RequestOptions } from "../../shared/ajax";
import { useStepUp } from "../components/step-up/step-up-context";
import { withChunkReload } from "../routing/chunk-reload";
import { browserApi } from "./api";
import type { IdempotencyKeyHolder } from "./idempotent-post";
import type { Problem } from "./problem";
import { describeProblemLater } from "./problem-later";

const idempotentPost = withChunkReload(() => import("./idempotent-post"));

export interface MutationOptions {
  /** POSTs carry an Idempotency-Key, kept while the same request is retried (paying, ordering, redeeming). */
  idempotent?: boolean;
  /** Runs after each success, while the action is still busy (a staff page reloads its data). */
  after?: () => unknown;
}

/** What follows: after a success, a line said to the user (role status) and the caller's next step; after a failure, its. */
export interface OnSuccess<T> {
  done?: string | ((result: T) => string);
  onSuccess?: (result: T) => unknown;
  onFailure?: (problem: Problem) => unknown;
}

export interface SendOptions<T> extends OnSuccess<T> {
  method?: "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  schema?: RequestOptions<T>["schema"];
}

/** A zod refusal as field → first message, keyed like the API's `invalid_input` details ("skus.0.name"). */
export function fieldErrorsOf(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>) {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

/** After React has shown the field errors, moves focus to the first invalid field. */
function focusFirstInvalid(form: HTMLFormElement | null) {
  setTimeout(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}

/** A problem found in the browser, shown the way the API's own problems are. */
export function localProblem(message: string, fields: Record<string, string> = {}): Problem {
  return { message, fields, retryAfter: null, code: null, statusCode: null };
}

/** What a form's own check returns to say "not sent": no success, no `after`. */
const REFUSED = Symbol("refused");

export function useMutation({ idempotent = false, after }: MutationOptions = {}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  const busyRef = useRef(false);
  const keyHolder = useRef<IdempotencyKeyHolder["current"]>(null);
  const stepUp = useStepUp();
  const afterRef = useRef(after);
  afterRef.current = after;

  const fail = useCallback(async (err: unknown) => {
    const found = await describeProblemLater(err);
    setProblem(found);
    if (Object.keys(found.fields).length > 0) {
      setErrors(found.fields);
      focusFirstInvalid(formRef.current);
    }
    return found;
  }, []);

  const execute = useCallback(
    async <T>(call: () => Promise<T | typeof REFUSED>, then: OnSuccess<T> = {}): Promise<T | undefined> => {
      if (busyRef.current) return undefined;
      busyRef.current = true;
      setBusy(true);
      setProblem(null);
      setDone(null);
      try {
        const result = await stepUp(call);
        if (result === REFUSED) return undefined;
        await afterRef.current?.();
        setDone(typeof then.done === "function" ? then.done(result) : (then.done ?? null));
        await then.onSuccess?.(result);
        return result;
      } catch (err) {
        const found = await fail(err);
        await then.onFailure?.(found);
        return undefined;
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [stepUp, fail],
  );

  /**
   * Runs one action (any API call, or several); the result, or undefined when it failed or another
   * was still running (`onSuccess` tells a success apart when the result is empty).
   */
  const run = useCallback(
    <T>(call: () => Promise<T>, then?: OnSuccess<T>): Promise<T | undefined> => {
      if (!busyRef.current) setErrors({});
      return execute(call, then);
    },
    [execute],
  );

  /** The bare request of `send`, for a call made inside `run` or `submit` (it keeps no state). */
  const request = useCallback(
    async <T = unknown>(path: string, { method = "POST", body, schema }: SendOptions<T> = {}): Promise<T> => {
      if (!idempotent) return browserApi<T>(path, { method, body, ...(schema ? { schema } : {}) });
      const { postIdempotent } = await idempotentPost();
      return postIdempotent<T>(keyHolder, path, body, schema);
    },
    [idempotent],
  );

  /** One request to the API (a POST unless said otherwise). */
  const send = useCallback(
    <T = unknown>(path: string, { method, body, schema, ...then }: SendOptions<T> = {}) =>
      run(() => request<T>(path, { method, body, schema }), then),
    [run, request],
  );

  /**
   * A form's submission: checks the values with the shared schema (field errors, focus on the
   * first), then runs the call with the parsed values. A schema may be given as a promise: the
   * form's checks then load with its first submission, not with the page (decision 050); the form
   * is busy meanwhile.
   */
  const submit = useCallback(
    <S extends z.ZodType, R>(
      schema: S | Promise<S>,
      values: unknown,
      call: (input: z.output<S>) => Promise<R>,
      then?: OnSuccess<R>,
    ): Promise<R | undefined> =>
      execute(async () => {
        const parsed = (await schema).safeParse(values);
        if (!parsed.success) {
          setErrors(fieldErrorsOf(parsed.error.issues));
          focusFirstInvalid(formRef.current);
          return REFUSED;
        }
        setErrors({});
        return call(parsed.data);
      }, then),
    [execute],
  );

  /** Checks one field (before sending a code); the parsed value, or null with its error shown. */
  const check = useCallback(
    async <S extends z.ZodType>(name: string, schema: S | Promise<S>, value: unknown) => {
      let parsed: z.ZodSafeParseResult<z.output<S>>;
      try {
        parsed = (await schema).safeParse(value);
      } catch (err) {
        await fail(err);
        return null;
      }
      setErrors((prev) => {
        const next = { ...prev };
        if (parsed.success) delete next[name];
        else next[name] = parsed.error.issues[0]?.message ?? "输入不正确";
        return next;
      });
      if (!parsed.success) focusFirstInvalid(formRef.current);
      return parsed.success ? parsed.data : null;
    },
    [fail],
  );

  /** Shows the form's own refusal (a check made before anything is sent) by field. */
  const refuse = useCallback((fields: Record<string, string>, message = "请检查标出的项目") => {
    setProblem(localProblem(message, fields));
    setErrors(fields);
    setDone(null);
    focusFirstInvalid(formRef.current);
  }, []);

  /** A field's value, its error, and an edit that clears the error it had. */
  const bind = (name: string, value: string, setValue: (value: string) => void) => ({
    name,
    value,
    error: errors[name],
    onValue: (next: string) => {
      setValue(next);
      if (errors[name]) setErrors(({ [name]: _edited, ...rest }) => rest);
    },
  });

  return { busy, problem, setProblem, errors, done, formRef, run, send, request, submit, check, refuse, bind };
}

export type Mutation = ReturnType<typeof useMutation>;
