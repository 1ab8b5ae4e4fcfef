/** 绑定手机号: after a WeChat login with no account yet, the phone joins (or creates) one. */
import { useEffect, useState } from "react";
import {
  type LoginResult,
  codeSentSchema,
  loginResultSchema,
  smsLoginSchema,
  wechatPendingSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { useCodeTarget } from "../form/code-target";
import { FormAlert, SubmitButton } from "../form/fields";
import { useMutation } from "../../lib/mutation";

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
  const form = useMutation();
  const phone = useCodeTarget(form, {
    channel: "sms",
    name: "phone",
    send: (target) =>
      browserApi("/api/auth/wechat/bind/send", { method: "POST", body: { phone: target }, schema: codeSentSchema }),
  });

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

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(smsLoginSchema, { phone: phone.target, code: phone.code }, (body) =>
          browserApi("/api/auth/wechat/bind", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      <p className="login-lead">
        微信{pending?.nickname ? <strong>{pending.nickname}</strong> : null}授权成功。请绑定手机号完成登录：
        已有账号的手机号会与微信关联，新手机号将创建账号。
      </p>
      {phone.targetField()}
      {phone.codeField()}
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="绑定中…">
        绑定并登录
      </SubmitButton>
    </form>
  );
}
