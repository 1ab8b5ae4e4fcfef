/**
 * An order as the payment pages, the orders page and the pack show it: the item's link and kind,
 * its amounts and the ordered item line.
 */
import type { OrderDetail, OrderSummary } from "../../../shared/contracts/orders";
import { coverSizes } from "../../../shared/media";
import { formatMoney } from "../../../shared/money";
import { Link } from "../../routing/link";
import { LazyImage } from "../../lib/lazy-image";

/** Where the item of an order lives in the catalogue. */
export function itemLink(o: Pick<OrderSummary, "itemType" | "itemId">): string {
  if (o.itemType === "course") return `/course/${o.itemId}`;
  if (o.itemType === "book") return `/books/${o.itemId}`;
  return `/commodity/${o.itemId}`;
}

const ITEM_TYPE_LABELS = { course: "课程", book: "书籍", commodity: "文房" } as const;

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
