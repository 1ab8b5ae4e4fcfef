/** 登录会话: where the account is signed in now, each signed out alone or all others at once. */
import { type SessionList } from "../../../../shared/contracts/me";
import { formatDateTime } from "../../../../shared/format";
import { FormAlert } from "../../../components/form/FormAlert";
import { AccountSection } from "../account-parts";
import { ConfirmButton, type Part, PartFailed } from "./parts";
import { useMutation } from "../../../lib/mutation";

export function SessionsSection({ sessions, onDone }: { sessions: Part<SessionList>; onDone: () => void }) {
  const action = useMutation();
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
            void action.send("/api/auth/logout-others", {
              body: {},
              schema: import("../../../../shared/contracts/auth").then((m) => m.statusOkSchema),
              onSuccess: onDone,
            })
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
                <td className="account-table__mono" data-label="IP">
                  {s.ip || "—"}
                </td>
                <td data-label="登录时间">{formatDateTime(s.createdAt)}</td>
                <td data-label="最近活动">{formatDateTime(s.lastSeenAt)}</td>
                <td className="account-table__action">
                  {s.current ? null : (
                    <ConfirmButton
                      label="退出"
                      confirmLabel="确认退出"
                      onConfirm={() =>
                        action.send(`/api/me/sessions/${s.id}`, {
                          method: "DELETE",
                          schema: import("../../../../shared/contracts/me").then((m) => m.okSchema),
                          onSuccess: onDone,
                        })
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
