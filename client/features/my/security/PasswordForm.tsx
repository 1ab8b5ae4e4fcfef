/** 登录密码: set or change the password; open and not cancellable while a one-time password is in use. */
import { useState } from "react";
import { FormAlert, PASSWORD_HINT, SubmitButton, TextField } from "../../../components/form/fields";
import { browserApi } from "../../../lib/api";
import { Done } from "./parts";
import { useMutation } from "../../../lib/mutation";

export function PasswordForm({
  hasPassword,
  required = false,
  onDone,
}: {
  hasPassword: boolean;
  /** Signed in with a one-time password: the form is open and there is no cancelling it. */
  required?: boolean;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(required);
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [confirmError, setConfirmError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const form = useMutation();

  if (!open) {
    return (
      <>
        {done ? <Done>密码已保存，其他设备上的登录已全部退出。</Done> : null}
        <button type="button" className="button button--small" onClick={() => setOpen(true)}>
          {hasPassword ? "修改密码" : "设置密码"}
        </button>
      </>
    );
  }
  return (
    <form
      ref={form.formRef}
      className="account-inline-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const mismatch = password !== confirm ? "两次输入的密码不一致" : undefined;
        setConfirmError(mismatch);
        if (mismatch) return;
        const body = hasPassword ? { current, password } : { password };
        const result = await form.submit(
          // The check loads with the first submission (decision 050).
          import("../../../../shared/contracts/me").then((m) => m.passwordChangeSchema),
          body,
          (input) =>
            browserApi("/api/me/password", {
              method: "POST",
              body: input,
              schema: import("../../../../shared/contracts/me").then((m) => m.okSchema),
            }),
        );
        if (result) {
          // The whole site opens up again: a fresh document carries the viewer without the flag.
          if (required) {
            window.location.assign("/my");
            return;
          }
          setOpen(false);
          setDone(true);
          setCurrent("");
          setPassword("");
          setConfirm("");
          onDone();
        }
      }}
    >
      {hasPassword ? (
        <TextField
          label={required ? "初始密码" : "当前密码"}
          name="current"
          type="password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
          error={form.errors.current}
        />
      ) : null}
      <TextField
        label="新密码"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onValue={setPassword}
        error={form.errors.password}
        hint={PASSWORD_HINT}
      />
      <TextField
        label="再次输入新密码"
        name="confirm"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onValue={setConfirm}
        error={confirmError}
      />
      <FormAlert problem={form.problem} />
      <div className="form__actions">
        <SubmitButton busy={form.busy} busyText="保存中…">
          保存密码
        </SubmitButton>
        {required ? null : (
          <button type="button" className="button" onClick={() => setOpen(false)}>
            取消
          </button>
        )}
      </div>
      <p className="account-hint">保存后，除这台设备外的其他登录都会退出。</p>
    </form>
  );
}
