/**
 * 两步验证 (staff only, decision 072): set up with an authenticator app (scan the QR code, or type
 * the secret shown beside it), confirm with a first code, keep the ten recovery codes shown once;
 * later renew them or turn it off with a code. An operator of the `pro` site must have it on.
 */
import { useState } from "react";
import type { TwoFactorSetup, TwoFactorStatus } from "../../../../shared/contracts/two-factor";
import { formatDateTime } from "../../../../shared/format";
import { FormAlert, SubmitButton, TextField } from "../../../components/form/fields";
import { browserApi } from "../../../lib/api";
import { AccountRow, AccountSection } from "../account-parts";
import { Done, type Part, PartFailed } from "./parts";
import "./two-factor.css";
import { useMutation } from "../../../lib/mutation";

const contracts = () => import("../../../../shared/contracts/two-factor");

/** The secret in groups of four, as apps show and people type it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, "$1 ").trim();

export function TwoFactorSection({ status, onDone }: { status: Part<TwoFactorStatus>; onDone: () => void }) {
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [form, setForm] = useState<"renew" | "disable" | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const start = useMutation();

  const lead =
    "登录时除了密码或验证码，还要输入手机上验证器 App（如腾讯身份验证器、Microsoft Authenticator、Google Authenticator）显示的 6 位数字。";
  if ("failed" in status)
    return (
      <AccountSection title="两步验证" lead={lead} id="two-factor">
        <PartFailed what="两步验证" onRetry={onDone} />
      </AccountSection>
    );
  const s = status.data;

  const begin = async () => {
    setDone(null);
    await start.send("/api/me/two-factor/setup", {
      body: {},
      schema: contracts().then((m) => m.twoFactorSetupSchema),
      onSuccess: setSetup,
    });
  };

  const finish = () => {
    setCodes(null);
    // Required and now on: the whole site opens up again with a fresh document.
    if (s.required && !s.enabled) window.location.assign("/my");
    else onDone();
  };

  return (
    <AccountSection title="两步验证" lead={lead} id="two-factor">
      {s.required && !s.enabled && !codes ? (
        <div className="notice notice--warning" role="alert" data-testid="two-factor-required">
          运营账号必须开启两步验证。开启后才能使用网站的其他功能。
        </div>
      ) : null}
      {codes ? (
        <RecoveryCodeList codes={codes} onSaved={finish} />
      ) : setup ? (
        <SetupForm
          setup={setup}
          onCancel={() => setSetup(null)}
          onEnabled={(recoveryCodes) => {
            setSetup(null);
            setCodes(recoveryCodes);
          }}
        />
      ) : s.enabled ? (
        <>
          {done ? <Done>{done}</Done> : null}
          <dl className="account-rows">
            <AccountRow
              label="状态"
              value={<>已开启{s.enabledAt ? `（${formatDateTime(s.enabledAt)}）` : ""}</>}
              action={
                s.required ? (
                  <span className="account-hint">运营账号不能关闭</span>
                ) : (
                  <button type="button" className="button button--small" onClick={() => setForm("disable")}>
                    关闭两步验证
                  </button>
                )
              }
            />
            <AccountRow
              label="恢复码"
              value={`剩余 ${s.recoveryCodesLeft} 个`}
              action={
                <button type="button" className="button button--small" onClick={() => setForm("renew")}>
                  重新生成恢复码
                </button>
              }
            />
          </dl>
          {form ? (
            <CodeForm
              kind={form}
              onCancel={() => setForm(null)}
              onDone={(recoveryCodes) => {
                setForm(null);
                if (recoveryCodes) setCodes(recoveryCodes);
                else {
                  setDone("两步验证已关闭");
                  onDone();
                }
              }}
            />
          ) : null}
        </>
      ) : (
        <>
          {done ? <Done>{done}</Done> : null}
          <button type="button" className="button button--primary" disabled={start.busy} onClick={() => void begin()}>
            {start.busy ? "准备中…" : "开启两步验证"}
          </button>
          <FormAlert problem={start.problem} />
        </>
      )}
    </AccountSection>
  );
}

function SetupForm({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TwoFactorSetup;
  onCancel: () => void;
  onEnabled: (recoveryCodes: string[]) => void;
}) {
  const [code, setCode] = useState("");
  const form = useMutation();
  return (
    <form
      ref={form.formRef}
      className="account-inline-form two-factor-setup"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(
          contracts().then((m) => m.twoFactorEnableSchema),
          { code },
          (body) =>
            browserApi("/api/me/two-factor/enable", {
              method: "POST",
              body,
              schema: contracts().then((m) => m.recoveryCodesSchema),
            }),
        );
        if (result) onEnabled(result.recoveryCodes);
      }}
    >
      <ol className="two-factor-steps">
        <li>
          在手机上打开验证器 App，扫描下面的二维码。
          <div
            className="two-factor-qr"
            role="img"
            aria-label="两步验证二维码"
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <p className="account-hint">
            无法扫码时，在 App 中选择“手动输入密钥”，输入：
            <code className="two-factor-secret" data-testid="totp-secret" data-secret={setup.secret}>
              {grouped(setup.secret)}
            </code>
          </p>
        </li>
        <li>
          输入 App 上显示的 6 位数字，确认开启。
          <TextField
            {...form.bind("code", code, (v) => setCode(v.replace(/\D/g, "").slice(0, 6)))}
            label="验证器上的 6 位数字"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="6 位数字"
          />
        </li>
      </ol>
      <FormAlert problem={form.problem} />
      <div className="form__actions">
        <SubmitButton busy={form.busy} busyText="确认中…">
          确认开启
        </SubmitButton>
        <button type="button" className="button" onClick={onCancel}>
          取消
        </button>
      </div>
    </form>
  );
}

/** Shown once: the server keeps only their hashes. */
function RecoveryCodeList({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  return (
    <div className="two-factor-codes" data-testid="recovery-codes">
      <p className="notice notice--warning" role="status">
        两步验证已开启。下面是 10 个恢复码：手机不在身边时，每个可以代替验证码登录一次。
        <strong>它们只显示这一次</strong>，请抄下或保存到安全的地方。
      </p>
      <ul className="two-factor-codes__list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="button button--primary" onClick={onSaved}>
        我已保存恢复码
      </button>
    </div>
  );
}

/** Renewing the recovery codes (an app code) or turning it off (an app code or a recovery code). */
function CodeForm({
  kind,
  onCancel,
  onDone,
}: {
  kind: "renew" | "disable";
  onCancel: () => void;
  onDone: (recoveryCodes: string[] | null) => void;
}) {
  const [code, setCode] = useState("");
  const form = useMutation();
  const renew = kind === "renew";
  return (
    <form
      ref={form.formRef}
      className="account-inline-form"
      aria-label={renew ? "重新生成恢复码" : "关闭两步验证"}
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (renew) {
          const result = await form.submit(
            contracts().then((m) => m.recoveryCodesRenewSchema),
            { code },
            (body) =>
              browserApi("/api/me/two-factor/recovery-codes", {
                method: "POST",
                body,
                schema: contracts().then((m) => m.recoveryCodesSchema),
              }),
          );
          if (result) onDone(result.recoveryCodes);
        } else {
          const result = await form.submit(
            contracts().then((m) => m.twoFactorDisableSchema),
            { code },
            (body) =>
              browserApi("/api/me/two-factor/disable", {
                method: "POST",
                body,
                schema: contracts().then((m) => m.twoFactorStatusSchema),
              }),
          );
          if (result) onDone(null);
        }
      }}
    >
      <TextField
        {...form.bind("code", code, setCode)}
        label={renew ? "验证器上的 6 位数字" : "验证器上的 6 位数字或一个恢复码"}
        inputMode={renew ? "numeric" : "text"}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={renew ? 6 : 20}
        hint={renew ? "生成后，之前的恢复码全部作废。" : "关闭后，登录只需要密码或验证码。"}
      />
      <FormAlert problem={form.problem} />
      <div className="form__actions">
        <SubmitButton busy={form.busy} busyText="提交中…">
          {renew ? "重新生成" : "关闭两步验证"}
        </SubmitButton>
        <button type="button" className="button" onClick={onCancel}>
          取消
        </button>
      </div>
    </form>
  );
}
