/** The order description: every snapshot, the gift or group, the refund request and the timeline. */
import { Link } from "../../../routing/link";
import type { OrderDetail } from "../../../../shared/contracts/orders";
import { GiftFacts } from "../../../components/gifts/GiftClaimLink";
import { OrderAmounts, OrderItemLine } from "../../../components/commerce/order-lines";
import { formatDateTime } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { SandboxPaymentBanner } from "../../../components/commerce/payments-mode";

/** The latest refund or return request, and a way to withdraw one that waits for review. */
function RefundRequestFacts({
  order,
  onWithdraw,
  busy,
}: {
  order: OrderDetail;
  onWithdraw: () => void;
  busy: boolean;
}) {
  const r = order.refundRequest;
  if (!r) return null;
  return (
    <div className="card refund-request" data-refund-state={r.state}>
      <p>
        <strong>{r.stateLabel}</strong> · 申请退款 {formatMoney(r.amountCents)}
        {r.quantity !== null && r.quantity < order.quantity ? `（${r.quantity} 件）` : ""} · 原因：{r.reason}
      </p>
      {r.reviewNote ? <p>审核说明：{r.reviewNote}</p> : null}
      {r.state === "requested" ? (
        <>
          <p className="refund-rule">客服会在 1–2 个工作日内审核；审核通过前请不要寄回商品。</p>
          <button type="button" className="button button--small" disabled={busy} onClick={onWithdraw}>
            {busy ? "正在撤销…" : "撤销退货申请"}
          </button>
        </>
      ) : null}
    </div>
  );
}

export function DetailBody({ order, onWithdraw, busy }: { order: OrderDetail; onWithdraw: () => void; busy: boolean }) {
  return (
    <div className="order-detail">
      <SandboxPaymentBanner />
      <OrderItemLine order={order} />
      <dl className="order-detail__facts">
        <dt>订单号</dt>
        <dd>{order.orderNo}</dd>
        <dt>订单状态</dt>
        <dd>{order.stateLabel}</dd>
        {order.provider ? (
          <>
            <dt>支付方式</dt>
            <dd>{order.provider === "wechat" ? "微信支付" : order.provider === "alipay" ? "支付宝" : "模拟支付"}</dd>
          </>
        ) : null}
        {order.address ? (
          <>
            <dt>收货地址</dt>
            <dd>
              {order.address.recipient}，{order.address.phone}，{order.address.region} {order.address.detail}
            </dd>
          </>
        ) : null}
        {order.trackingNo ? (
          <>
            <dt>快递</dt>
            <dd>
              {order.carrier} {order.trackingNo}
            </dd>
          </>
        ) : null}
        {order.refundedCents > 0 ? (
          <>
            <dt>已退款</dt>
            <dd>{formatMoney(order.refundedCents)}</dd>
          </>
        ) : null}
        {order.group ? (
          <>
            <dt>拼团状态</dt>
            <dd>
              {order.group.stateLabel} · 已付款 {order.group.paidCount}/{order.group.groupSize} 人
            </dd>
            <dt>拼团页面</dt>
            <dd>
              <Link to={`/groupbuy/${order.group.groupNo}`}>查看拼团 {order.group.groupNo}</Link>
            </dd>
          </>
        ) : null}
      </dl>
      {order.gift ? <GiftFacts gift={order.gift} /> : null}
      <RefundRequestFacts order={order} onWithdraw={onWithdraw} busy={busy} />
      <h3>金额</h3>
      <OrderAmounts order={order} />
      <h3>订单进度</h3>
      <ol className="order-timeline">
        {order.timeline.map((t, i) => (
          <li key={i}>
            <time dateTime={t.at}>{formatDateTime(t.at)}</time>
            {t.label}
            {t.detail ? `：${t.detail}` : ""}
          </li>
        ))}
      </ol>
    </div>
  );
}
