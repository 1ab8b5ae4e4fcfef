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
import type { Mutation } from "../../lib/mutation";
import { type Problem, describeProblem } from "../../lib/problem";

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
 * The "获取验证码" action every code form shares: check the address field, send, show what went
 * wrong (a 429 also starts the countdown), and move on to the code field.
 */
export async function sendCodeTo<S extends z.ZodType>(
  form: Pick<Mutation, "setProblem" | "check">,
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
