/**
 * 支付订单 (/payment?order=): the order's summary as snapshotted (item, SKU, quantity, price,
 * coupon, coins, amount to pay), the time left on the server's clock, the payment method, and the pay
 * button that sends the payer to the provider (the hosted sandbox checkout by default). An order
 * that is paid, cancelled or past its time says so instead. A method that cannot work in the payer's
 * browser (Alipay inside WeChat, the WeChat Pay QR code on the phone that would scan it) is shown
 * switched off with the reason, read from the User-Agent on the server (shared/pay-browser.ts).
 */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import type { BestCoupon } from "../../../shared/contracts/coupons";
import { GIFT_CLAIM_DAYS } from "../../../shared/contracts/gifts";
import { GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";
import { ORDER_PAY_MINUTES, type OrderDetail, orderDetailSchema, REFUND_DAYS } from "../../../shared/contracts/orders";
import { COIN_CENTS, COIN_DEDUCTION_MAX_PERCENT } from "../../../shared/currency";
import type { PayMethod, PayMethods, StartPaymentResult } from "../../../shared/contracts/payments";
import { describeProblem, type Problem } from "../../lib/problem";
import { FormAlert } from "../../components/form/FormAlert";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { itemLink, OrderAmounts, OrderItemLine } from "../../components/commerce/order-lines";
import { SandboxPaymentBanner, useBuyingOff } from "../../components/commerce/payments-mode";
import "../../components/commerce/commerce.css";
import { formatDateTime, formatCountdown } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";
import { useCountdown } from "../../lib/countdown";
import { useIdempotentPost } from "../../lib/idempotent-post";
import { noUsableMethodHint, type PayBrowser, payBrowserOf, payMethodBlocked } from "../../../shared/pay-browser";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const couponsContract = () => import("../../../shared/contracts/coupons");
const ordersContract = () => import("../../../shared/contracts/orders");
const paymentsContract = () => import("../../../shared/contracts/payments");

const ORDER_NO = /^M\d{20}$/;

type Loaded = {
  order: OrderDetail | null;
  methods: PayMethods;
  coupons: BestCoupon | null;
  result: string | null;
  browser: PayBrowser;
};

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const url = new URL(request.url);
  const orderNo = url.searchParams.get("order") ?? "";
  const result = url.searchParams.get("result");
  const browser = payBrowserOf(env.userAgent);
  const meta = { title: "支付订单", description: "核对订单金额，选择支付方式并完成付款。", noindex: true };
  if (!ORDER_NO.test(orderNo)) {
    return { order: null, methods: { methods: [] }, coupons: null, result, browser, meta } satisfies Loaded & {
      meta: unknown;
    };
  }
  const [order, methods] = await Promise.all([
    env.api(`/api/orders/${orderNo}`, { signal, schema: ordersContract().then((m) => m.orderDetailSchema) }),
    env.api("/api/payments/methods", { signal, schema: paymentsContract().then((m) => m.payMethodsSchema) }),
  ]);
  let coupons: BestCoupon | null = null;
  if (order.state === "pending") {
    const q = new URLSearchParams({
      itemType: order.itemType,
      itemId: String(order.itemId),
      quantity: String(order.quantity),
    });
    if (order.skuId !== null) q.set("skuId", String(order.skuId));
    coupons = await env.api(`/api/coupons/best?${q.toString()}`, {
      signal,
      schema: couponsContract().then((m) => m.bestCouponSchema),
    });
  }
  return {
    order,
    methods,
    coupons,
    result,
    browser,
    meta: { ...meta, title: `支付订单 ${order.orderNo}` },
  } satisfies Loaded & { meta: unknown };
}

function Closed({ order }: { order: OrderDetail }) {
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

function refundHint(order: OrderDetail): string {
  if (order.purpose === "gift") return `礼物 ${GIFT_CLAIM_DAYS} 天内未被领取可申请退款。`;
  if (order.purpose === "group") return "未能按时成团会自动全额退款。";
  return order.physical
    ? `发货前可全额退款，确认收货后 ${REFUND_DAYS} 天内可退货。`
    : `课程购买后 ${REFUND_DAYS} 天内未学习可全额退款。`;
}

/** A change to the unpaid order (coupon, coins): posted once per click, then the page reloads its data. */
function useOrderChange(orderNo: string, what: "coupon" | "coins") {
  const revalidator = useRevalidator();
  const post = useIdempotentPost();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  async function change(body: Record<string, unknown>) {
    setBusy(true);
    setProblem(null);
    try {
      await post(`/api/orders/${orderNo}/${what}`, body, orderDetailSchema);
      revalidator.revalidate();
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, problem, change };
}

/** The coupon of an unpaid order: keep, change (the best one is suggested) or remove. */
function CouponChoice({ order, coupons }: { order: OrderDetail; coupons: BestCoupon | null }) {
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
function CoinChoice({ order }: { order: OrderDetail }) {
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

function Checkout({
  order,
  methods,
  coupons,
  result,
  browser,
}: {
  order: OrderDetail;
  methods: PayMethods;
  coupons: BestCoupon | null;
  result: string | null;
  browser: PayBrowser;
}) {
  const off = useBuyingOff();
  const left = useCountdown(order.expiresAt, order.serverNow);
  const offered = methods.methods.map((m) => ({ ...m, blocked: payMethodBlocked(m.method, browser) }));
  const usable = offered.filter((m) => m.blocked === null);
  const [method, setMethod] = useState<PayMethod | null>(usable[0]?.method ?? null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [qr, setQr] = useState<StartPaymentResult | null>(null);
  const expired = left <= 0;

  async function pay() {
    if (!method) return;
    setBusy(true);
    setProblem(null);
    try {
      const started = await browserApi(`/api/payments/${order.orderNo}/start`, {
        method: "POST",
        body: { method },
        schema: paymentsContract().then((m) => m.startPaymentResultSchema),
      });
      if (started.redirectUrl) {
        window.location.assign(started.redirectUrl);
        return;
      }
      setQr(started);
      setBusy(false);
    } catch (err) {
      setProblem(describeProblem(err));
      setBusy(false);
    }
  }

  return (
    <div className="pay-layout">
      <section className="card pay-card" aria-labelledby="pay-summary">
        <h2 id="pay-summary" className="pay-card__title">
          订单信息
        </h2>
        <p className="pay-card__no">
          订单号 {order.orderNo} · 下单时间 {formatDateTime(order.createdAt)}
        </p>
        <OrderItemLine order={order} />
        {order.address ? (
          <p className="pay-address">
            寄往：{order.address.recipient}，{order.address.phone}，{order.address.region} {order.address.detail}
          </p>
        ) : null}
        <CouponChoice order={order} coupons={coupons} />
        <CoinChoice order={order} />
        <OrderAmounts order={order} />
      </section>

      <section className="card pay-card pay-card--side" aria-labelledby="pay-method">
        <div className={`pay-countdown${expired ? " pay-countdown--over" : ""}`} role="timer" aria-live="off">
          {expired ? (
            <span>订单已超过支付时限</span>
          ) : (
            <>
              <span>剩余支付时间</span>
              <strong data-testid="pay-countdown">{formatCountdown(left)}</strong>
            </>
          )}
        </div>
        {result === "declined" ? (
          <p className="login-alert" role="alert">
            你已取消付款，订单仍然保留，可以重新支付。
          </p>
        ) : null}
        {result === "failed" ? (
          <p className="login-alert" role="alert">
            支付没有成功（余额不足），请换一种方式或稍后重试。
          </p>
        ) : null}
        <h2 id="pay-method" className="pay-card__title">
          支付方式
        </h2>
        {off ? (
          <p className="pay-card__hint" data-testid="buying-off">
            {off}，暂时无法付款。
          </p>
        ) : methods.methods.length === 0 ? (
          <p className="pay-card__hint">暂时没有可用的支付方式，请稍后再试或联系客服。</p>
        ) : (
          <div className="pay-methods" role="radiogroup" aria-label="支付方式">
            {offered.map((m) => (
              <div key={m.method} className="pay-method-option">
                <label
                  className={`pay-method${method === m.method ? " is-selected" : ""}${m.blocked ? " is-blocked" : ""}`}
                >
                  <input
                    type="radio"
                    name="method"
                    value={m.method}
                    checked={method === m.method}
                    disabled={m.blocked !== null}
                    aria-describedby={m.blocked ? `pay-blocked-${m.method}` : undefined}
                    onChange={() => setMethod(m.method)}
                  />
                  <span className={`pay-method__icon pay-method__icon--${m.method}`} aria-hidden="true">
                    {m.method === "wechat" ? "微" : m.method === "alipay" ? "支" : "测"}
                  </span>
                  {m.label}
                </label>
                {m.blocked ? (
                  <p id={`pay-blocked-${m.method}`} className="pay-method__blocked" data-testid="pay-blocked">
                    {m.blocked}
                  </p>
                ) : null}
              </div>
            ))}
          </div>
        )}
        {!off && offered.length > 0 && usable.length === 0 ? (
          <p className="pay-card__hint pay-browser-hint" role="note" data-testid="pay-browser-hint">
            {noUsableMethodHint(browser)}
          </p>
        ) : null}
        <FormAlert problem={problem} />
        {expired ? (
          <Link className="button button--primary pay-submit" to={itemLink(order)}>
            重新下单
          </Link>
        ) : offered.length > 0 && usable.length === 0 ? null : (
          <button
            type="button"
            className="button button--primary pay-submit"
            disabled={busy || !method || !!off}
            onClick={pay}
          >
            {busy ? "正在前往收银台…" : `立即支付 ${formatMoney(order.payCents)}`}
          </button>
        )}
        {qr?.qrSvg ? (
          <div className="pay-qr">
            {/* SVG markup made on our server by the qrcode library from the gateway's code URL. */}
            <div className="pay-qr__code" dangerouslySetInnerHTML={{ __html: qr.qrSvg }} />
            <p>请用微信扫一扫完成付款，付款后前往“支付结果”查看。</p>
            <Link className="button" to={`/payment/success?order=${order.orderNo}`}>
              我已付款
            </Link>
          </div>
        ) : null}
        <p className="pay-card__hint">
          未支付的订单保留 {order.purpose === "group" ? GROUP_PAY_MINUTES : ORDER_PAY_MINUTES}{" "}
          分钟，超时自动取消，库存、优惠券和金币会退回。{refundHint(order)}
        </p>
      </section>
    </div>
  );
}

export default function PaymentPage() {
  const { order, methods, coupons, result, browser } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  if (!order) {
    return (
      <Page className="pay-page">
        <EmptyState
          glyph="付"
          title="没有要支付的订单"
          action={
            <Link className="button button--primary" to="/my/order?state=pending">
              查看待支付订单
            </Link>
          }
        >
          <p>支付链接缺少订单号或订单号不正确。请从“我的订单”中找到要支付的订单。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page
      className="pay-page"
      actions={
        <button type="button" className="button" onClick={() => revalidator.revalidate()}>
          {revalidator.state === "loading" ? "刷新中…" : "刷新订单状态"}
        </button>
      }
    >
      <SandboxPaymentBanner />
      {order.state === "pending" ? (
        <Checkout order={order} methods={methods} coupons={coupons} result={result} browser={browser} />
      ) : (
        <Closed order={order} />
      )}
    </Page>
  );
}
