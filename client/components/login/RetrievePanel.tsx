/** 找回账号: a code to the bound phone or e-mail, then a new password. */
import { useRef, useState } from "react";
import { codeSentSchema, emailSchema, phoneSchema, resetSchema, statusOkSchema } from "../../../shared/contracts/auth";
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

export type RecoveryChannel = "sms" | "email";

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
  const [target, setTarget] = useState(initialTarget);
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const form = useSubmission();
  const targetRef = useAutoFocus<HTMLInputElement>();
  const codeRef = useRef<HTMLInputElement | null>(null);
  const targetSchema = channel === "sms" ? phoneSchema : emailSchema;
  const normalized = targetSchema.safeParse(target);
  const sender = useCodeSender(`${channel}:${normalized.success ? normalized.data : target}`);

  const sendCode = () =>
    sendCodeTo(form, sender, codeRef, { name: "target", schema: targetSchema, value: target }, (checked) =>
      browserApi("/api/auth/reset/send", {
        method: "POST",
        body: { channel, target: checked },
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
                setTarget("");
                setCode("");
                form.setProblem(null);
              }}
            />
            {c.label}
          </label>
        ))}
      </fieldset>
      <TextField
        label={channel === "sms" ? "绑定的手机号" : "绑定的邮箱"}
        type={channel === "sms" ? "tel" : "email"}
        inputMode={channel === "sms" ? "tel" : "email"}
        autoComplete={channel === "sms" ? "tel" : "email"}
        placeholder={channel === "sms" ? "请输入手机号" : "name@example.com"}
        maxLength={channel === "sms" ? 20 : 254}
        {...form.bind("target", target, setTarget)}
        inputRef={targetRef}
      />
      <CodeField
        {...form.bind("code", code, setCode)}
        inputRef={codeRef}
        sender={sender}
        onSend={sendCode}
        sentHint={channel === "sms" ? "验证码已发送，5 分钟内有效" : "验证码已发送到邮箱，5 分钟内有效"}
      />
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
