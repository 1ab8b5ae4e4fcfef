/** 注销账号: ask for deletion with the confirm word, or cancel a request still in its cooling-off days. */
import { useState } from "react";
import { Link } from "react-router-dom";
import {
  DELETION_CONFIRM_WORD,
  DELETION_COOLING_DAYS,
  type Me,
  deletionRequestSchema,
  deletionStatusSchema,
} from "../../../../shared/contracts/me";
import { formatDate, formatDateTime } from "../../../../shared/format";
import { FormAlert, SubmitButton, TextField, useSubmission } from "../../../components/form/fields";
import { browserApi } from "../../../lib/api";
import { AccountSection, localProblem, useAction } from "../account-parts";

export function DeletionSection({ me, onDone }: { me: Me; onDone: () => void }) {
  const p = me.profile;
  const [word, setWord] = useState("");
  const [agreed, setAgreed] = useState(false);
  const form = useSubmission();
  const cancel = useAction();

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
          onClick={async () => {
            const call = () =>
              browserApi("/api/me/deletion/cancel", { method: "POST", body: {}, schema: deletionStatusSchema });
            if (await cancel.run(call)) onDone();
          }}
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
          const result = await form.submit(deletionRequestSchema, { confirm: word.trim() }, (input) =>
            browserApi("/api/me/deletion", { method: "POST", body: input, schema: deletionStatusSchema }),
          );
          if (result) {
            setWord("");
            onDone();
          }
        }}
      >
        <label className="account-agree">
          <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
          我已阅读并同意《账号注销协议》，了解冷静期结束后账号和数据无法恢复
        </label>
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
