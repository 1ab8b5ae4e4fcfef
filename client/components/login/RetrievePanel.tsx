/** 找回账号: a code to the bound phone or e-mail, then a new password. */
import { useState } from "react";
import { codeSentSchema, resetSchema, statusOkSchema } from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { type CodeChannel, useCodeTarget } from "../form/code-target";
import { FormAlert, PASSWORD_HINT, SubmitButton, TextField } from "../form/fields";
import { useMutation } from "../../lib/mutation";

export type RecoveryChannel = CodeChannel;

const channels: { value: RecoveryChannel; label: string }[] = [
  { value: "sms", label: "手机号找回" },
  { value: "email", label: "邮箱找回" },
];

export function RetrievePanel({
  initialTarget = "",
  onReset,
}: {
  initialTarget?: string;
  /** The password was changed: the learner logs in with it. */
  onReset: (channel: RecoveryChannel, target: string) => void;
}) {
  const [channel, setChannel] = useState<RecoveryChannel>(initialTarget.includes("@") ? "email" : "sms");
  const [password, setPassword] = useState("");
  const form = useMutation();
  const address = useCodeTarget(form, {
    channel,
    name: "target",
    initial: initialTarget,
    send: (checked) =>
      browserApi("/api/auth/reset/send", {
        method: "POST",
        body: { channel, target: checked },
        schema: codeSentSchema,
      }),
  });
  const { target, code } = address;

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const done = await form.submit(resetSchema, { channel, target, code, password }, async (body) => {
          await browserApi("/api/auth/reset", { method: "POST", body, schema: statusOkSchema });
          return body;
        });
        if (done) onReset(done.channel, done.target);
      }}
    >
      <fieldset className="login-choice">
        <legend className="visually-hidden">找回方式</legend>
        {channels.map((c) => (
          <label key={c.value} className={`login-choice__option${channel === c.value ? " is-checked" : ""}`}>
            <input
              type="radio"
              name="channel"
              value={c.value}
              checked={channel === c.value}
              onChange={() => {
                setChannel(c.value);
                address.setTarget("");
                address.setCode("");
                form.setProblem(null);
              }}
            />
            {c.label}
          </label>
        ))}
      </fieldset>
      {channel === "sms" ? (
        <p className="action-reason">
          手机号登录只需短信验证码，不用密码；这里只为同时绑定了邮箱、用邮箱和密码登录的账号重设密码。
        </p>
      ) : null}
      {address.targetField(channel === "sms" ? "绑定的手机号" : "绑定的邮箱")}
      {address.codeField()}
      <TextField
        label="新密码"
        type="password"
        autoComplete="new-password"
        maxLength={64}
        {...form.bind("password", password, setPassword)}
        hint={PASSWORD_HINT}
      />
      <FormAlert problem={form.problem} />
      <SubmitButton busy={form.busy} busyText="提交中…">
        重置密码
      </SubmitButton>
    </form>
  );
}
