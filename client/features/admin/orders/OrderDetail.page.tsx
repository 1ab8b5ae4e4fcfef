/**
 * 订单详情 (/admin/orders/detail?no=M…): one order as the operator sees it — the learner, the
 * amounts and address, the timeline the learner sees too, payments and refunds — and what can be
 * done with it now (ship, review a return, retry a refused refund, refund by hand).
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { adminOrderDetailSchema } from "../../../../shared/contracts/admin-orders";
import { AppError, NOT_FOUND_MESSAGE } from "../../../../shared/errors";
import { formatDateTime } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { DeskBusy, LoadFailed, loaded } from "../desk-parts";
import { OrderActions } from "./order-actions";
import "../desk.css";

const ORDER_NO = /^M\d{20}$/;

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const no = new URL(request.url).searchParams.get("no") ?? "";
  if (!ORDER_NO.test(no)) throw new AppError(404, NOT_FOUND_MESSAGE);
  const detail = await loaded(env.api(`/api/admin/orders/${no}`, { signal, schema: adminOrderDetailSchema }));
  return { no, detail, meta: { title: `订单 ${no}`, noindex: true } };
}

const PROVIDERS: Record<string, string> = { sandbox: "测试支付", wechat: "微信支付", alipay: "支付宝" };
const PAYMENT_OUTCOMES: Record<string, string> = {
  credited: "已入账",
  refunded_late: "订单已关闭，已自动退回",
  ignored: "已忽略",
};

export default function OrderDetailPage() {
  const { no, detail } = useLoaderData<typeof loader>();
  if (!detail.ok)
    return (
      <Page title={`订单 ${no}`}>
        <LoadFailed problem={detail.problem} what="订单" />
      </Page>
    );
  const { order, learner, payments, refunds } = detail.data;
  const paid = order.payCents - order.refundedCents;
  return (
    <Page
      title={`订单 ${no}`}
      lead={
        <>
          <span className="desk-state" data-state={order.state}>
            {order.stateLabel}
          </span>
          {" · "}
          下单于 {formatDateTime(order.createdAt)}
        </>
      }
      actions={
        <>
          <Link to="/admin/orders">返回订单列表</Link>
          <Link to={`/admin/audit?targetType=order&targetId=${no}`}>操作记录</Link>
        </>
      }
    >
      <DeskBusy className="desk-detail">
        <section className="card desk-card" aria-labelledby="order-summary">
          <h2 id="order-summary" className="desk-card__title">
            商品与金额
          </h2>
          <dl className="desk-facts">
            <dt>商品</dt>
            <dd>
              {order.title}
              {order.skuName ? ` · ${order.skuName}` : ""} × {order.quantity}
            </dd>
            <dt>学员</dt>
            <dd>
              <Link to={`/admin/users/${learner.id}`}>{learner.nickname}</Link>
              {learner.phone ? ` · ${learner.phone}` : ""}
              {learner.email ? ` · ${learner.email}` : ""}
              {learner.status !== "active" ? <span className="desk-flag">账号已停用</span> : null}
            </dd>
            <dt>金额</dt>
            <dd>
              总价 {formatMoney(order.totalCents)}
              {order.couponDiscountCents ? ` − 优惠券 ${formatMoney(order.couponDiscountCents)}` : ""}
              {order.coinDiscountCents ? ` − 金币 ${formatMoney(order.coinDiscountCents)}` : ""} ＝ 实付{" "}
              <strong>{formatMoney(order.payCents)}</strong>
              {order.refundedCents ? `（已退 ${formatMoney(order.refundedCents)}，余 ${formatMoney(paid)}）` : ""}
            </dd>
            {order.address ? (
              <>
                <dt>收货地址</dt>
                <dd>
                  {order.address.recipient} {order.address.phone} · {order.address.region} {order.address.detail}
                </dd>
              </>
            ) : null}
            {order.carrier ? (
              <>
                <dt>物流</dt>
                <dd>
                  {order.carrier} {order.trackingNo}
                </dd>
              </>
            ) : null}
            {order.cancelReason ? (
              <>
                <dt>取消原因</dt>
                <dd>{order.cancelReason}</dd>
              </>
            ) : null}
          </dl>
        </section>

        <section className="card desk-card" aria-labelledby="order-actions">
          <h2 id="order-actions" className="desk-card__title">
            操作
          </h2>
          <OrderActions detail={detail.data} />
        </section>

        <section className="card desk-card" aria-labelledby="order-timeline">
          <h2 id="order-timeline" className="desk-card__title">
            时间线
          </h2>
          <ol className="desk-timeline">
            {order.timeline.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                <span className="desk-timeline__label">{e.label}</span>
                {e.detail ? <span className="desk-muted">{e.detail}</span> : null}
              </li>
            ))}
          </ol>
        </section>

        <section className="card desk-card" aria-labelledby="order-payments">
          <h2 id="order-payments" className="desk-card__title">
            支付记录
          </h2>
          {payments.length === 0 ? (
            <p className="desk-muted">还没有收到付款。</p>
          ) : (
            <table className="desk-table">
              <thead>
                <tr>
                  <th scope="col">时间</th>
                  <th scope="col">渠道</th>
                  <th scope="col">交易号</th>
                  <th scope="col">金额</th>
                  <th scope="col">结果</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.txnId}>
                    <td>{formatDateTime(p.receivedAt)}</td>
                    <td>{PROVIDERS[p.provider] ?? p.provider}</td>
                    <td>
                      <code>{p.txnId}</code>
                    </td>
                    <td>{formatMoney(p.amountCents)}</td>
                    <td>{PAYMENT_OUTCOMES[p.outcome] ?? p.outcome}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section className="card desk-card" aria-labelledby="order-refunds">
          <h2 id="order-refunds" className="desk-card__title">
            退款记录
          </h2>
          {refunds.length === 0 ? (
            <p className="desk-muted">没有退款。</p>
          ) : (
            <table className="desk-table">
              <thead>
                <tr>
                  <th scope="col">申请时间</th>
                  <th scope="col">状态</th>
                  <th scope="col">金额</th>
                  <th scope="col">件数</th>
                  <th scope="col">原因</th>
                  <th scope="col">审核</th>
                </tr>
              </thead>
              <tbody>
                {refunds.map((r) => (
                  <tr key={r.id} data-refund-state={r.state}>
                    <td>{formatDateTime(r.createdAt)}</td>
                    <td>{r.stateLabel}</td>
                    <td>{formatMoney(r.amountCents)}</td>
                    <td>{r.quantity ?? "整单"}</td>
                    <td>{r.reason}</td>
                    <td>
                      {r.reviewedBy ?? "—"}
                      {r.reviewNote ? `：${r.reviewNote}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </DeskBusy>
    </Page>
  );
}
