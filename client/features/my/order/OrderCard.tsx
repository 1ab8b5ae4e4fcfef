/** One order in the list: its items, amounts, state and the buttons its state allows. */
import { Link } from "../../../routing/link";
import type { OrderSummary } from "../../../../shared/contracts/orders";
import { OrderItemLine } from "../../../components/commerce/order-lines";
import { formatDateTime, formatCountdown } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { useCountdown } from "../../../lib/countdown";

const DONE_STATES = new Set(["completed", "cancelled", "refunded", "partially_refunded"]);

function PendingLeft({ order, serverNow }: { order: OrderSummary; serverNow: string }) {
  const left = useCountdown(order.expiresAt, serverNow);
  return left > 0 ? <span>剩余 {formatCountdown(left)}</span> : <span>即将关闭</span>;
}

/** 已优惠: what the coupon and the coins together took off the price. */
export const discountOf = (o: Pick<OrderSummary, "couponDiscountCents" | "coinDiscountCents">) =>
  o.couponDiscountCents + o.coinDiscountCents;

export type Action = { kind: "detail" | "refund" | "giftRefund" | "cancel" | "confirm"; orderNo: string };

const PURPOSE_TAGS = { gift: "礼物", group: "拼团" } as const;

export function OrderCard({
  order,
  serverNow,
  onAction,
}: {
  order: OrderSummary;
  serverNow: string;
  onAction: (a: Action) => void;
}) {
  // A gift's money comes back only while it waits unclaimed, by its own rule and dialog.
  const gift = order.purpose === "gift";
  const refundable = gift ? order.state === "paid" : order.refund.allowed;
  // Where 申请退款 used to be offered but the rules no longer allow it, say why instead of a button.
  const refundRefused =
    !gift &&
    !order.refund.allowed &&
    ["paid", "awaiting_shipment", "shipped", "completed", "partially_refunded"].includes(order.state)
      ? order.refund.reason
      : null;
  return (
    <li className="card order-card" data-order-no={order.orderNo}>
      <div className="order-card__head">
        <span>
          {order.purpose !== "buy" ? (
            <span className={`order-card__tag order-card__tag--${order.purpose}`}>{PURPOSE_TAGS[order.purpose]}</span>
          ) : null}
          {formatDateTime(order.createdAt)} · 订单号 {order.orderNo}
        </span>
        <span className={`order-card__state${DONE_STATES.has(order.state) ? " order-card__state--done" : ""}`}>
          {order.stateLabel}
        </span>
      </div>
      <div className="order-card__body">
        <OrderItemLine order={order} />
        <div className="order-card__pay">
          <strong>{formatMoney(order.payCents)}</strong>
          {discountOf(order) > 0 ? (
            <span data-discount>已优惠 {formatMoney(discountOf(order))}</span>
          ) : order.state === "pending" ? null : (
            <span>实付</span>
          )}
          {order.state === "pending" ? (
            <span>
              <PendingLeft order={order} serverNow={serverNow} />
            </span>
          ) : null}
        </div>
        <div className="order-card__actions">
          {order.state === "pending" ? (
            <>
              <Link className="button button--primary button--small" to={`/payment?order=${order.orderNo}`}>
                立即支付
              </Link>
              <button
                type="button"
                className="button button--small"
                onClick={() => onAction({ kind: "cancel", orderNo: order.orderNo })}
              >
                取消订单
              </button>
            </>
          ) : null}
          {order.state === "shipped" ? (
            <button
              type="button"
              className="button button--primary button--small"
              onClick={() => onAction({ kind: "confirm", orderNo: order.orderNo })}
            >
              确认收货
            </button>
          ) : null}
          {refundable ? (
            <button
              type="button"
              className="button button--small"
              onClick={() => onAction({ kind: gift ? "giftRefund" : "refund", orderNo: order.orderNo })}
            >
              申请退款
            </button>
          ) : refundRefused ? (
            <span className="action-reason" data-refund-refused>
              暂不能退款：{refundRefused}
            </span>
          ) : null}
          <button
            type="button"
            className="button button--small"
            onClick={() => onAction({ kind: "detail", orderNo: order.orderNo })}
          >
            订单详情
          </button>
        </div>
      </div>
    </li>
  );
}
