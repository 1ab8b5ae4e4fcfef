/**
 * Form pieces of the login panels, also used by the account, order and purchase forms: labelled
 * fields with their errors, the code field, alerts.
 */
import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type RefObject,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import type { z } from "zod";
import type { CodeSent } from "../../../shared/contracts/auth";
import { startCooldown, useCooldown } from "./cooldown";
import { type Problem, describeProblem, fieldErrorsOf } from "../../lib/problem";

/** The shared password rules (passwordSchema), said before anyone gets them wrong. */
export const PASSWORD_HINT = "8–64 位，需同时包含字母和数字";

type NativeInput = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "name" | "ref">;

export interface TextFieldProps extends NativeInput {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Beside the input (the send-code button). */
  addon?: ReactNode;
}

export function TextField({
  label,
  name,
  value,
  onValue,
  error,
  hint,
  optional,
  inputRef,
  addon,
  ...input
}: TextFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="form-field login-field">
      <label htmlFor={id} className="form-field__label">
        {label}
        {optional ? <span className="form-field__optional">选填</span> : null}
      </label>
      <div className="login-field__row">
        <input
          {...input}
          id={id}
          name={name}
          ref={inputRef}
          className="form-field__control"
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {addon}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="login-field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="form-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export { FormAlert } from "./FormAlert";

/** Whether a panel takes focus when it appears (not when the learner is moving along the tabs). */
export const AutoFocusContext = createContext(true);

/**
 * Focuses the element on mount (each panel's first field). A passive effect, so it runs after
 * the modal's own layout-effect focus on the dialog.
 */
export function useAutoFocus<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T | null>(null);
  const enabled = useContext(AutoFocusContext);
  useEffect(() => {
    if (enabled) ref.current?.focus({ preventScroll: true });
    // Only when the panel appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

/** After React has shown the field errors, moves focus to the first invalid field. */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  setTimeout(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}

/**
 * Sending a code: the countdown of its address (from the answer's cooldownSeconds, or a 429's
 * Retry-After), the busy state, and whether a code went out.
 */
export function useCodeSender(cooldownKey: string) {
  const remaining = useCooldown(cooldownKey);
  const [sending, setSending] = useState(false);
  const [sentKey, setSentKey] = useState<string | null>(null);

  const send = useCallback(
    async (call: () => Promise<CodeSent>): Promise<Problem | null> => {
      setSending(true);
      try {
        const sent = await call();
        startCooldown(cooldownKey, sent.cooldownSeconds);
        setSentKey(cooldownKey);
        return null;
      } catch (err) {
        const problem = describeProblem(err);
        if (problem.retryAfter) startCooldown(cooldownKey, problem.retryAfter);
        return problem;
      } finally {
        setSending(false);
      }
    },
    [cooldownKey],
  );

  return { remaining, sending, sent: sentKey === cooldownKey, send };
}

export function SendCodeButton({
  remaining,
  sending,
  sent,
  onClick,
  disabled,
}: {
  remaining: number;
  sending: boolean;
  sent: boolean;
  onClick: () => void;
  disabled?: boolean;
}) {
  const waiting = remaining > 0;
  return (
    <button
      type="button"
      className="button button--small login-send"
      onClick={onClick}
      disabled={disabled || sending || waiting}
    >
      {sending ? "发送中…" : waiting ? `${remaining} 秒后重发` : sent ? "重新获取" : "获取验证码"}
    </button>
  );
}

/** The 6-digit code input with its send button. */
export function CodeField({
  name = "code",
  value,
  onValue,
  error,
  inputRef,
  sender,
  onSend,
  sentHint,
  label = "验证码",
}: {
  name?: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  sender: ReturnType<typeof useCodeSender>;
  onSend: () => void;
  sentHint?: ReactNode;
  label?: string;
}) {
  return (
    <TextField
      label={label}
      name={name}
      value={value}
      onValue={(v) => onValue(v.replace(/\D/g, "").slice(0, 6))}
      error={error}
      inputRef={inputRef}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="6 位数字"
      hint={sender.sent ? sentHint : undefined}
      addon={
        <SendCodeButton remaining={sender.remaining} sending={sender.sending} sent={sender.sent} onClick={onSend} />
      }
    />
  );
}

export function SubmitButton({
  busy,
  busyText,
  disabled,
  children,
}: {
  busy: boolean;
  busyText: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="button button--primary login-submit" disabled={busy || disabled} aria-busy={busy}>
      {busy ? busyText : children}
    </button>
  );
}

/**
 * One form's submission: checks the values with the shared schema (field errors, focus on the
 * first), then calls the API once at a time (busy), keeping what went wrong. A schema may be
 * given as a promise (`import("…/contracts/x").then((m) => m.xSchema)`): the form's checks then
 * load with its first submission, not with the page (decision 050); the form is busy meanwhile.
 */
export function useSubmission() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const busyRef = useRef(false);

  /** Checks one field (before sending a code); the parsed value, or null with its error shown. */
  const check = useCallback(async <S extends z.ZodType>(name: string, schema: S | Promise<S>, value: unknown) => {
    let parsed: z.ZodSafeParseResult<z.output<S>>;
    try {
      parsed = (await schema).safeParse(value);
    } catch (err) {
      setProblem(describeProblem(err));
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
  }, []);

  const submit = useCallback(
    async <S extends z.ZodType, R>(
      schema: S | Promise<S>,
      values: unknown,
      call: (input: z.output<S>) => Promise<R>,
    ): Promise<R | undefined> => {
      if (busyRef.current) return undefined;
      setProblem(null);
      busyRef.current = true;
      setBusy(true);
      try {
        const parsed = (await schema).safeParse(values);
        if (!parsed.success) {
          setErrors(fieldErrorsOf(parsed.error));
          focusFirstInvalid(formRef.current);
          return undefined;
        }
        setErrors({});
        return await call(parsed.data);
      } catch (err) {
        const found = describeProblem(err);
        setProblem(found);
        if (Object.keys(found.fields).length > 0) {
          setErrors(found.fields);
          focusFirstInvalid(formRef.current);
        }
        return undefined;
      } finally {
        busyRef.current = false;
        setBusy(false);
      }
    },
    [],
  );

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

  return { errors, problem, setProblem, busy, formRef, check, submit, bind };
}

/**
 * The "获取验证码" action every code form shares: check the address field, send, show what went
 * wrong (a 429 also starts the countdown), and move on to the code field.
 */
export async function sendCodeTo<S extends z.ZodType>(
  form: ReturnType<typeof useSubmission>,
  sender: ReturnType<typeof useCodeSender>,
  codeRef: RefObject<HTMLInputElement | null>,
  field: { name: string; schema: S | Promise<S>; value: string },
  request: (target: z.output<S>) => Promise<CodeSent>,
): Promise<void> {
  form.setProblem(null);
  const target = await form.check(field.name, field.schema, field.value);
  if (target === null) return;
  const problem = await sender.send(() => request(target));
  form.setProblem(problem);
  if (!problem) codeRef.current?.focus();
}
