/** 邮箱登录: with the password, or with a code sent to the address. */
import { useRef, useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  emailCodeLoginSchema,
  emailLoginSchema,
  loginResultSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { useCodeTarget } from "../form/code-target";
import { FormAlert, SubmitButton, TextField } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export function EmailPanel({
  onLogin,
  initialEmail = "",
}: {
  onLogin: (result: LoginResult) => void;
  initialEmail?: string;
}) {
  const [mode, setMode] = useState<"password" | "code">("password");
  const [password, setPassword] = useState("");
  const form = useMutation();
  const passwordRef = useRef<HTMLInputElement | null>(null);
  const address = useCodeTarget(form, {
    channel: "email",
    name: "email",
    initial: initialEmail,
    send: (target) =>
      browserApi("/api/auth/email/send", {
        method: "POST",
        body: { email: target, purpose: "login" },
        schema: codeSentSchema,
      }),
  });
  const { target: email, code, codeRef } = address;

  const switchMode = () => {
    const next = mode === "password" ? "code" : "password";
    setMode(next);
    form.setProblem(null);
    // The field that replaced the other one is where the learner goes next.
    setTimeout(() => (next === "password" ? passwordRef : codeRef).current?.focus(), 0);
  };

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result =
          mode === "password"
            ? await form.submit(emailLoginSchema, { email, password }, (body) =>
                browserApi("/api/auth/email/login", { method: "POST", body, schema: loginResultSchema }),
              )
            : await form.submit(emailCodeLoginSchema, { email, code }, (body) =>
                browserApi("/api/auth/email/code-login", { method: "POST", body, schema: loginResultSchema }),
              );
        if (result) onLogin(result);
      }}
    >
      {address.targetField()}
      {mode === "password" ? (
        <TextField
          label="密码"
          type="password"
          autoComplete="current-password"
          placeholder="请输入密码"
          maxLength={128}
          {...form.bind("password", password, setPassword)}
          inputRef={passwordRef}
        />
      ) : (
        address.codeField()
      )}
      <div className="login-form__row">
        <button type="button" className="login-link" onClick={switchMode}>
          {mode === "password" ? "改用邮箱验证码登录" : "改用密码登录"}
        </button>
      </div>
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="登录中…">
        登录
      </SubmitButton>
    </form>
  );
}
