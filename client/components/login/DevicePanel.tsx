/** 绑定设备: the account protects its devices, so this browser is confirmed with a code first. */
import { useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  deviceVerifySchema,
  loginResultSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { CodeField, FormAlert, SubmitButton, useAutoFocus, useCodeSender } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export function DevicePanel({
  channel,
  maskedTarget,
  onLogin,
}: {
  channel: "sms" | "email";
  maskedTarget: string;
  onLogin: (result: LoginResult) => void;
}) {
  const [code, setCode] = useState("");
  const form = useMutation();
  const codeRef = useAutoFocus<HTMLInputElement>();
  const sender = useCodeSender(`device:${channel}:${maskedTarget}`);
  const where = channel === "sms" ? `手机 ${maskedTarget}` : `邮箱 ${maskedTarget}`;

  const sendCode = async () => {
    form.setProblem(null);
    const problem = await sender.send(() =>
      browserApi("/api/auth/device/send", { method: "POST", body: {}, schema: codeSentSchema }),
    );
    form.setProblem(problem);
    codeRef.current?.focus();
  };

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(deviceVerifySchema, { code }, (body) =>
          browserApi("/api/auth/device/verify", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      <p className="login-lead">
        你的账号开启了设备保护。这是一台新设备，请获取发送到<strong>{where}</strong>
        的验证码，验证后这台设备将绑定到你的账号。
      </p>
      <CodeField
        {...form.bind("code", code, setCode)}
        inputRef={codeRef}
        sender={sender}
        onSend={sendCode}
        sentHint={`验证码已发送到${where}`}
      />
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="验证中…">
        验证并登录
      </SubmitButton>
    </form>
  );
}
