/** 绑定手机号: after a WeChat login with no account yet, the phone joins (or creates) one. */
import { useEffect, useRef, useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  loginResultSchema,
  phoneSchema,
  smsLoginSchema,
  wechatPendingSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import {
  CodeField,
  FormAlert,
  SubmitButton,
  TextField,
  useAutoFocus,
  useCodeSender,
  useSubmission,
  sendCodeTo,
} from "../form/fields";

export function BindPanel({
  onLogin,
  onRescan,
}: {
  onLogin: (result: LoginResult) => void;
  /** The WeChat authorisation is gone: back to the scan-code tab. */
  onRescan: () => void;
}) {
  // Unknown until asked; a missing or expired authorisation is said before anyone types.
  const [pending, setPending] = useState<{ nickname: string | null } | false | null>(null);
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const form = useSubmission();
  const phoneRef = useAutoFocus<HTMLInputElement>();
  const codeRef = useRef<HTMLInputElement | null>(null);
  const normalized = phoneSchema.safeParse(phone);
  const sender = useCodeSender(`sms:${normalized.success ? normalized.data : phone}`);

  useEffect(() => {
    const controller = new AbortController();
    browserApi("/api/auth/wechat/pending", { signal: controller.signal, schema: wechatPendingSchema })
      .then((answer) => setPending(answer.pending ? { nickname: answer.nickname ?? null } : false))
      .catch(() => {});
    return () => controller.abort();
  }, []);

  if (pending === false) {
    return (
      <div className="login-form">
        <p className="login-alert" role="alert">
          微信授权已过期或不存在，请重新扫码登录。
        </p>
        <button type="button" className="button button--primary login-submit" onClick={onRescan}>
          重新扫码
        </button>
      </div>
    );
  }

  const sendCode = () =>
    sendCodeTo(form, sender, codeRef, { name: "phone", schema: phoneSchema, value: phone }, (target) =>
      browserApi("/api/auth/wechat/bind/send", { method: "POST", body: { phone: target }, schema: codeSentSchema }),
    );

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(smsLoginSchema, { phone, code }, (body) =>
          browserApi("/api/auth/wechat/bind", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      <p className="login-lead">
        微信{pending?.nickname ? <strong>{pending.nickname}</strong> : null}授权成功。请绑定手机号完成登录：
        已有账号的手机号会与微信关联，新手机号将创建账号。
      </p>
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
      <SubmitButton busy={form.busy} busyText="绑定中…">
        绑定并登录
      </SubmitButton>
    </form>
  );
}
