/**
 * 我的订单 (/my/order?state=): the learner's orders by state tab, each with the actions its state
 * allows — 立即支付, 取消订单, 申请退款 (with the reason when it is not allowed; received goods
 * may go back in part and wait for review, which the learner can withdraw), 确认收货 — and the
 * order description pop-up with every snapshot (price, coupon, coins, amount paid, address) and
 * the timeline. Gift orders (礼物) show their gift — code, link, who claimed it — and ask for
 * their money back in the giveaway-refund dialog; group orders (拼团) show their group. A coupon
 * returned by a cancel or refund is announced once.
 */
import { type FormEvent, useEffect, useState } from "react";
import { Link, useLoaderData, useRevalidator } from "react-router-dom";
import {
  type OrderDetail,
  orderDetailSchema,
  type OrderList,
  orderListSchema,
  type OrderSummary,
  ORDER_TABS,
  type OrderTab,
  refundAmountFor,
  refundInputSchema,
  refundNeedsReview,
} from "../../../shared/contracts/orders";
import { EmptyState } from "../../components/EmptyState";
import { FormAlert } from "../../components/form/fields";
import { describeProblem, type Problem } from "../../lib/problem";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { GiftFacts } from "../../components/gifts/GiftClaimLink";
import { GiveawayRefund } from "../../components/gifts/GiveawayRefund";
import { CouponReturnDialog, OrderAmounts, OrderItemLine } from "../../components/commerce/commerce-parts";
import "../../components/commerce/commerce.css";
import { formatDateTime, formatCountdown } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";
import { useCountdown } from "../../lib/countdown";
import { useIdempotentPost } from "../../lib/idempotent-post";
import { SandboxPaymentBanner } from "../../components/commerce/payments-mode";

const TAB_KEYS = ORDER_TABS.map((t) => t.key) as string[];

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get("state") ?? "all";
  const tab = (TAB_KEYS.includes(raw) ? raw : "all") as OrderTab;
  const pageRaw = Number(url.searchParams.get("page") ?? 1);
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 && pageRaw <= 1000 ? pageRaw : 1;
  const list = await env.api(`/api/orders?state=${tab}&page=${page}`, { signal, schema: orderListSchema });
  return {
    list,
    tab,
    meta: {
      title: "我的订单",
      description: "查看课程、书籍和文房订单，继续支付、取消、退款或确认收货。",
      noindex: true,
    },
  };
}

const DONE_STATES = new Set(["completed", "cancelled", "refunded", "partially_refunded"]);

function PendingLeft({ order, serverNow }: { order: OrderSummary; serverNow: string }) {
  const left = useCountdown(order.expiresAt, serverNow);
  return left > 0 ? <span>剩余 {formatCountdown(left)}</span> : <span>即将关闭</span>;
}

type Action = { kind: "detail" | "refund" | "giftRefund" | "cancel" | "confirm"; orderNo: string };

const PURPOSE_TAGS = { gift: "礼物", group: "拼团" } as const;

function OrderCard({
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
  const refundable = gift
    ? order.state === "paid"
    : ["paid", "awaiting_shipment", "shipped", "completed", "partially_refunded"].includes(order.state);
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
          {order.couponDiscountCents > 0 ? (
            <span>已优惠 {formatMoney(order.couponDiscountCents)}</span>
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

function DetailBody({ order, onWithdraw, busy }: { order: OrderDetail; onWithdraw: () => void; busy: boolean }) {
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

/**
 * What a refund gives back: the whole rest, or — for received goods of several pieces — the
 * pieces chosen; and whether it waits for review (goods with the learner) or is paid back at once.
 */
function RefundAmount({
  order,
  pieces,
  onPieces,
}: {
  order: OrderDetail;
  pieces: number | null;
  onPieces: (n: number) => void;
}) {
  const left = order.refundableQuantity;
  const partial = order.physical && left > 1 && (order.state === "completed" || order.state === "partially_refunded");
  const chosen = pieces ?? left;
  const amount = refundAmountFor(order, chosen, left);
  return (
    <>
      <p className="refund-rule">
        {order.refund.reason}。退款金额 <strong>{formatMoney(amount)}</strong>，原路退回。
        {refundNeedsReview(order) ? "退货需客服审核，审核通过后退款。" : ""}
      </p>
      {partial ? (
        <div className="form-field">
          <label className="form-field__label" htmlFor="refund-pieces">
            退货数量
          </label>
          <select
            id="refund-pieces"
            className="form-field__control"
            value={chosen}
            onChange={(e) => onPieces(Number(e.target.value))}
          >
            {Array.from({ length: left }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n} 件{n === left ? "（全部）" : ""}
              </option>
            ))}
          </select>
          <p className="form-field__meta">部分退货时优惠券和金币不退回，全部退完时一并退回。</p>
        </div>
      ) : null}
    </>
  );
}

/** The pop-up for one order: its details, or the refund request, or a confirmation. */
function OrderDialog({
  action,
  onClose,
  onChanged,
}: {
  action: Action | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [detail, setDetail] = useState<OrderDetail | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [pieces, setPieces] = useState<number | null>(null);
  const post = useIdempotentPost();

  const key = action ? `${action.kind}:${action.orderNo}` : null;
  if (key !== loadedFor) {
    setLoadedFor(key);
    setDetail(null);
    setProblem(null);
    setReason("");
    setReasonError(null);
    setPieces(null);
  }
  const needsDetail =
    action !== null && (action.kind === "detail" || action.kind === "refund" || action.kind === "giftRefund");
  const orderNo = action?.orderNo ?? null;
  useEffect(() => {
    if (!needsDetail || !orderNo) return;
    let live = true;
    browserApi(`/api/orders/${orderNo}`, { schema: orderDetailSchema })
      .then((d) => {
        if (live) setDetail(d);
      })
      .catch((err: unknown) => {
        if (live) setProblem(describeProblem(err));
      });
    return () => {
      live = false;
    };
  }, [needsDetail, orderNo]);

  async function act(path: string, body?: unknown) {
    setBusy(true);
    setProblem(null);
    try {
      await post(path, body ?? {}, orderDetailSchema);
      onChanged();
      onClose();
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setBusy(false);
    }
  }

  function submitRefund(event: FormEvent) {
    event.preventDefault();
    const parsed = refundInputSchema.safeParse(pieces === null ? { reason } : { reason, quantity: pieces });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? "请填写退款原因");
      return;
    }
    setReasonError(null);
    if (action) void act(`/api/orders/${action.orderNo}/refund`, parsed.data);
  }

  const titles = {
    detail: "订单详情",
    refund: "申请退款",
    giftRefund: "礼物退款",
    cancel: "取消订单",
    confirm: "确认收货",
  } as const;
  return (
    <Modal open={action !== null} onClose={onClose} title={action ? titles[action.kind] : ""} className="order-dialog">
      {action?.kind === "detail" ? (
        detail ? (
          <DetailBody
            order={detail}
            busy={busy}
            onWithdraw={() => void act(`/api/orders/${detail.orderNo}/refund/withdraw`)}
          />
        ) : problem ? null : (
          <p role="status">正在加载订单详情…</p>
        )
      ) : null}
      {action?.kind === "refund" ? (
        detail ? (
          detail.refund.allowed ? (
            <form className="refund-form" onSubmit={submitRefund} noValidate>
              <RefundAmount order={detail} pieces={pieces} onPieces={setPieces} />
              <div className="form-field">
                <label className="form-field__label" htmlFor="refund-reason">
                  退款原因
                </label>
                <textarea
                  id="refund-reason"
                  className="form-field__control"
                  value={reason}
                  maxLength={200}
                  placeholder="请简单说明退款原因（2–200 字）"
                  aria-invalid={reasonError ? true : undefined}
                  aria-describedby={reasonError ? "refund-reason-error" : undefined}
                  onChange={(e) => setReason(e.target.value)}
                />
                {reasonError ? (
                  <p className="form-field__error" id="refund-reason-error">
                    {reasonError}
                  </p>
                ) : null}
              </div>
              <FormAlert problem={problem} />
              <div className="form__actions">
                <button type="button" className="button" onClick={onClose}>
                  再想想
                </button>
                <button type="submit" className="button button--primary" disabled={busy}>
                  {busy ? "正在提交…" : refundNeedsReview(detail) ? "提交退货申请" : "确认退款"}
                </button>
              </div>
            </form>
          ) : (
            <>
              <p className="refund-rule" role="alert">
                暂不能申请退款：{detail.refund.reason}。
              </p>
              <p>
                如有疑问请 <Link to="/protocol/contact">联系客服</Link>。
              </p>
            </>
          )
        ) : problem ? null : (
          <p role="status">正在查询退款规则…</p>
        )
      ) : null}
      {action?.kind === "giftRefund" ? (
        detail?.gift ? (
          <GiveawayRefund
            order={detail}
            gift={detail.gift}
            busy={busy}
            problem={problem}
            onSubmit={(path) => void act(path)}
            onCancel={onClose}
          />
        ) : problem ? null : (
          <p role="status">正在查询礼物状态…</p>
        )
      ) : null}
      {action?.kind === "cancel" || action?.kind === "confirm" ? (
        <>
          <p>
            {action.kind === "cancel"
              ? "确定取消这笔订单吗？取消后库存释放，使用的优惠券会退回卡包。"
              : "确认已经收到商品了吗？确认后订单完成。"}
          </p>
          <FormAlert problem={problem} />
          <div className="form__actions">
            <button type="button" className="button" onClick={onClose}>
              再想想
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void act(`/api/orders/${action.orderNo}/${action.kind}`)}
            >
              {busy ? "正在提交…" : action.kind === "cancel" ? "确认取消" : "确认收货"}
            </button>
          </div>
        </>
      ) : null}
      {action?.kind === "detail" || ((action?.kind === "refund" || action?.kind === "giftRefund") && !detail) ? (
        <FormAlert problem={problem} />
      ) : null}
    </Modal>
  );
}

export default function OrderPage() {
  const { list, tab } = useLoaderData() as { list: OrderList; tab: OrderTab };
  const revalidator = useRevalidator();
  const [action, setAction] = useState<Action | null>(null);
  const [changes, setChanges] = useState(0);
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const current = ORDER_TABS.find((t) => t.key === tab) ?? ORDER_TABS[0];

  return (
    <Page title="我的订单">
      <SandboxPaymentBanner />
      <ul className="state-tabs" aria-label="订单状态">
        {ORDER_TABS.map((t) => (
          <li key={t.key}>
            <Link to={`/my/order?state=${t.key}`} aria-current={t.key === tab ? "page" : undefined}>
              {t.label}
              <span className="state-tabs__count">{list.counts[t.key] ?? 0}</span>
            </Link>
          </li>
        ))}
      </ul>
      {revalidator.state === "loading" ? (
        <p className="visually-hidden" role="status">
          正在刷新订单…
        </p>
      ) : null}
      {list.items.length === 0 ? (
        <EmptyState
          glyph="单"
          title={tab === "all" ? "还没有订单" : `没有${current.label}的订单`}
          action={
            <Link className="button button--primary" to="/product/list">
              去选课程
            </Link>
          }
        >
          <p>课程、书籍和文房用品的订单都会出现在这里。</p>
        </EmptyState>
      ) : (
        <ol className="order-list">
          {list.items.map((o) => (
            <OrderCard key={o.orderNo} order={o} serverNow={list.serverNow} onAction={setAction} />
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav className="order-pager" aria-label="分页">
          {list.page > 1 ? <Link to={`/my/order?state=${tab}&page=${list.page - 1}`}>上一页</Link> : null}
          <span>
            第 {list.page} / {pages} 页
          </span>
          {list.page < pages ? <Link to={`/my/order?state=${tab}&page=${list.page + 1}`}>下一页</Link> : null}
        </nav>
      ) : null}
      <OrderDialog
        action={action}
        onClose={() => setAction(null)}
        onChanged={() => {
          revalidator.revalidate();
          setChanges((c) => c + 1);
        }}
      />
      <CouponReturnDialog refreshKey={changes} />
    </Page>
  );
}
