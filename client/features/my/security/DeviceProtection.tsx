/** 登录设备保护: the switch that asks for a code on devices not confirmed before. */
import { FormAlert } from "../../../components/form/FormAlert";
import { AccountSection } from "../account-parts";
import { useMutation } from "../../../lib/mutation";

export function DeviceProtection({ enabled, onDone }: { enabled: boolean; onDone: () => void }) {
  const toggle = useMutation();
  const busy = toggle.busy;
  const flip = () =>
    toggle.send("/api/me/device-protection", {
      body: { enabled: !enabled },
      schema: import("../../../../shared/contracts/me").then((m) => m.meSchema),
      onSuccess: onDone,
    });
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
