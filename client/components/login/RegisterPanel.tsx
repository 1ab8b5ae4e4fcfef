/** 邮箱注册: the address is confirmed with a code; the password follows the shared rules. */
import { useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  emailRegisterSchema,
  loginResultSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { useCodeTarget } from "../form/code-target";
import { FormAlert, PASSWORD_HINT, SubmitButton, TextField } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export function RegisterPanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const [password, setPassword] = useState("");
  const [nickname, setNickname] = useState("");
  const form = useMutation();
  const email = useCodeTarget(form, {
    channel: "email",
    name: "email",
    send: (target) =>
      browserApi("/api/auth/email/send", {
        method: "POST",
        body: { email: target, purpose: "register" },
        schema: codeSentSchema,
      }),
  });

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const values = { email: email.target, code: email.code, password, ...(nickname.trim() ? { nickname } : {}) };
        const result = await form.submit(emailRegisterSchema, values, (body) =>
          browserApi("/api/auth/email/register", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      {email.targetField()}
      {email.codeField("邮箱验证码")}
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
