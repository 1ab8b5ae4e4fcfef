/**
 * 我的订单 (/my/order?state=): the learner's orders by state tab, each with the actions its state
 * allows — 立即支付, 取消订单, 申请退款 (with the reason when it is not allowed; received goods
 * may go back in part and wait for review, which the learner can withdraw), 确认收货 — and the
 * order description pop-up with every snapshot (price, coupon, coins, amount paid, address) and
 * the timeline. Gift orders (礼物) show their gift — code, link, who claimed it — and ask for
 * their money back in the giveaway-refund dialog; group orders (拼团) show their group. A coupon
 * returned by a cancel or refund is announced once.
 */
import { type ComponentProps, useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { ORDER_TABS, type OrderTab } from "../../../shared/contracts/orders";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { CouponReturnDialog } from "../../components/commerce/CouponReturnDialog";
import "../../components/commerce/commerce.css";
import { SandboxPaymentBanner } from "../../components/commerce/payments-mode";
import { type Action, OrderCard } from "./order/OrderCard";
import type { OrderDialog as EagerOrderDialog } from "./order/OrderDialog";
import { lazyDialog } from "../../lib/lazy-dialog";

// The order pop-up (details, refund form and its checks) loads the first time it opens, or when
// the pointer or focus reaches the list (decision 050).
const orderDialog = lazyDialog<ComponentProps<typeof EagerOrderDialog> & { open: boolean }>(() =>
  import("./order/OrderDialog").then((m) => m.OrderDialog),
);

const TAB_KEYS = ORDER_TABS.map((t) => t.key) as string[];

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get("state") ?? "all";
  const tab = (TAB_KEYS.includes(raw) ? raw : "all") as OrderTab;
  const pageRaw = Number(url.searchParams.get("page") ?? 1);
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 && pageRaw <= 1000 ? pageRaw : 1;
  const list = await env.api(`/api/orders?state=${tab}&page=${page}`, {
    signal,
    schema: import("../../../shared/contracts/orders").then((m) => m.orderListSchema),
  });
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

export default function OrderPage() {
  const { list, tab } = useLoaderData<typeof loader>();
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
        <ol className="order-list" onPointerOver={orderDialog.preload} onFocus={orderDialog.preload}>
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
      <orderDialog.Dialog
        open={action !== null}
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
