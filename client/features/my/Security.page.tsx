/**
 * 账号与安全: password, phone, e-mail and WeChat bindings, device protection, bound devices,
 * signed-in sessions and account deletion. The profile comes first (the page fails without
 * it); the lists and the WeChat state are fetched beside it and fail on their own.
 */
import { type ReactNode, useState } from "react";
import { Link, useLoaderData, useRevalidator } from "react-router-dom";
import { z } from "zod";
import { AjaxError } from "../../../shared/ajax";
import { codeSentSchema, statusOkSchema } from "../../../shared/contracts/auth";
import {
  DELETION_CONFIRM_WORD,
  DELETION_COOLING_DAYS,
  type DeviceList,
  type Me,
  type SessionList,
  deletionRequestSchema,
  deletionStatusSchema,
  deviceListSchema,
  emailBindSchema,
  emailBindSendSchema,
  meSchema,
  okSchema,
  passwordChangeSchema,
  phoneBindSchema,
  phoneBindSendSchema,
  sessionListSchema,
} from "../../../shared/contracts/me";
import {
  CodeField,
  FormAlert,
  PASSWORD_HINT,
  SubmitButton,
  TextField,
  useCodeSender,
  useSubmission,
} from "../../components/form/fields";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { AccountRow, AccountSection, localProblem, useAction } from "./account-parts";
import { formatDate, formatDateTime } from "../../../shared/format";

const wechatBindingSchema = z.object({ bound: z.boolean(), nickname: z.string().nullable().optional() });
const wechatConfigSchema = z.object({ enabled: z.boolean() });

/** A part of the page that may fail alone: its data, or the status it failed with (0: network). */
type Part<T> = { data: T } | { failed: number };

async function part<T>(load: Promise<T>, signal: AbortSignal): Promise<Part<T>> {
  try {
    return { data: await load };
  } catch (err) {
    if (signal.aborted) throw err;
    return { failed: err instanceof AjaxError ? err.statusCode : 0 };
  }
}

export async function loader({ env, signal }: PageLoaderArgs) {
  const [me, devices, sessions, wechat, wechatConfig] = await Promise.all([
    env.api("/api/me", { signal, schema: meSchema }),
    part(env.api("/api/me/devices", { signal, schema: deviceListSchema }), signal),
    part(env.api("/api/me/sessions", { signal, schema: sessionListSchema }), signal),
    // WeChat binding is its own module; until it answers, the row says so instead of failing.
    part(env.api("/api/auth/wechat/binding", { signal, schema: wechatBindingSchema }), signal),
    part(env.api("/api/auth/wechat/config", { signal, schema: wechatConfigSchema }), signal),
  ]);
  return { me, devices, sessions, wechat, wechatConfig, meta: { title: "账号与安全" } };
}

type SecurityData = Awaited<ReturnType<typeof loader>>;

function PartFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="account-failed" role="alert">
      <p>{what}没能加载出来。</p>
      <button type="button" className="button button--small" onClick={onRetry}>
        重新加载
      </button>
    </div>
  );
}

function Done({ children }: { children: ReactNode }) {
  return (
    <p className="form-success" role="status">
      {children}
    </p>
  );
}

// ---------- password ----------

function PasswordForm({
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
  const form = useSubmission();

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
      className="card account-inline-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const mismatch = password !== confirm ? "两次输入的密码不一致" : undefined;
        setConfirmError(mismatch);
        if (mismatch) return;
        const body = hasPassword ? { current, password } : { password };
        const result = await form.submit(passwordChangeSchema, body, (input) =>
          browserApi("/api/me/password", { method: "POST", body: input, schema: okSchema }),
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

// ---------- phone and e-mail ----------

const bindKinds = {
  phone: {
    label: "手机号",
    field: "phone",
    send: "/api/me/phone/send",
    confirm: "/api/me/phone",
    addressSchema: phoneBindSendSchema.shape.phone,
    bindSchema: phoneBindSchema,
    input: { type: "tel", inputMode: "tel", autoComplete: "tel", placeholder: "新的手机号", maxLength: 20 },
  },
  email: {
    label: "邮箱",
    field: "email",
    send: "/api/me/email/send",
    confirm: "/api/me/email",
    addressSchema: emailBindSendSchema.shape.email,
    bindSchema: emailBindSchema,
    input: { type: "email", inputMode: "email", autoComplete: "email", placeholder: "邮箱地址", maxLength: 254 },
  },
} as const;

function BindForm({ kind, bound, onDone }: { kind: keyof typeof bindKinds; bound: boolean; onDone: () => void }) {
  const spec = bindKinds[kind];
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState("");
  const [code, setCode] = useState("");
  // Said as it was at the time: after the reload the address counts as bound either way.
  const [done, setDone] = useState<string | null>(null);
  const form = useSubmission();
  const addressSchema: z.ZodType<string, string> = spec.addressSchema;
  const normalized = addressSchema.safeParse(address);
  const sender = useCodeSender(`${kind}:${normalized.success ? normalized.data : address}`);

  if (!open) {
    return (
      <>
        {done ? (
          <Done>
            {spec.label}已{bound ? "更换" : "绑定"}。
          </Done>
        ) : null}
        <button type="button" className="button button--small" onClick={() => setOpen(true)}>
          {bound ? `更换${spec.label}` : `绑定${spec.label}`}
        </button>
      </>
    );
  }

  const sendCode = async () => {
    form.setProblem(null);
    const target = form.check(spec.field, addressSchema, address);
    if (target === null) return;
    const problem = await sender.send(() =>
      browserApi(spec.send, { method: "POST", body: { [spec.field]: target }, schema: codeSentSchema }),
    );
    form.setProblem(problem);
  };

  return (
    <form
      ref={form.formRef}
      className="card account-inline-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        const result = await form.submit(spec.bindSchema, { [spec.field]: address, code }, (input) =>
          browserApi(spec.confirm, { method: "POST", body: input, schema: meSchema }),
        );
        if (result) {
          setOpen(false);
          setDone(`${spec.label}已${bound ? "更换" : "绑定"}。`);
          setAddress("");
          setCode("");
          onDone();
        }
      }}
    >
      <TextField
        label={bound ? `新的${spec.label}` : spec.label}
        name={spec.field}
        value={address}
        onValue={setAddress}
        error={form.errors[spec.field]}
        {...spec.input}
      />
      <CodeField
        value={code}
        onValue={setCode}
        error={form.errors.code}
        sender={sender}
        onSend={() => void sendCode()}
        sentHint={`验证码已发送到这个${spec.label}，5 分钟内有效`}
      />
      <FormAlert problem={form.problem} />
      <div className="form__actions">
        <SubmitButton busy={form.busy} busyText="确认中…">
          确认{bound ? "更换" : "绑定"}
        </SubmitButton>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          取消
        </button>
      </div>
    </form>
  );
}

// ---------- WeChat ----------

function WechatRow({ data, onDone }: { data: SecurityData; onDone: () => void }) {
  const unbind = useAction();
  const { wechat, wechatConfig } = data;
  const enabled = "data" in wechatConfig && wechatConfig.data.enabled;

  let value: ReactNode;
  let action: ReactNode = null;
  if ("failed" in wechat) {
    value = wechat.failed === 404 ? "微信绑定暂未开放" : "暂时无法查询";
  } else if (wechat.data.bound) {
    value = `已绑定${wechat.data.nickname ? `（${wechat.data.nickname}）` : ""}`;
    action = (
      <ConfirmButton
        label="解绑"
        confirmLabel="确认解绑"
        onConfirm={async () => {
          if (
            await unbind.run(() => browserApi("/api/auth/wechat/binding", { method: "DELETE", schema: statusOkSchema }))
          )
            onDone();
        }}
      />
    );
  } else {
    value = "未绑定";
    // A full page load: the binding goes through WeChat's own QR page and comes back here.
    action = enabled ? (
      <a className="button button--small" href="/api/auth/wechat/start?intent=bind">
        绑定微信
      </a>
    ) : (
      <span className="account-hint">微信登录暂未开放</span>
    );
  }
  return (
    <AccountRow
      label="微信"
      value={value}
      action={
        <>
          {action}
          <FormAlert problem={unbind.problem} />
        </>
      }
    />
  );
}

// ---------- device protection ----------

function DeviceProtection({ enabled, onDone }: { enabled: boolean; onDone: () => void }) {
  const toggle = useAction();
  const busy = toggle.busy;
  const flip = async () => {
    const body = { enabled: !enabled };
    if (await toggle.run(() => browserApi("/api/me/device-protection", { method: "POST", body, schema: meSchema })))
      onDone();
  };
  return (
    <AccountSection
      title="登录设备保护"
      lead="开启后，在没有确认过的设备上登录时，需要再输入一次发到手机或邮箱的验证码。"
      actions={
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-label="登录设备保护"
          className={`account-switch${enabled ? " is-on" : ""}`}
          disabled={busy}
          onClick={() => void flip()}
        >
          <span className="account-switch__track" aria-hidden="true">
            <span className="account-switch__thumb" />
          </span>
          <span className="account-switch__text">{enabled ? "已开启" : "已关闭"}</span>
        </button>
      }
    >
      <FormAlert problem={toggle.problem} />
    </AccountSection>
  );
}

// ---------- devices and sessions ----------

/** A button that asks once more before it acts (removing a device, signing out a session). */
function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button button--small" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="account-confirm">
      <button
        type="button"
        className="button button--primary button--small"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {busy ? "处理中…" : confirmLabel}
      </button>
      <button type="button" className="button button--small" onClick={() => setAsking(false)}>
        取消
      </button>
    </span>
  );
}

function DevicesSection({ devices, onDone }: { devices: Part<DeviceList>; onDone: () => void }) {
  const removal = useAction();
  const remove = async (id: number) => {
    if (await removal.run(() => browserApi(`/api/me/devices/${id}`, { method: "DELETE", schema: okSchema }))) onDone();
  };
  return (
    <AccountSection title="登录设备" lead="登录过这个账号的浏览器。移除后，该设备上的登录会立即退出。">
      {"failed" in devices ? (
        <PartFailed what="设备列表" onRetry={onDone} />
      ) : devices.data.items.length === 0 ? (
        <p className="account-empty">还没有记录到登录设备。</p>
      ) : (
        <table className="data-table account-table">
          <thead>
            <tr>
              <th scope="col">设备</th>
              <th scope="col">首次登录</th>
              <th scope="col">最近使用</th>
              <th scope="col">状态</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {devices.data.items.map((d) => (
              <tr key={d.id}>
                <td>{d.name}</td>
                <td>{formatDateTime(d.firstSeenAt)}</td>
                <td>{formatDateTime(d.lastSeenAt)}</td>
                <td>
                  {d.current ? <span className="account-tag account-tag--current">当前设备</span> : null}
                  {d.trusted ? <span className="account-tag">已确认</span> : null}
                </td>
                <td className="account-table__action">
                  {d.current ? null : (
                    <ConfirmButton label="移除" confirmLabel="确认移除" onConfirm={() => remove(d.id)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormAlert problem={removal.problem} />
    </AccountSection>
  );
}

function SessionsSection({ sessions, onDone }: { sessions: Part<SessionList>; onDone: () => void }) {
  const action = useAction();
  const call = async (request: () => Promise<unknown>) => {
    if (await action.run(request)) onDone();
  };
  const others = "data" in sessions ? sessions.data.items.filter((s) => !s.current).length : 0;
  return (
    <AccountSection
      title="登录会话"
      lead="正在登录这个账号的地方。看到不认识的，退出它并修改密码。"
      actions={
        <button
          type="button"
          className="button button--small"
          disabled={action.busy || others === 0}
          onClick={() =>
            void call(() => browserApi("/api/auth/logout-others", { method: "POST", body: {}, schema: statusOkSchema }))
          }
        >
          {action.busy ? "处理中…" : "退出其他设备"}
        </button>
      }
    >
      {"failed" in sessions ? (
        <PartFailed what="登录会话" onRetry={onDone} />
      ) : (
        <table className="data-table account-table">
          <thead>
            <tr>
              <th scope="col">浏览器与系统</th>
              <th scope="col">IP</th>
              <th scope="col">登录时间</th>
              <th scope="col">最近活动</th>
              <th scope="col">
                <span className="visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.items.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.device}
                  {s.current ? (
                    <span className="account-tag account-tag--current account-tag--inline">当前</span>
                  ) : null}
                </td>
                <td className="account-table__mono">{s.ip || "—"}</td>
                <td>{formatDateTime(s.createdAt)}</td>
                <td>{formatDateTime(s.lastSeenAt)}</td>
                <td className="account-table__action">
                  {s.current ? null : (
                    <ConfirmButton
                      label="退出"
                      confirmLabel="确认退出"
                      onConfirm={() =>
                        call(() => browserApi(`/api/me/sessions/${s.id}`, { method: "DELETE", schema: okSchema }))
                      }
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <FormAlert problem={action.problem} />
    </AccountSection>
  );
}

// ---------- deletion ----------

function DeletionSection({ me, onDone }: { me: Me; onDone: () => void }) {
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
        className="card account-inline-form account-deletion"
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

export default function SecurityPage() {
  const data = useLoaderData() as SecurityData;
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  const p = data.me.profile;
  const required = useRootData().viewer?.passwordChangeRequired === true;
  return (
    <Page
      className="account-page"
      lead="登录方式、登录过的设备和正在进行的登录都在这里。每一项改动都会在“通知”里留下记录。"
    >
      {required ? (
        <div className="notice notice--warning" role="alert" data-testid="password-change-required">
          你正在使用管理员发放的初始密码登录。请先设置新的登录密码，设置后才能使用网站的其他功能。
        </div>
      ) : null}
      <AccountSection title="登录方式">
        <dl className="account-rows">
          <AccountRow
            label="登录密码"
            value={p.hasPassword ? "已设置" : "未设置"}
            action={<PasswordForm hasPassword={p.hasPassword} required={required} onDone={refresh} />}
          />
          <AccountRow
            label="手机号"
            value={p.phone ?? "未绑定"}
            action={<BindForm kind="phone" bound={p.phone !== null} onDone={refresh} />}
          />
          <AccountRow
            label="邮箱"
            value={p.email ?? "未绑定"}
            action={<BindForm kind="email" bound={p.email !== null} onDone={refresh} />}
          />
          <WechatRow data={data} onDone={refresh} />
        </dl>
      </AccountSection>
      <DeviceProtection enabled={p.deviceProtection} onDone={refresh} />
      <DevicesSection devices={data.devices} onDone={refresh} />
      <SessionsSection sessions={data.sessions} onDone={refresh} />
      <DeletionSection me={data.me} onDone={refresh} />
    </Page>
  );
}
