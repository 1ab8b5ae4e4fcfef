/**
 * What the payment pages, the orders page and the pack share: the order's amounts and item,
 * and the coupon refund notice dialog (shown once per returned coupon).
 */
import { useEffect, useState } from "react";
import type { ReturnNotice } from "../../../shared/contracts/coupons";
import type { OrderDetail, OrderSummary } from "../../../shared/contracts/orders";
import { formatDate } from "../../../shared/format";
import { coverSizes } from "../../../shared/media";
import { formatMoney } from "../../../shared/money";
import { Link } from "../../routing/link";
import { LazyImage } from "../../lib/lazy-image";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const couponsContract = () => import("../../../shared/contracts/coupons");

/** Where the item of an order lives in the catalogue. */
export function itemLink(o: Pick<OrderSummary, "itemType" | "itemId">): string {
  if (o.itemType === "course") return `/course/${o.itemId}`;
  if (o.itemType === "book") return `/books/${o.itemId}`;
  return `/commodity/${o.itemId}`;
}

export const ITEM_TYPE_LABELS = { course: "课程", book: "书籍", commodity: "文房" } as const;

/** The order's money, line by line (the snapshot, not today's price). */
export function OrderAmounts({ order }: { order: OrderDetail | OrderSummary }) {
  const detail = "couponTitle" in order ? order : null;
  return (
    <dl className="order-amounts">
      <div>
        <dt>单价</dt>
        <dd>{formatMoney(order.unitPriceCents)}</dd>
      </div>
      <div>
        <dt>数量</dt>
        <dd>× {order.quantity}</dd>
      </div>
      <div>
        <dt>商品总额</dt>
        <dd>{formatMoney(order.totalCents)}</dd>
      </div>
      <div>
        <dt>优惠券{detail?.couponTitle ? `（${detail.couponTitle}）` : ""}</dt>
        <dd>{order.couponDiscountCents > 0 ? `−${formatMoney(order.couponDiscountCents)}` : "未使用"}</dd>
      </div>
      {order.coinDiscountCents > 0 ? (
        <div>
          <dt>金币抵扣{detail ? `（${detail.coinsUsed} 金币）` : ""}</dt>
          <dd>−{formatMoney(order.coinDiscountCents)}</dd>
        </div>
      ) : null}
      <div className="order-amounts__pay">
        <dt>实付金额</dt>
        <dd data-testid="pay-amount">{formatMoney(order.payCents)}</dd>
      </div>
    </dl>
  );
}

/**
 * The coupon refund notice: when an order's coupon came back (cancel or refund), the learner is
 * told once — closing the dialog marks the notices seen on the server.
 */
export function CouponReturnDialog({ refreshKey = 0 }: { refreshKey?: number }) {
  const [notices, setNotices] = useState<ReturnNotice[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    browserApi("/api/coupons/return-notices", { schema: couponsContract().then((m) => m.returnNoticeListSchema) })
      .then((res) => {
        if (!live || res.items.length === 0) return;
        setNotices(res.items);
        setOpen(true);
      })
      .catch(() => {
        // A notice can wait for the next visit.
      });
    return () => {
      live = false;
    };
  }, [refreshKey]);

  function close() {
    setOpen(false);
    const couponIds = notices.map((n) => n.couponId);
    browserApi("/api/coupons/return-notices/seen", { method: "POST", body: { couponIds } }).catch(() => undefined);
  }

  return (
    <Modal open={open} onClose={close} title="优惠券已退回" className="coupon-return">
      <p>以下优惠券所在的订单已取消或退款，优惠券已退回你的卡包，有效期内可以继续使用：</p>
      <ul className="coupon-return__list">
        {notices.map((n) => (
          <li key={n.couponId}>
            <strong>{n.title}</strong>（{n.headline}）
            {n.orderNo ? <span className="coupon-return__order">来自订单 {n.orderNo}</span> : null}
            <span className="coupon-return__until">有效期至 {formatDate(n.validUntil)}</span>
          </li>
        ))}
      </ul>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={close}>
          知道了
        </button>
      </div>
    </Modal>
  );
}

/** The ordered item: cover, kind, title, SKU and unit price × quantity. */
export function OrderItemLine({ order }: { order: OrderDetail | OrderSummary }) {
  const shape = order.itemType === "course" ? "landscape" : order.itemType === "book" ? "portrait" : "square";
  const size = coverSizes[shape];
  return (
    <div className="pay-item">
      <Link to={itemLink(order)} className={`pay-item__cover pay-item__cover--${shape}`}>
        <LazyImage src={order.coverUrl} alt={`${order.title}封面`} width={size.width} height={size.height} />
      </Link>
      <div className="pay-item__text">
        <span className="pay-item__type">{ITEM_TYPE_LABELS[order.itemType]}</span>
        <Link to={itemLink(order)} className="pay-item__title">
          {order.title}
        </Link>
        {order.skuName ? <span className="pay-item__sku">规格：{order.skuName}</span> : null}
        <span className="pay-item__meta">
          {formatMoney(order.unitPriceCents)} × {order.quantity}
        </span>
      </div>
    </div>
  );
}
