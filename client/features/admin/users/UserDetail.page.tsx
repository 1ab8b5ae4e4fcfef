/**
 * 账号详情 (/admin/users/:id): who the account is, its orders, courses and signed-in sessions,
 * and the operator's changes — disable or enable (with a reason), end its sessions, grant or
 * revoke the teacher and operator roles, reset two-factor login for someone who lost the phone.
 * One's own account cannot be disabled or demoted here. Guarded changes may ask for a step-up.
 */
import { useState, type FormEvent } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  adminUserChangeSchema,
  adminUserDetailSchema,
  adminUserStatusSchema,
  USER_ROLE_LABELS,
  USER_STATUS_LABELS,
  type AdminUserDetail,
} from "../../../../shared/contracts/admin-users";
import { formatDateTime } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { FormAlert } from "../../../components/form/FormAlert";
import { useMutation } from "../../../lib/mutation";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { DeskBusy, LoadFailed, loaded } from "../desk-parts";
import "../desk.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const id = String(params.id ?? "");
  const detail = await loaded(env.api(`/api/admin/users/${id}`, { signal, schema: adminUserDetailSchema }));
  return { id, detail, meta: { title: "账号详情", noindex: true } };
}

const SOURCES: Record<string, string> = {
  free: "免费报名",
  order: "购买",
  gift: "好友赠送",
  group: "拼团",
  exchange: "兑换",
  admin: "后台开通",
};

/** A change's call: busy, what went wrong or what was done, and the page read again. */
function useChange() {
  const revalidator = useRevalidator();
  // Disabling, role changes and resets may first ask for the password or a code (step-up).
  const mutation = useMutation();
  const [busy, setBusy] = useState<string | null>(null);
  async function change(name: string, path: string, body: unknown, ok: string) {
    if (busy) return;
    setBusy(name);
    await mutation.send(path, {
      body,
      schema: adminUserChangeSchema,
      done: (result) => (result.changed ? ok : "没有变化"),
    });
    setBusy(null);
    await revalidator.revalidate();
  }
  return { busy, problem: mutation.problem, done: mutation.done, change };
}

/** A change that needs a written reason (recorded in the audit log): its form, checked before sending. */
function ReasonForm(props: {
  id: string;
  title: string;
  lead: string;
  submit: string;
  primary?: boolean;
  busy: boolean;
  disabled: boolean;
  onReason: (reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = adminUserStatusSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "请填写原因");
      return;
    }
    setError(null);
    props.onReason(parsed.data.reason);
  };
  const errorId = `${props.id}-e`;
  return (
    <form className="desk-form" aria-label={props.title} onSubmit={onSubmit}>
      <h3 className="desk-form__title">{props.title}</h3>
      <p className="desk-form__lead">{props.lead}</p>
      <div className="desk-form__row">
        <div className="desk-field">
          <label htmlFor={props.id}>原因（记入操作记录）</label>
          <input
            id={props.id}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={200}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <p className="desk-field__error" id={errorId}>
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className={`button${props.primary ? " button--primary" : ""}`} disabled={props.disabled}>
          {props.busy ? "正在提交…" : props.submit}
        </button>
      </div>
    </form>
  );
}

function AccountChanges({ detail }: { detail: AdminUserDetail }) {
  const { user, self } = detail;
  const c = useChange();
  const base = `/api/admin/users/${user.id}`;
  const disabled = user.status === "disabled";
  const canToggle = user.status === "active" || disabled;
  const role = (action: "grant" | "revoke", r: "teacher" | "operator", ok: string) =>
    void c.change(`${action}-${r}`, `${base}/role`, { action, role: r }, ok);

  if (self) return <p className="desk-muted">这是你自己的账号：不能在这里停用、结束会话或撤销运营角色。</p>;
  return (
    <div className="desk-actions">
      {canToggle ? (
        <ReasonForm
          id="status-reason"
          title={disabled ? "启用账号" : "停用账号"}
          lead={
            disabled
              ? "启用后学员可以重新登录。"
              : "停用后该账号的所有登录会话立即结束，登录时会提示“该账号已停用，请联系客服”。"
          }
          submit={disabled ? "启用" : "停用"}
          primary={disabled}
          busy={c.busy === "status"}
          disabled={c.busy !== null}
          onReason={(reason) =>
            void c.change(
              "status",
              `${base}/${disabled ? "enable" : "disable"}`,
              { reason },
              disabled ? "账号已启用" : "账号已停用，登录会话已全部结束",
            )
          }
        />
      ) : null}
      {user.twoFactor ? (
        <ReasonForm
          id="two-factor-reason"
          title="重置两步验证"
          lead="对方的手机丢失、恢复码也用完时使用。重置后验证器上的密钥和全部恢复码作废，对方用密码或验证码登录后需重新开启。请先核实对方身份。"
          submit="重置"
          busy={c.busy === "two-factor"}
          disabled={c.busy !== null}
          onReason={(reason) =>
            void c.change("two-factor", `${base}/two-factor/reset`, { reason }, "两步验证已重置，对方登录后需重新开启")
          }
        />
      ) : null}
      <div className="desk-form" role="group" aria-label="角色与会话">
        <h3 className="desk-form__title">角色与会话</h3>
        <div className="desk-form__row">
          {user.role === "learner" ? (
            <button
              type="button"
              className="button"
              disabled={c.busy !== null}
              onClick={() => role("grant", "teacher", "已设为老师")}
            >
              设为老师
            </button>
          ) : null}
          {user.role !== "operator" ? (
            <button
              type="button"
              className="button"
              disabled={c.busy !== null}
              onClick={() => role("grant", "operator", "已设为运营")}
            >
              设为运营
            </button>
          ) : null}
          {user.role === "teacher" ? (
            <button
              type="button"
              className="button"
              disabled={c.busy !== null}
              onClick={() => role("revoke", "teacher", "已撤销老师角色")}
            >
              撤销老师角色
            </button>
          ) : null}
          {user.role === "operator" ? (
            <button
              type="button"
              className="button"
              disabled={c.busy !== null}
              onClick={() => role("revoke", "operator", "已撤销运营角色")}
            >
              撤销运营角色
            </button>
          ) : null}
          <button
            type="button"
            className="button"
            disabled={c.busy !== null || detail.sessions.length === 0}
            onClick={() => void c.change("sessions", `${base}/sessions/revoke`, undefined, "登录会话已全部结束")}
          >
            结束全部登录会话
          </button>
        </div>
      </div>
      <FormAlert look="desk" problem={c.problem} done={c.done} />
    </div>
  );
}

export default function UserDetailPage() {
  const { id, detail } = useLoaderData<typeof loader>();
  if (!detail.ok)
    return (
      <Page title="账号详情">
        <LoadFailed problem={detail.problem} what="账号" />
      </Page>
    );
  const d = detail.data;
  const { user } = d;
  return (
    <Page
      title={`${user.nickname}（#${user.id}）`}
      lead={
        <>
          {USER_ROLE_LABELS[user.role]} ·{" "}
          <span className="desk-status" data-status={user.status}>
            {USER_STATUS_LABELS[user.status]}
          </span>{" "}
          · 注册于 {formatDateTime(user.createdAt)}
        </>
      }
      actions={
        <>
          <Link to="/admin/users">返回账号列表</Link>
          <Link to={`/admin/audit?targetType=user&targetId=${id}`}>操作记录</Link>
        </>
      }
    >
      <DeskBusy className="desk-detail">
        <section className="card desk-card" aria-labelledby="user-facts">
          <h2 id="user-facts" className="desk-card__title">
            资料
          </h2>
          <dl className="desk-facts">
            <dt>手机号</dt>
            <dd>{user.phone ?? "—"}</dd>
            <dt>邮箱</dt>
            <dd>{user.email ?? "—"}</dd>
            <dt>地区</dt>
            <dd>{user.region ?? "—"}</dd>
            <dt>两步验证</dt>
            <dd>{user.twoFactor ? "已开启" : "未开启"}</dd>
            <dt>最近修改</dt>
            <dd>{formatDateTime(user.updatedAt)}</dd>
          </dl>
        </section>
        <section className="card desk-card" aria-labelledby="user-changes">
          <h2 id="user-changes" className="desk-card__title">
            账号操作
          </h2>
          <AccountChanges detail={d} />
        </section>
        <section className="card desk-card" aria-labelledby="user-orders">
          <h2 id="user-orders" className="desk-card__title">
            订单（共 {d.orders.total} 笔，已付 {formatMoney(d.orders.paidCents)}）
          </h2>
          {d.orders.recent.length === 0 ? (
            <p className="desk-muted">没有订单。</p>
          ) : (
            <>
              <table className="desk-table">
                <thead>
                  <tr>
                    <th scope="col">订单号</th>
                    <th scope="col">商品</th>
                    <th scope="col">实付</th>
                    <th scope="col">状态</th>
                    <th scope="col">下单时间</th>
                  </tr>
                </thead>
                <tbody>
                  {d.orders.recent.map((o) => (
                    <tr key={o.orderNo}>
                      <td>
                        <Link to={`/admin/orders/detail?no=${o.orderNo}`}>{o.orderNo}</Link>
                      </td>
                      <td>{o.title}</td>
                      <td>{formatMoney(o.payCents)}</td>
                      <td>{o.stateLabel}</td>
                      <td>{formatDateTime(o.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {d.orders.total > d.orders.recent.length ? (
                <p>
                  <Link to={`/admin/orders?userId=${user.id}`}>查看全部 {d.orders.total} 笔订单</Link>
                </p>
              ) : null}
            </>
          )}
        </section>
        <section className="card desk-card" aria-labelledby="user-courses">
          <h2 id="user-courses" className="desk-card__title">
            课程（{d.courses.length}）
          </h2>
          {d.courses.length === 0 ? (
            <p className="desk-muted">还没有课程。</p>
          ) : (
            <ul className="desk-list">
              {d.courses.map((c) => (
                <li key={c.id}>
                  <Link to={`/course/${c.id}`}>{c.title}</Link>
                  <span className="desk-muted">
                    {SOURCES[c.source] ?? c.source} · {formatDateTime(c.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card desk-card" aria-labelledby="user-sessions">
          <h2 id="user-sessions" className="desk-card__title">
            登录中的会话（{d.sessions.length}）
          </h2>
          {d.sessions.length === 0 ? (
            <p className="desk-muted">没有登录中的会话。</p>
          ) : (
            <table className="desk-table">
              <thead>
                <tr>
                  <th scope="col">设备</th>
                  <th scope="col">IP</th>
                  <th scope="col">登录时间</th>
                  <th scope="col">最近活动</th>
                </tr>
              </thead>
              <tbody>
                {d.sessions.map((s) => (
                  <tr key={s.id}>
                    <td className="desk-ellipsis" title={s.userAgent}>
                      {s.userAgent || "未知设备"}
                    </td>
                    <td>{s.ip}</td>
                    <td>{formatDateTime(s.createdAt)}</td>
                    <td>{formatDateTime(s.lastSeenAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </DeskBusy>
    </Page>
  );
}
