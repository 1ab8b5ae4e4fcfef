/**
 * A paid gift's claim link and code as its buyer sees them (payment result, order detail): the
 * absolute link and the code, each with a 复制 button, and how to send them; and the gift's facts
 * for the order description pop-up.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { type GiftInfo } from "../../../shared/contracts/gifts";
import "./gifts.css";
import { formatDateTime } from "../../../shared/format";

const noSubscription = () => () => {};

/** The site's origin in the browser; empty while rendering on the server (the link is then relative). */
function useOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
}

/** Copies a text: the clipboard API where allowed, else the selected field and the old copy command. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand("copy");
  }
}

function CopyField({ label, value, id }: { label: string; value: string; id: string }) {
  const field = useRef<HTMLInputElement | null>(null);
  const [result, setResult] = useState<"copied" | "failed" | null>(null);
  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(() => setResult(null), 2500);
    return () => clearTimeout(timer);
  }, [result]);
  return (
    <div className="gift-copy">
      <label className="gift-copy__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={field}
        id={id}
        className="form-field__control gift-copy__value"
        value={value}
        readOnly
        onFocus={(e) => e.currentTarget.select()}
      />
      <button
        type="button"
        className="button button--small"
        onClick={() => void copyText(value, field.current).then((ok) => setResult(ok ? "copied" : "failed"))}
      >
        复制{label}
      </button>
      <span className="gift-copy__status" role="status">
        {result === "copied" ? "已复制" : result === "failed" ? "请手动选中后复制" : ""}
      </span>
    </div>
  );
}

/** The link and code to send, while the gift waits for its friend. */
export function GiftClaimLink({ gift }: { gift: GiftInfo }) {
  const origin = useOrigin();
  return (
    <div className="gift-share" data-testid="gift-share">
      <CopyField label="领取链接" id="gift-claim-link" value={`${origin}${gift.claimPath}`} />
      <CopyField label="领取码" id="gift-claim-code" value={gift.code} />
      <p className="gift-share__how">
        通过微信、短信或邮件把领取链接发给好友，好友登录后打开链接即可领取；也可以把领取码告诉好友，在课程页点「收到礼物？输入领取码」领取。
        {gift.claimUntil ? `请在 ${formatDateTime(gift.claimUntil)} 前领取，逾期未领取可申请退款。` : ""}
      </p>
    </div>
  );
}

/** The gift's facts in the order description pop-up. */
export function GiftFacts({ gift }: { gift: GiftInfo }) {
  return (
    <section className="gift-facts" aria-label="礼物信息">
      <h3>礼物</h3>
      <dl className="order-detail__facts">
        <dt>礼物状态</dt>
        <dd>{gift.stateLabel}</dd>
        {gift.message ? (
          <>
            <dt>赠言</dt>
            <dd className="gift-facts__message">{gift.message}</dd>
          </>
        ) : null}
        {gift.claimedBy ? (
          <>
            <dt>领取人</dt>
            <dd>
              {gift.claimedBy}
              {gift.claimedAt ? `（${formatDateTime(gift.claimedAt)} 领取）` : ""}
            </dd>
          </>
        ) : null}
        {gift.claimUntil && gift.state === "unclaimed" ? (
          <>
            <dt>领取期限</dt>
            <dd>{formatDateTime(gift.claimUntil)} 前</dd>
          </>
        ) : null}
        {gift.state === "claimed" || gift.state === "refunding" || gift.state === "refunded" ? (
          <>
            <dt>领取码</dt>
            <dd>{gift.code}</dd>
          </>
        ) : null}
      </dl>
      {gift.state === "unclaimed" ? <GiftClaimLink gift={gift} /> : null}
      {gift.state === "pending_payment" ? <p className="gift-facts__note">支付成功后生成领取链接和领取码。</p> : null}
    </section>
  );
}
