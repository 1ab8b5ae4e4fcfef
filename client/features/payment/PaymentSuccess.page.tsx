/**
 * 支付结果 (/payment/success?order=): the gateway sends the payer here while its notification
 * may still be on its way, so the page says 处理中 and asks for the order every 1.5 s until it is
 * credited (with a message after 60 s: two runs of the order job, which settles approvals whose
 * notification was lost), and says 支付成功 only then; then it shows what was unlocked and what comes next: for a gift, the claim
 * link and code to send; for a group-buy seat, how far the group is and its page.
 */
import { useEffect, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import type { GiftInfo } from "../../../shared/contracts/gifts";
import type { GroupInfo } from "../../../shared/contracts/groups";
import type { OrderDetail } from "../../../shared/contracts/orders";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { GiftClaimLink } from "../../components/gifts/GiftClaimLink";
import { OrderAmounts, OrderItemLine } from "../../components/commerce/order-lines";
import "../../components/commerce/commerce.css";
import { formatDateTime } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const ordersContract = () => import("../../../shared/contracts/orders");

const ORDER_NO = /^M\d{20}$/;
const POLL_MS = 1500;
const GIVE_UP_MS = 60_000;

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const orderNo = new URL(request.url).searchParams.get("order") ?? "";
  const meta = { title: "支付结果", description: "查看订单的支付结果和下一步。", noindex: true };
  if (!ORDER_NO.test(orderNo)) return { order: null, meta };
  const order = await env.api(`/api/orders/${orderNo}`, {
    signal,
    schema: ordersContract().then((m) => m.orderDetailSchema),
  });
  return { order, meta };
}

/** Asks for the order until it leaves 待支付 (or time runs out). */
function useSettledOrder(initial: OrderDetail) {
  const [order, setOrder] = useState(initial);
  const [gaveUp, setGaveUp] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (order.state !== "pending") return;
    let live = true;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    const poll = () => {
      browserApi(`/api/orders/${order.orderNo}`, { schema: ordersContract().then((m) => m.orderDetailSchema) })
        .then((next) => {
          if (!live) return;
          if (next.state !== "pending") setOrder(next);
          else if (Date.now() - started > GIVE_UP_MS) setGaveUp(true);
          else timer = setTimeout(poll, POLL_MS);
        })
        .catch(() => {
          if (live) timer = setTimeout(poll, POLL_MS * 2);
        });
    };
    timer = setTimeout(poll, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [order.orderNo, order.state, attempt]);
  return {
    order,
    gaveUp,
    retry: () => {
      setGaveUp(false);
      setAttempt((a) => a + 1);
    },
  };
}

function GiftNextSteps({ order, gift }: { order: OrderDetail; gift: GiftInfo }) {
  return (
    <div className="pay-result__next">
      {gift.state === "unclaimed" ? (
        <>
          <p>礼物已备好：把领取链接发给好友，好友登录后打开链接即可领取，课程归好友所有。</p>
          <GiftClaimLink gift={gift} />
        </>
      ) : (
        <p>
          礼物状态：<strong>{gift.stateLabel}</strong>
          {gift.claimedBy ? `（${gift.claimedBy} 已领取）` : ""}。
        </p>
      )}
      <div className="pay-result__actions">
        <Link className="button button--primary" to="/my/order">
          查看我的订单
        </Link>
        <Link className="button" to={`/course/${order.itemId}`}>
          返回课程
        </Link>
      </div>
    </div>
  );
}

function GroupNextSteps({ order, group }: { order: OrderDetail; group: GroupInfo }) {
  const complete = group.state === "complete";
  return (
    <div className="pay-result__next">
      <p>
        拼团状态：<strong>{group.stateLabel}</strong>，已付款 {group.paidCount}/{group.groupSize} 人。
        {complete
          ? "已成团，课程已解锁，现在就可以学习。"
          : `邀请好友一起参团，人满即成团、课程自动解锁${group.expiresAt ? `；${formatDateTime(group.expiresAt)} 前未成团将自动全额退款` : ""}。`}
      </p>
      <div className="pay-result__actions">
        {complete && order.firstLessonId ? (
          <Link className="button button--primary" to={`/video/${order.firstLessonId}`}>
            开始学习
          </Link>
        ) : null}
        <Link className={complete ? "button" : "button button--primary"} to={`/groupbuy/${group.groupNo}`}>
          查看拼团
        </Link>
      </div>
    </div>
  );
}

function NextSteps({ order }: { order: OrderDetail }) {
  if (order.gift) return <GiftNextSteps order={order} gift={order.gift} />;
  if (order.group) return <GroupNextSteps order={order} group={order.group} />;
  if (order.itemType === "course") {
    return (
      <div className="pay-result__next">
        <p>课程已解锁，全部课时现在就可以学习，学习进度会在各设备间同步。</p>
        <div className="pay-result__actions">
          {order.firstLessonId ? (
            <Link className="button button--primary" to={`/video/${order.firstLessonId}`}>
              开始学习
            </Link>
          ) : null}
          <Link className="button" to={`/course/${order.itemId}`}>
            查看课程目录
          </Link>
          <Link className="button" to="/my/allcourse">
            我的课程
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="pay-result__next">
      <p>
        订单状态：<strong>{order.stateLabel}</strong>。我们会在 48 小时内发货，发货后可在“我的订单”查看快递单号，
        收货后请确认收货。
      </p>
      <div className="pay-result__actions">
        <Link className="button button--primary" to="/my/order?state=paid">
          查看订单
        </Link>
        <Link className="button" to={order.itemType === "book" ? "/books" : "/stationery"}>
          继续逛逛
        </Link>
      </div>
    </div>
  );
}

function Result({ initial }: { initial: OrderDetail }) {
  const { order, gaveUp, retry } = useSettledOrder(initial);
  const paid = !["pending", "cancelled"].includes(order.state);
  return (
    <div className="pay-result">
      {order.state === "pending" && !gaveUp ? (
        <div className="pay-result__head" role="status">
          <span className="seal seal--ink pay-result__wait" aria-hidden="true">
            候
          </span>
          <div>
            <h2>支付处理中，正在确认结果…</h2>
            <p>支付平台的通知可能有几秒延迟，请稍候，无需重复付款。</p>
          </div>
        </div>
      ) : null}
      {order.state === "pending" && gaveUp ? (
        <div className="pay-result__head" role="alert">
          <span className="seal seal--ink pay-result__wait" aria-hidden="true">
            候
          </span>
          <div>
            <h2>暂未收到支付结果</h2>
            <p>
              如果你已经付款，结果通常会在几分钟内到达；请勿重复付款。我们会定时向支付平台核实，到账后订单自动更新。
            </p>
            <div className="pay-result__actions">
              <button type="button" className="button button--primary" onClick={retry}>
                再次查询
              </button>
              <Link className="button" to={`/payment?order=${order.orderNo}`}>
                返回支付页面
              </Link>
            </div>
          </div>
        </div>
      ) : null}
      {order.state === "cancelled" ? (
        <div className="pay-result__head" role="alert">
          <span className="seal seal--muted" aria-hidden="true">
            止
          </span>
          <div>
            <h2>订单已取消</h2>
            <p>{order.cancelReason ?? "订单已关闭"}。如果关闭后才付款，款项会自动原路退回。</p>
          </div>
        </div>
      ) : null}
      {paid ? (
        <div className="pay-result__head" role="status">
          <span className="seal" aria-hidden="true">
            成
          </span>
          <div>
            <h2>支付成功</h2>
            <p>
              实付 <strong>{formatMoney(order.payCents)}</strong>
              {order.paidAt ? ` · ${formatDateTime(order.paidAt)}` : ""}
            </p>
          </div>
        </div>
      ) : null}
      {paid ? <NextSteps order={order} /> : null}
      <section className="card pay-card" aria-label="订单信息">
        <p className="pay-card__no">订单号 {order.orderNo}</p>
        <OrderItemLine order={order} />
        <OrderAmounts order={order} />
      </section>
    </div>
  );
}

export default function PaymentSuccessPage() {
  const { order } = useLoaderData<typeof loader>();
  if (!order) {
    return (
      <Page className="pay-page">
        <EmptyState
          glyph="单"
          title="没有找到这笔订单"
          action={
            <Link className="button button--primary" to="/my/order">
              查看我的订单
            </Link>
          }
        >
          <p>链接缺少订单号或订单号不正确。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page className="pay-page" title="支付结果">
      <Result initial={order} />
    </Page>
  );
}
