/** 登录设备: the browsers that signed in to the account, each removable but the current one. */
import { type DeviceList } from "../../../../shared/contracts/me";
import { formatDateTime } from "../../../../shared/format";
import { FormAlert } from "../../../components/form/FormAlert";
import { AccountSection } from "../account-parts";
import { ConfirmButton, type Part, PartFailed } from "./parts";
import { useMutation } from "../../../lib/mutation";

export function DevicesSection({ devices, onDone }: { devices: Part<DeviceList>; onDone: () => void }) {
  const removal = useMutation();
  const remove = (id: number) =>
    removal.send(`/api/me/devices/${id}`, {
      method: "DELETE",
      schema: import("../../../../shared/contracts/me").then((m) => m.okSchema),
      onSuccess: onDone,
    });
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
                <td data-label="首次登录">{formatDateTime(d.firstSeenAt)}</td>
                <td data-label="最近使用">{formatDateTime(d.lastSeenAt)}</td>
                <td data-label="状态">
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
