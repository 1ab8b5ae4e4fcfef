/** 微信: the binding state, with a link to bind through WeChat or a button to unbind. */
import { type ReactNode } from "react";
import type { z } from "zod";
import { type wechatBindingSchema, type wechatConfigSchema } from "../../../../shared/contracts/auth";
import { FormAlert } from "../../../components/form/FormAlert";
import { AccountRow } from "../account-parts";
import { ConfirmButton, type Part } from "./parts";
import { useMutation } from "../../../lib/mutation";

export interface WechatParts {
  wechat: Part<z.infer<typeof wechatBindingSchema>>;
  wechatConfig: Part<z.infer<typeof wechatConfigSchema>>;
}

export function WechatRow({ data, onDone }: { data: WechatParts; onDone: () => void }) {
  const unbind = useMutation();
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
        onConfirm={() =>
          unbind.send("/api/auth/wechat/binding", {
            method: "DELETE",
            schema: import("../../../../shared/contracts/auth").then((m) => m.statusOkSchema),
            onSuccess: onDone,
          })
        }
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
