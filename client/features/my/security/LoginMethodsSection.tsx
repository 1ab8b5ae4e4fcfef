/** 登录方式: the password, phone, e-mail and WeChat rows. */
import type { Me } from "../../../../shared/contracts/me";
import { AccountRow, AccountSection } from "../account-parts";
import { BindForm } from "./BindForm";
import { PasswordForm } from "./PasswordForm";
import { type WechatParts, WechatRow } from "./WechatRow";

export function LoginMethodsSection({
  profile: p,
  wechat,
  required,
  onDone,
}: {
  profile: Me["profile"];
  wechat: WechatParts;
  /** Signed in with a one-time password: the password form is open until a new one is saved. */
  required: boolean;
  onDone: () => void;
}) {
  return (
    <AccountSection title="登录方式">
      <dl className="account-rows">
        <AccountRow
          label="登录密码"
          value={p.hasPassword ? "已设置" : "未设置"}
          action={<PasswordForm hasPassword={p.hasPassword} required={required} onDone={onDone} />}
        />
        <AccountRow
          label="手机号"
          value={p.phone ?? "未绑定"}
          action={<BindForm kind="phone" bound={p.phone !== null} onDone={onDone} />}
        />
        <AccountRow
          label="邮箱"
          value={p.email ?? "未绑定"}
          action={<BindForm kind="email" bound={p.email !== null} onDone={onDone} />}
        />
        <WechatRow data={wechat} onDone={onDone} />
      </dl>
    </AccountSection>
  );
}
