/** 两步验证: the account has two-factor login, so the app's 6 digits (or a recovery code) come next. */
import { useState } from "react";
import type { LoginResult } from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { FormAlert, SubmitButton, TextField, useAutoFocus } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export function TwoFactorPanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const [code, setCode] = useState("");
  const [recovery, setRecovery] = useState(false);
  const form = useMutation();
  const codeRef = useAutoFocus<HTMLInputElement>();

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(
          // The check loads with the first submission (decision 050).
          import("../../../shared/contracts/two-factor").then((m) => m.twoFactorLoginSchema),
          { code },
          (body) =>
            browserApi("/api/auth/two-factor/verify", {
              method: "POST",
              body,
              schema: import("../../../shared/contracts/auth").then((m) => m.loginResultSchema),
            }),
        );
        if (result) onLogin(result);
      }}
    >
      <p className="login-lead">
        {recovery
          ? "请输入一个恢复码（开启两步验证时保存的 10 个之一，每个只能用一次）。"
          : "你的账号开启了两步验证。请打开手机上的验证器 App，输入显示的 6 位数字。"}
      </p>
      <TextField
        {...form.bind("code", code, setCode)}
        label={recovery ? "恢复码" : "两步验证码"}
        inputRef={codeRef}
        inputMode={recovery ? "text" : "numeric"}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={recovery ? 20 : 6}
        placeholder={recovery ? "xxxxx-xxxxx" : "6 位数字"}
      />
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="验证中…">
        验证并登录
      </SubmitButton>
      <button
        type="button"
        className="login-link"
        onClick={() => {
          setRecovery((r) => !r);
          setCode("");
          codeRef.current?.focus();
        }}
      >
        {recovery ? "改用验证器上的 6 位数字" : "手机不在身边？使用恢复码"}
      </button>
      {recovery ? <p className="login-field__hint">恢复码也用完了，请联系其他运营人员在后台重置两步验证。</p> : null}
    </form>
  );
}
