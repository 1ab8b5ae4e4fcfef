/**
 * A phone number or e-mail address that receives a 6-digit code, and the code field beside it:
 * the state, the send cooldown (kept per address), the "获取验证码" action and both inputs with
 * the attributes every such form uses. Login, registration, recovery and binding share it.
 */
import { type ReactNode, useRef, useState } from "react";
import { type CodeSent, emailSchema, phoneSchema } from "../../../shared/contracts/auth";
import type { Mutation } from "../../lib/mutation";
import { CodeField, TextField, sendCodeTo, useAutoFocus, useCodeSender } from "./fields";

export type CodeChannel = "sms" | "email";

const channels = {
  sms: {
    schema: phoneSchema,
    label: "手机号",
    type: "tel",
    inputMode: "tel",
    autoComplete: "tel",
    placeholder: "请输入手机号",
    maxLength: 20,
    sentHint: "验证码已发送，5 分钟内有效",
  },
  email: {
    schema: emailSchema,
    label: "邮箱",
    type: "email",
    inputMode: "email",
    autoComplete: "email",
    placeholder: "name@example.com",
    maxLength: 254,
    sentHint: "验证码已发送到邮箱，5 分钟内有效",
  },
} as const;

export function useCodeTarget(
  form: Pick<Mutation, "setProblem" | "check" | "bind" | "errors">,
  {
    channel,
    name,
    initial = "",
    send,
  }: {
    channel: CodeChannel;
    /** The address field's name in the form's errors (`phone`, `email`, `target`). */
    name: string;
    initial?: string;
    /** Asks the server to send a code to the checked, normalised address. */
    send: (target: string) => Promise<CodeSent>;
  },
) {
  const [target, setTarget] = useState(initial);
  const [code, setCode] = useState("");
  const targetRef = useAutoFocus<HTMLInputElement>();
  const codeRef = useRef<HTMLInputElement | null>(null);
  const spec = channels[channel];
  const normalized = spec.schema.safeParse(target);
  const sender = useCodeSender(`${channel}:${normalized.success ? normalized.data : target}`);

  const sendCode = () => sendCodeTo(form, sender, codeRef, { name, schema: spec.schema, value: target }, send);

  const targetField = (label: string = spec.label): ReactNode => (
    <TextField
      label={label}
      type={spec.type}
      inputMode={spec.inputMode}
      autoComplete={spec.autoComplete}
      placeholder={spec.placeholder}
      maxLength={spec.maxLength}
      {...form.bind(name, target, setTarget)}
      inputRef={targetRef}
    />
  );

  const codeField = (label?: string): ReactNode => (
    <CodeField
      {...(label ? { label } : {})}
      {...form.bind("code", code, setCode)}
      inputRef={codeRef}
      sender={sender}
      onSend={sendCode}
      sentHint={spec.sentHint}
    />
  );

  return { target, setTarget, code, setCode, targetField, codeField, codeRef };
}
