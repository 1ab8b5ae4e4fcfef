/** 邮箱注册: the address is confirmed with a code; the password follows the shared rules. */
import { useRef, useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  emailRegisterSchema,
  emailSchema,
  loginResultSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import {
  CodeField,
  FormAlert,
  PASSWORD_HINT,
  SubmitButton,
  TextField,
  useAutoFocus,
  useCodeSender,
  useSubmission,
  sendCodeTo,
} from "../form/fields";

export function RegisterPanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [nickname, setNickname] = useState("");
  const form = useSubmission();
  const emailRef = useAutoFocus<HTMLInputElement>();
  const codeRef = useRef<HTMLInputElement | null>(null);
  const normalized = emailSchema.safeParse(email);
  const sender = useCodeSender(`email:${normalized.success ? normalized.data : email}`);

  const sendCode = () =>
    sendCodeTo(form, sender, codeRef, { name: "email", schema: emailSchema, value: email }, (target) =>
      browserApi("/api/auth/email/send", {
        method: "POST",
        body: { email: target, purpose: "register" },
        schema: codeSentSchema,
      }),
    );

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const values = { email, code, password, ...(nickname.trim() ? { nickname } : {}) };
        const result = await form.submit(emailRegisterSchema, values, (body) =>
          browserApi("/api/auth/email/register", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      <TextField
        label="邮箱"
        type="email"
        autoComplete="email"
        placeholder="name@example.com"
        maxLength={254}
        {...form.bind("email", email, setEmail)}
        inputRef={emailRef}
      />
      <CodeField
        label="邮箱验证码"
        {...form.bind("code", code, setCode)}
        inputRef={codeRef}
        sender={sender}
        onSend={sendCode}
        sentHint="验证码已发送到邮箱，5 分钟内有效"
      />
      <TextField
        label="设置密码"
        type="password"
        autoComplete="new-password"
        maxLength={64}
        {...form.bind("password", password, setPassword)}
        hint={PASSWORD_HINT}
      />
      <TextField
        label="昵称"
        optional
        autoComplete="nickname"
        maxLength={20}
        placeholder="不填则自动生成"
        {...form.bind("nickname", nickname, setNickname)}
      />
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="注册中…">
        注册并登录
      </SubmitButton>
    </form>
  );
}
