/** 手机验证码登录: a code by SMS; the first login creates the account. */
import { useRef, useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  loginResultSchema,
  phoneSchema,
  smsLoginSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import {
  CodeField,
  FormAlert,
  SubmitButton,
  TextField,
  sendCodeTo,
  useAutoFocus,
  useCodeSender,
  useSubmission,
} from "../form/fields";

export function PhonePanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const form = useSubmission();
  const phoneRef = useAutoFocus<HTMLInputElement>();
  const codeRef = useRef<HTMLInputElement | null>(null);
  const normalized = phoneSchema.safeParse(phone);
  const sender = useCodeSender(`sms:${normalized.success ? normalized.data : phone}`);

  const sendCode = () =>
    sendCodeTo(form, sender, codeRef, { name: "phone", schema: phoneSchema, value: phone }, (target) =>
      browserApi("/api/auth/sms/send", { method: "POST", body: { phone: target }, schema: codeSentSchema }),
    );

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(smsLoginSchema, { phone, code }, (body) =>
          browserApi("/api/auth/sms/login", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      <TextField
        label="手机号"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="请输入手机号"
        maxLength={20}
        {...form.bind("phone", phone, setPhone)}
        inputRef={phoneRef}
      />
      <CodeField
        {...form.bind("code", code, setCode)}
        inputRef={codeRef}
        sender={sender}
        onSend={sendCode}
        sentHint="验证码已发送，5 分钟内有效"
      />
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="登录中…">
        登录 / 注册
      </SubmitButton>
      <p className="login-form__note">未注册的手机号验证后将自动创建账号</p>
    </form>
  );
}
