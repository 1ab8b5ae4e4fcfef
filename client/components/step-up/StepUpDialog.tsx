/** 验证身份: the login password or the app's 6 digits, for the next 10 minutes of guarded changes. */
import { useEffect, useState } from "react";
import type { StepUpState } from "../../../shared/contracts/two-factor";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";
import { FormAlert, SubmitButton, TextField, useAutoFocus } from "../form/fields";
import "./step-up.css";
import { useMutation } from "../../lib/mutation";

type Method = "password" | "code";

export function StepUpDialog({
  open,
  onProved,
  onClose,
}: {
  open: boolean;
  onProved: () => void;
  onClose: () => void;
}) {
  const [ways, setWays] = useState<StepUpState | null>(null);
  const [method, setMethod] = useState<Method>("password");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const form = useMutation();
  const fieldRef = useAutoFocus<HTMLInputElement>();

  useEffect(() => {
    if (!open) return;
    setPassword("");
    setCode("");
    form.setProblem(null);
    const controller = new AbortController();
    browserApi("/api/auth/step-up", {
      signal: controller.signal,
      schema: import("../../../shared/contracts/two-factor").then((m) => m.stepUpStateSchema),
    })
      .then((state) => {
        setWays(state);
        // The app's code first where there is one: it is what two-factor accounts carry.
        setMethod(state.code ? "code" : "password");
        fieldRef.current?.focus();
      })
      .catch(() => setWays({ password: true, code: true, until: null }));
    return () => controller.abort();
    // Each opening asks afresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const both = ways ? ways.password && ways.code : false;
  const none = ways ? !ways.password && !ways.code : false;

  return (
    <Modal open={open} onClose={onClose} title="验证身份" className="step-up-dialog">
      <form
        ref={form.formRef}
        className="step-up"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const body = method === "password" ? { method, password } : { method, code };
          const result = await form.submit(
            import("../../../shared/contracts/two-factor").then((m) => m.stepUpSchema),
            body,
            (input) =>
              browserApi("/api/auth/step-up", {
                method: "POST",
                body: input,
                schema: import("../../../shared/contracts/two-factor").then((m) => m.stepUpStateSchema),
              }),
          );
          if (result) onProved();
        }}
      >
        <p className="step-up__lead">
          退款、授予或撤销角色、停用账号、重置两步验证前，需要再验证一次身份。验证后 10 分钟内不用再输入。
        </p>
        {none ? (
          <p className="notice notice--warning" role="alert">
            这个账号还没有登录密码，也没有开启两步验证。请先在“账号与安全”里设置登录密码或开启两步验证。
          </p>
        ) : null}
        {both ? (
          <div className="step-up__ways" role="radiogroup" aria-label="验证方式">
            {(["code", "password"] as const).map((way) => (
              <label key={way} className="step-up__way">
                <input
                  type="radio"
                  name="step-up-method"
                  value={way}
                  checked={method === way}
                  onChange={() => {
                    setMethod(way);
                    form.setProblem(null);
                  }}
                />
                {way === "code" ? "两步验证码" : "登录密码"}
              </label>
            ))}
          </div>
        ) : null}
        {method === "password" ? (
          <TextField
            {...form.bind("password", password, setPassword)}
            label="登录密码"
            type="password"
            autoComplete="current-password"
            inputRef={fieldRef}
          />
        ) : (
          <TextField
            {...form.bind("code", code, (v) => setCode(v.replace(/\D/g, "").slice(0, 6)))}
            label="两步验证码"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="验证器上的 6 位数字"
            inputRef={fieldRef}
          />
        )}
        <FormAlert problem={form.problem} />
        <div className="form__actions step-up__actions">
          <button type="button" className="button" onClick={onClose}>
            取消
          </button>
          <SubmitButton busy={form.busy} busyText="验证中…" disabled={none}>
            验证并继续
          </SubmitButton>
        </div>
      </form>
    </Modal>
  );
}
