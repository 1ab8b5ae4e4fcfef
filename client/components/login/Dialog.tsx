/**
 * The login dialog of the header (DESIGN §3): tabs for phone + SMS code, e-mail and scan-code,
 * and the panels a login may lead to: registration, retrieve account, bind device, complete
 * info and messenger binding. A finished login leaves with a full page load, so the server
 * renders the signed-in page. Closed at first, it renders nothing on the server.
 */
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import type { LoginResult } from "../../../shared/contracts/auth";
import { useRootData } from "../../lib/root-data";
import { Modal } from "../../lib/modal";
import { BindPanel } from "./BindPanel";
import { CompleteInfoPanel } from "./CompleteInfoPanel";
import { DevicePanel } from "./DevicePanel";
import { EmailPanel } from "./EmailPanel";
import { AutoFocusContext } from "../form/fields";
import { announceSignedIn, finishLogin } from "./login-client";
import { PhonePanel } from "./PhonePanel";
import { QrPanel } from "./QrPanel";
import { RegisterPanel } from "./RegisterPanel";
import { RetrievePanel } from "./RetrievePanel";
import { TwoFactorPanel } from "./TwoFactorPanel";
import { NewWindowLink } from "../NewWindowLink";
import "./login.css";

type TabName = "phone" | "email" | "qr";
/** Panels a link may open directly (`?login=1&panel=…`). */
export type LoginPanelName = TabName | "register" | "retrieve" | "bind" | "two-factor";

const tabs: { name: TabName; label: string }[] = [
  { name: "phone", label: "手机验证码" },
  { name: "email", label: "邮箱" },
  { name: "qr", label: "扫码" },
];

type View =
  | { panel: TabName; notice?: string; email?: string }
  | { panel: "register" | "retrieve" | "bind" | "two-factor" }
  | { panel: "device"; channel: "sms" | "email"; maskedTarget: string }
  | { panel: "info" }
  | { panel: "done" };

// "two-factor": a WeChat login comes back to it (the login waiting for the code is in a cookie).
const linkable = new Set<string>(["phone", "email", "qr", "register", "retrieve", "bind", "two-factor"]);

function viewFor(panel: string | null | undefined): View {
  return { panel: panel && linkable.has(panel) ? (panel as LoginPanelName) : "phone" };
}

const titles: Record<Exclude<View["panel"], TabName>, string> = {
  register: "邮箱注册",
  retrieve: "找回账号",
  bind: "绑定手机号",
  device: "验证新设备",
  "two-factor": "两步验证",
  info: "完善资料",
  done: "登录成功",
};

export function LoginDialog({
  open,
  onClose,
  initialPanel,
}: {
  open: boolean;
  onClose: () => void;
  /** The panel to show on opening (phone login when absent or unknown). */
  initialPanel?: string | null;
}) {
  const { siteName } = useRootData();
  const [view, setView] = useState<View>(() => viewFor(initialPanel));
  // Focus goes into a panel when it appears, except while moving along the tabs.
  const [autoFocus, setAutoFocus] = useState(true);
  // Signed in, with complete info still to show: closing the dialog must still reload the page.
  const [signedIn, setSignedIn] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open && !signedIn) {
      setView(viewFor(initialPanel));
      setAutoFocus(true);
    }
  }

  const go = (next: View) => {
    setAutoFocus(true);
    setView(next);
  };

  const leave = () => {
    setView({ panel: "done" });
    finishLogin();
  };

  const onLogin = (result: LoginResult) => {
    if (result.status === "two_factor") go({ panel: "two-factor" });
    else if (result.status === "device_verification")
      go({ panel: "device", channel: result.channel, maskedTarget: result.maskedTarget });
    else if (result.next === "complete_info") {
      setSignedIn(true);
      announceSignedIn();
      go({ panel: "info" });
    } else leave();
  };

  const close = () => {
    if (view.panel === "done") return;
    if (signedIn) leave();
    else onClose();
  };

  const isTab = view.panel === "phone" || view.panel === "email" || view.panel === "qr";
  const title = isTab ? `登录${siteName}` : titles[view.panel as keyof typeof titles];
  const canGoBack =
    view.panel === "register" || view.panel === "retrieve" || view.panel === "device" || view.panel === "two-factor";

  return (
    <Modal open={open} onClose={close} title={title} className="login-dialog">
      <AutoFocusContext value={autoFocus}>
        <div className="login-dialog__content" data-testid="login-dialog" data-panel={view.panel}>
          {canGoBack ? (
            <button type="button" className="login-link login-dialog__back" onClick={() => go({ panel: "phone" })}>
              ‹ 返回登录
            </button>
          ) : null}
          {isTab ? (
            <LoginTabs
              current={view.panel as TabName}
              onSelect={(panel) => {
                setAutoFocus(false);
                setView({ panel });
              }}
            >
              {"notice" in view && view.notice ? (
                <p className="login-notice" role="status">
                  {view.notice}
                </p>
              ) : null}
              {view.panel === "phone" ? <PhonePanel onLogin={onLogin} /> : null}
              {view.panel === "email" ? (
                <EmailPanel onLogin={onLogin} initialEmail={"email" in view ? view.email : undefined} />
              ) : null}
              {view.panel === "qr" ? <QrPanel onLogin={onLogin} /> : null}
            </LoginTabs>
          ) : null}
          {view.panel === "register" ? <RegisterPanel onLogin={onLogin} /> : null}
          {view.panel === "retrieve" ? (
            <RetrievePanel
              onReset={(channel, target) =>
                go({
                  panel: channel === "email" ? "email" : "phone",
                  email: channel === "email" ? target : undefined,
                  notice:
                    channel === "email" ? "密码已重置，请用新密码登录。" : "密码已重置。手机号可直接用验证码登录。",
                })
              }
            />
          ) : null}
          {view.panel === "device" ? (
            <DevicePanel channel={view.channel} maskedTarget={view.maskedTarget} onLogin={onLogin} />
          ) : null}
          {view.panel === "two-factor" ? <TwoFactorPanel onLogin={onLogin} /> : null}
          {view.panel === "info" ? <CompleteInfoPanel onDone={leave} /> : null}
          {view.panel === "bind" ? <BindPanel onLogin={onLogin} onRescan={() => go({ panel: "qr" })} /> : null}
          {view.panel === "done" ? (
            <p className="login-done" role="status">
              登录成功，正在跳转…
            </p>
          ) : null}
          {isTab ? (
            <>
              <div className="login-dialog__links">
                <button type="button" className="login-link" onClick={() => go({ panel: "retrieve" })}>
                  忘记密码
                </button>
                <button type="button" className="login-link" onClick={() => go({ panel: "register" })}>
                  邮箱注册
                </button>
              </div>
              <p className="login-dialog__terms">
                登录即表示你已阅读并同意<NewWindowLink href="/agreement">《用户协议》</NewWindowLink>和
                <NewWindowLink href="/protocol/privacy">《隐私政策》</NewWindowLink>
              </p>
            </>
          ) : null}
          {view.panel === "register" ? (
            <p className="login-dialog__switch">
              已有账号？
              <button type="button" className="login-link" onClick={() => go({ panel: "email" })}>
                去登录
              </button>
            </p>
          ) : null}
        </div>
      </AutoFocusContext>
    </Modal>
  );
}

/** The three ways in, as an ARIA tab list: arrows, Home and End move along it. */
function LoginTabs({
  current,
  onSelect,
  children,
}: {
  current: TabName;
  onSelect: (tab: TabName) => void;
  children: ReactNode;
}) {
  const id = useId();
  const listRef = useRef<HTMLDivElement | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.name === current);
    const target =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : -1;
    const tab = tabs[target];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.name);
    listRef.current?.querySelector<HTMLElement>(`[data-tab="${tab.name}"]`)?.focus();
  };

  return (
    <>
      {/* Roving focus: the selected tab is the one in the tab order; the list takes the arrow keys. */}
      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
      <div ref={listRef} className="login-tabs" role="tablist" aria-label="登录方式" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.name}
            type="button"
            role="tab"
            id={`${id}-${tab.name}`}
            data-tab={tab.name}
            aria-selected={tab.name === current}
            aria-controls={`${id}-panel`}
            tabIndex={tab.name === current ? 0 : -1}
            className={`login-tabs__tab${tab.name === current ? " is-active" : ""}`}
            onClick={() => onSelect(tab.name)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="login-tabs__panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${current}`}>
        {children}
      </div>
    </>
  );
}
