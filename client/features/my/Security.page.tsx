/**
 * 账号与安全: password, phone, e-mail and WeChat bindings, two-factor login (staff), device
 * protection, bound devices, signed-in sessions and account deletion. The profile comes first (the page fails without
 * it); the lists and the WeChat state are fetched beside it and fail on their own. Each
 * section is its own component under `security/`.
 */
import { useLoaderData, useRevalidator } from "react-router-dom";
import { mayTeach } from "../../../shared/contracts/viewer";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { DeletionSection } from "./security/DeletionSection";
import { DeviceProtection } from "./security/DeviceProtection";
import { DevicesSection } from "./security/DevicesSection";
import { LoginMethodsSection } from "./security/LoginMethodsSection";
import { part } from "./security/parts";
import { SessionsSection } from "./security/SessionsSection";
import { TwoFactorSection } from "./security/TwoFactorSection";

export async function loader({ env, signal }: PageLoaderArgs) {
  const [me, devices, sessions, wechat, wechatConfig, twoFactor] = await Promise.all([
    env.api("/api/me", { signal, schema: import("../../../shared/contracts/me").then((m) => m.meSchema) }),
    part(
      env.api("/api/me/devices", {
        signal,
        schema: import("../../../shared/contracts/me").then((m) => m.deviceListSchema),
      }),
      signal,
    ),
    part(
      env.api("/api/me/sessions", {
        signal,
        schema: import("../../../shared/contracts/me").then((m) => m.sessionListSchema),
      }),
      signal,
    ),
    // WeChat binding is its own module; until it answers, the row says so instead of failing.
    part(
      env.api("/api/auth/wechat/binding", {
        signal,
        schema: import("../../../shared/contracts/auth").then((m) => m.wechatBindingSchema),
      }),
      signal,
    ),
    part(
      env.api("/api/auth/wechat/config", {
        signal,
        schema: import("../../../shared/contracts/auth").then((m) => m.wechatConfigSchema),
      }),
      signal,
    ),
    // Two-factor login is for staff.
    mayTeach(env.viewer)
      ? part(
          env.api("/api/me/two-factor", {
            signal,
            schema: import("../../../shared/contracts/two-factor").then((m) => m.twoFactorStatusSchema),
          }),
          signal,
        )
      : null,
  ]);
  return { me, devices, sessions, wechat, wechatConfig, twoFactor, meta: { title: "账号与安全" } };
}

export default function SecurityPage() {
  const data = useLoaderData<typeof loader>();
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
      <LoginMethodsSection profile={p} wechat={data} required={required} onDone={refresh} />
      {data.twoFactor && !required ? <TwoFactorSection status={data.twoFactor} onDone={refresh} /> : null}
      <DeviceProtection enabled={p.deviceProtection} onDone={refresh} />
      <DevicesSection devices={data.devices} onDone={refresh} />
      <SessionsSection sessions={data.sessions} onDone={refresh} />
      <DeletionSection me={data.me} onDone={refresh} />
    </Page>
  );
}
