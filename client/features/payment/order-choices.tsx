/**
 * What an unpaid order lets the learner change before paying (its coupon, coins as a deduction),
 * and what a closed order says.
 */
import { useRef } from "react";
import { useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import type { BestCoupon } from "../../../shared/contracts/coupons";
import { GIFT_CLAIM_DAYS } from "../../../shared/contracts/gifts";
import { type OrderDetail, orderDetailSchema, REFUND_DAYS } from "../../../shared/contracts/orders";
import { COIN_CENTS, COIN_DEDUCTION_MAX_PERCENT } from "../../../shared/currency";
import { FormAlert } from "../../components/form/FormAlert";
import { EmptyState } from "../../components/EmptyState";
import { itemLink } from "../../components/commerce/order-lines";
import "../../components/commerce/commerce.css";
import { formatDateTime } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";
import { type IdempotencyKeyHolder, postIdempotent } from "../../lib/idempotent-post";
import { useMutation } from "../../lib/mutation";

export function Closed({ order }: { order: OrderDetail }) {
  if (order.state === "cancelled") {
    return (
      <EmptyState
        glyph="止"
        title="订单已取消"
        action={
          <Link className="button button--primary" to={itemLink(order)}>
            重新购买
          </Link>
        }
      >
        <p>
          {order.cancelReason ?? "订单已关闭"}
          {order.cancelledAt ? `（${formatDateTime(order.cancelledAt)}）` : ""}。如已使用优惠券，优惠券已退回卡包。
        </p>
      </EmptyState>
    );
  }
  return (
    <EmptyState
      glyph="成"
      title="订单已支付"
      action={
        <Link className="button button--primary" to={`/payment/success?order=${order.orderNo}`}>
          查看支付结果
        </Link>
      }
    >
      <p>这笔订单{order.stateLabel === "已支付" ? "已支付" : `当前状态：${order.stateLabel}`}，无需再次付款。</p>
    </EmptyState>
  );
}

export function refundHint(order: OrderDetail): string {
  if (order.purpose === "gift") return `礼物 ${GIFT_CLAIM_DAYS} 天内未被领取可申请退款。`;
  if (order.purpose === "group") return "未能按时成团会自动全额退款。";
  return order.physical
    ? `发货前可全额退款，确认收货后 ${REFUND_DAYS} 天内可退货。`
    : `课程购买后 ${REFUND_DAYS} 天内未学习可全额退款。`;
}

/**
 * A change to the unpaid order (coupon, coins): posted once per click, then the page reloads its
 * data. The key handling is imported here rather than loaded with the first click (useMutation's
 * `idempotent`): the payment page posts at once, so it is in its first load (decision 057).
 */
function useOrderChange(orderNo: string, what: "coupon" | "coins") {
  const revalidator = useRevalidator();
  const keyHolder = useRef<IdempotencyKeyHolder["current"]>(null);
  const { busy, problem, run } = useMutation();
  const change = (body: Record<string, unknown>) =>
    run(() => postIdempotent(keyHolder, `/api/orders/${orderNo}/${what}`, body, orderDetailSchema), {
      onSuccess: () => void revalidator.revalidate(),
    });
  return { busy, problem, change };
}

/** The coupon of an unpaid order: keep, change (the best one is suggested) or remove. */
export function CouponChoice({ order, coupons }: { order: OrderDetail; coupons: BestCoupon | null }) {
  const { busy, problem, change } = useOrderChange(order.orderNo, "coupon");
  const options = coupons?.applicable ?? [];
  if (order.couponTitle === null && options.length === 0) {
    return <p className="checkout-coupon pay-card__hint">暂无可用于此订单的优惠券。</p>;
  }
  const choose = (value: string) => change({ couponId: value === "" ? null : Number(value) });

  return (
    <div className="checkout-coupon form-field">
      <label className="form-field__label" htmlFor="order-coupon">
        优惠券
      </label>
      <select
        id="order-coupon"
        className="form-field__control"
        value={order.couponDiscountCents > 0 ? "current" : ""}
        disabled={busy}
        onChange={(e) => {
          if (e.target.value !== "current") void choose(e.target.value);
        }}
      >
        {order.couponTitle ? (
          <option value="current">
            {order.couponTitle}（已减 {formatMoney(order.couponDiscountCents)}）
          </option>
        ) : null}
        <option value="">不使用优惠券</option>
        {options.map((a) => (
          <option key={a.coupon.id} value={String(a.coupon.id)}>
            {a.coupon.title}（{a.coupon.headline}，可减 {formatMoney(a.discountCents)}）
            {coupons?.best?.coupon.id === a.coupon.id ? " · 推荐" : ""}
          </option>
        ))}
      </select>
      {coupons?.best && order.couponDiscountCents < coupons.best.discountCents ? (
        <p className="form-field__meta">
          推荐使用“{coupons.best.coupon.title}”，可减 {formatMoney(coupons.best.discountCents)}。
        </p>
      ) : null}
      <FormAlert problem={problem} />
    </div>
  );
}

/** Coins as a deduction (100 金币 = 1 元, up to 30 % of the price): a switch that puts them on the order or takes them off. */
export function CoinChoice({ order }: { order: OrderDetail }) {
  const { busy, problem, change } = useOrderChange(order.orderNo, "coins");
  const offer = order.coinOffer;
  if (!offer) return null;
  const using = order.coinsUsed > 0;
  const rule = `${100 / COIN_CENTS} 金币抵 1 元，最多抵订单金额的 ${COIN_DEDUCTION_MAX_PERCENT}%`;
  if (!using && offer.maxCoins === 0) {
    return (
      <p className="checkout-coins pay-card__hint">
        金币余额 {offer.balance}（{rule}），{offer.balance > 0 ? "这笔订单暂不能抵扣。" : "学习、签到可以赚金币。"}
      </p>
    );
  }

  return (
    <div className="checkout-coins">
      <label className="checkout-coins__switch">
        <input
          type="checkbox"
          checked={using}
          disabled={busy}
          onChange={(e) => void change({ use: e.target.checked })}
        />
        {using
          ? `已用 ${order.coinsUsed} 金币抵扣 ${formatMoney(order.coinDiscountCents)}`
          : `使用 ${offer.maxCoins} 金币抵扣 ${formatMoney(offer.discountCents)}`}
      </label>
      <p className="form-field__meta">
        金币余额 {offer.balance}（{rule}；取消订单或退款时金币退回）
      </p>
      <FormAlert problem={problem} />
    </div>
  );
}
