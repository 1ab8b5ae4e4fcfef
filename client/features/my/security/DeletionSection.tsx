/**
 * 注销账号: ask for deletion with the confirm word and a code sent to the bound phone or e-mail
 * (the deletion agreement), or cancel a request still in its cooling-off days.
 */
import { useState } from "react";
import { Link } from "../../../routing/link";
import {
  DELETION_CONFIRM_WORD,
  DELETION_COOLING_DAYS,
  type DeletionChannel,
  type Me,
} from "../../../../shared/contracts/me";
import { formatDate, formatDateTime } from "../../../../shared/format";
import { CodeField, FormAlert, SubmitButton, TextField, useCodeSender } from "../../../components/form/fields";
import { browserApi } from "../../../lib/api";
import { AccountSection } from "../account-parts";
import { localProblem, useMutation } from "../../../lib/mutation";

export function DeletionSection({ me, onDone }: { me: Me; onDone: () => void }) {
  const p = me.profile;
  const [word, setWord] = useState("");
  const [agreed, setAgreed] = useState(false);
  const [channel, setChannel] = useState<DeletionChannel>(p.phone ? "sms" : "email");
  const [code, setCode] = useState("");
  const form = useMutation();
  const cancel = useMutation();
  const sender = useCodeSender(`deletion:${channel}`);
  const boundTo = channel === "sms" ? p.phone : p.email;

  const lead = (
    <>
      提交申请后有 {DELETION_COOLING_DAYS} 天冷静期：期间账号被冻结，可以随时撤销；期满后账号注销，
      资料、学习记录和余额全部清除且无法恢复。请先阅读<Link to="/deletion-agreement">《账号注销协议》</Link>。
    </>
  );

  if (p.status === "deleting" && p.deletionDueAt) {
    return (
      <AccountSection title="注销账号" id="deletion" lead={lead}>
        <div className="notice notice--warning" role="note">
          <p className="notice__title">注销申请已提交</p>
          <p>
            申请时间 {p.deletionRequestedAt ? formatDateTime(p.deletionRequestedAt) : "—"}
            ，账号将于 {formatDate(p.deletionDueAt)} 注销。在此之前撤销，账号即恢复正常，数据保持原样。
          </p>
        </div>
        <FormAlert problem={cancel.problem} />
        <button
          type="button"
          className="button button--primary"
          disabled={cancel.busy}
          onClick={() =>
            void cancel.send("/api/me/deletion/cancel", {
              body: {},
              schema: import("../../../../shared/contracts/me").then((m) => m.deletionStatusSchema),
              onSuccess: onDone,
            })
          }
        >
          {cancel.busy ? "撤销中…" : "撤销注销申请"}
        </button>
      </AccountSection>
    );
  }

  return (
    <AccountSection title="注销账号" id="deletion" lead={lead}>
      <form
        ref={form.formRef}
        className="account-inline-form account-deletion"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          if (!agreed) {
            form.setProblem(localProblem("请先阅读并同意《账号注销协议》"));
            return;
          }
          const result = await form.submit(
            // The check loads with the first submission (decision 050).
            import("../../../../shared/contracts/me").then((m) => m.deletionRequestSchema),
            { confirm: word.trim(), channel, code },
            (input) =>
              browserApi("/api/me/deletion", {
                method: "POST",
                body: input,
                schema: import("../../../../shared/contracts/me").then((m) => m.deletionStatusSchema),
              }),
          );
          if (result) {
            setWord("");
            setCode("");
            onDone();
          }
        }}
      >
        <label className="account-agree">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          我已阅读并同意《账号注销协议》，了解冷静期结束后账号和数据无法恢复
        </label>
        {p.phone && p.email ? (
          <fieldset className="form-field account-choice">
            <legend className="form-field__label">验证码发送到</legend>
            <div className="account-choice__options">
              <label className="account-choice__option">
                <input type="radio" name="channel" checked={channel === "sms"} onChange={() => setChannel("sms")} />
                绑定的手机号 {p.phone}
              </label>
              <label className="account-choice__option">
                <input type="radio" name="channel" checked={channel === "email"} onChange={() => setChannel("email")} />
                绑定的邮箱 {p.email}
              </label>
            </div>
          </fieldset>
        ) : null}
        {boundTo ? (
          <CodeField
            value={code}
            onValue={setCode}
            error={form.errors.code}
            sender={sender}
            onSend={() => {
              form.setProblem(null);
              void sender
                .send(() =>
                  browserApi("/api/me/deletion/code", {
                    method: "POST",
                    body: { channel },
                    schema: import("../../../../shared/contracts/auth").then((m) => m.codeSentSchema),
                  }),
                )
                .then(form.setProblem);
            }}
            sentHint={`验证码已发送到${channel === "sms" ? "绑定的手机号" : "绑定的邮箱"} ${boundTo}，5 分钟内有效`}
          />
        ) : (
          <p className="notice" role="note">
            注销需要向绑定的手机号或邮箱发送验证码，请先在上方绑定一个。
          </p>
        )}
        <TextField
          label={`请输入“${DELETION_CONFIRM_WORD}”确认`}
          name="confirm"
          value={word}
          onValue={setWord}
          error={form.errors.confirm}
          autoComplete="off"
          maxLength={10}
        />
        <FormAlert problem={form.problem} />
        <div className="form__actions">
          <SubmitButton busy={form.busy} busyText="提交中…">
            申请注销
          </SubmitButton>
        </div>
      </form>
    </AccountSection>
  );
}
