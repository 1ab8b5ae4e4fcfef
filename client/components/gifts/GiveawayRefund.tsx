/**
 * The giveaway-refund dialog's content (opened by 申请退款 on a gift order in /my/order): whether
 * the unclaimed gift can be refunded now — only after its claim window, and why not in plain
 * words — and the confirmation. The order page owns the dialog frame and sends the request
 * (POST /api/gifts/{code}/refund).
 */
import type { GiftInfo } from "../../../shared/contracts/gifts";
import type { OrderDetail } from "../../../shared/contracts/orders";
import { FormAlert } from "../form/FormAlert";
import type { Problem } from "../../lib/problem";
import "./gifts.css";
import { formatDateTime } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";

export function GiveawayRefund({
  order,
  gift,
  busy,
  problem,
  onSubmit,
  onCancel,
}: {
  order: OrderDetail;
  gift: GiftInfo;
  busy: boolean;
  problem: Problem | null;
  onSubmit: (path: string) => void;
  onCancel: () => void;
}) {
  return (
    <div className="giveaway-refund">
      <dl className="order-detail__facts">
        <dt>礼物</dt>
        <dd>《{order.title}》</dd>
        <dt>礼物状态</dt>
        <dd>{gift.stateLabel}</dd>
        {gift.claimUntil && gift.state === "unclaimed" ? (
          <>
            <dt>领取期限</dt>
            <dd>{formatDateTime(gift.claimUntil)}</dd>
          </>
        ) : null}
      </dl>
      {gift.refund.allowed ? (
        <p className="refund-rule">
          {gift.refund.reason}。退款金额 <strong>{formatMoney(order.payCents)}</strong>
          ，原路退回；退款后领取链接和领取码立即失效。
        </p>
      ) : (
        <p className="refund-rule" role="alert">
          暂不能退款：{gift.refund.reason}。
        </p>
      )}
      <FormAlert problem={problem} />
      <div className="form__actions">
        <button type="button" className="button" onClick={onCancel}>
          {gift.refund.allowed ? "再想想" : "知道了"}
        </button>
        {gift.refund.allowed ? (
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() => onSubmit(`/api/gifts/${encodeURIComponent(gift.code)}/refund`)}
          >
            {busy ? "正在提交…" : "确认退款"}
          </button>
        ) : null}
      </div>
    </div>
  );
}
