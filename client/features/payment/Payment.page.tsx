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
import { GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";
import { ORDER_PAY_MINUTES, type OrderDetail } from "../../../shared/contracts/orders";
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
import { noUsableMethodHint, type PayBrowser, payBrowserOf, payMethodBlocked } from "../../../shared/pay-browser";
import { Closed, refundHint, CouponChoice, CoinChoice } from "./order-choices";

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
      <OrderSummaryCard order={order} coupons={coupons} />

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
          <PayMethodList offered={offered} method={method} onChange={setMethod} />
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

/** The order being paid: number, item, address, coupon, coins and amounts. */
function OrderSummaryCard({ order, coupons }: { order: OrderDetail; coupons: BestCoupon | null }) {
  return (
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
  );
}

type OfferedMethod = PayMethods["methods"][number] & { blocked: string | null };

/** The payment methods as radio buttons; one this browser cannot use is off, with the reason. */
function PayMethodList({
  offered,
  method,
  onChange,
}: {
  offered: OfferedMethod[];
  method: PayMethod | null;
  onChange: (method: PayMethod) => void;
}) {
  return (
    <div className="pay-methods" role="radiogroup" aria-label="支付方式">
      {offered.map((m) => (
        <div key={m.method} className="pay-method-option">
          <label className={`pay-method${method === m.method ? " is-selected" : ""}${m.blocked ? " is-blocked" : ""}`}>
            <input
              type="radio"
              name="method"
              value={m.method}
              checked={method === m.method}
              disabled={m.blocked !== null}
              aria-describedby={m.blocked ? `pay-blocked-${m.method}` : undefined}
              onChange={() => onChange(m.method)}
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
  );
}
