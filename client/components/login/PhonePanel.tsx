/** 手机验证码登录: a code by SMS; the first login creates the account. */
import { type LoginResult, codeSentSchema, loginResultSchema, smsLoginSchema } from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { useCodeTarget } from "../form/code-target";
import { FormAlert, SubmitButton } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export function PhonePanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const form = useMutation();
  const phone = useCodeTarget(form, {
    channel: "sms",
    name: "phone",
    send: (target) =>
      browserApi("/api/auth/sms/send", { method: "POST", body: { phone: target }, schema: codeSentSchema }),
  });

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(smsLoginSchema, { phone: phone.target, code: phone.code }, (body) =>
          browserApi("/api/auth/sms/login", { method: "POST", body, schema: loginResultSchema }),
        );
        if (result) onLogin(result);
      }}
    >
      {phone.targetField()}
      {phone.codeField()}
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="登录中…">
        登录 / 注册
      </SubmitButton>
      <p className="login-form__note">未注册的手机号验证后将自动创建账号</p>
    </form>
  );
}
