/**
 * 订单管理 (/admin/orders): every learner's orders, searched by order number, phone, e-mail or
 * item and filtered by state, kind and China dates; sorted and paged by the server (the URL holds
 * the view, so it can be shared and the back button keeps it).
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  ADMIN_ORDER_KIND_LABELS,
  ADMIN_ORDER_KINDS,
  adminOrderPageSchema,
  type AdminOrderRow,
} from "../../../../shared/contracts/admin-orders";
import { ORDER_STATE_LABELS, ORDER_STATES } from "../../../../shared/contracts/orders";
import { formatDateTime } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar, optionsOf, type Filter } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { LoadFailed, loaded } from "../desk-parts";
import "../desk.css";

const PARAMS = ["q", "state", "kind", "from", "to", "userId", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await loaded(
    env.api(`/api/admin/orders${listQuery(request, PARAMS)}`, { signal, schema: adminOrderPageSchema }),
  );
  return { page, meta: { title: "订单管理", noindex: true } };
}

const FILTERS: Filter[] = [
  {
    type: "search",
    name: "q",
    label: "搜索",
    placeholder: "订单号 / 手机号 / 邮箱 / 商品",
    size: 28,
    maxLength: 100,
  },
  {
    type: "select",
    name: "state",
    label: "状态",
    options: [
      ["", "全部状态"],
      ["return_requested", "退货待审核"],
      ["refund_failed", "退款失败（待重试）"],
      ...optionsOf(ORDER_STATES, ORDER_STATE_LABELS),
    ],
  },
  {
    type: "select",
    name: "kind",
    label: "类型",
    options: [["", "全部类型"], ...optionsOf(ADMIN_ORDER_KINDS, ADMIN_ORDER_KIND_LABELS)],
  },
  { type: "date", name: "from", label: "下单日期从" },
  { type: "date", name: "to", label: "到" },
];

const KIND_OF: Record<string, string> = { course: "课程", book: "书籍", commodity: "文房" };

const column = createColumnHelper<AdminOrderRow>();
const columns = [
  column.accessor("orderNo", {
    header: "订单号",
    cell: (c) => (
      <Link to={`/admin/orders/detail?no=${c.getValue()}`} className="desk-mono">
        {c.getValue()}
      </Link>
    ),
    meta: { sortKey: "orderNo" },
  }),
  column.accessor("createdAt", {
    header: "下单时间",
    cell: (c) => formatDateTime(c.getValue()),
    meta: { sortKey: "createdAt" },
  }),
  column.accessor("learner", {
    header: "学员",
    cell: (c) => (
      <>
        <Link to={`/admin/users/${c.row.original.userId}`}>{c.getValue()}</Link>
        <span className="desk-sub">{c.row.original.phone ?? c.row.original.email ?? ""}</span>
      </>
    ),
  }),
  column.accessor("title", {
    header: "商品",
    cell: (c) => (
      <>
        {c.getValue()}
        {c.row.original.skuName ? ` · ${c.row.original.skuName}` : ""}
        {c.row.original.quantity > 1 ? ` × ${c.row.original.quantity}` : ""}
      </>
    ),
  }),
  column.display({
    id: "kind",
    header: "类型",
    cell: (c) => {
      const r = c.row.original;
      const kind = KIND_OF[r.itemType] ?? r.itemType;
      return r.purpose === "gift" ? `${kind}·赠送` : r.purpose === "group" ? `${kind}·拼团` : kind;
    },
  }),
  column.accessor("payCents", {
    header: "实付",
    cell: (c) => (
      <>
        {formatMoney(c.getValue())}
        {c.row.original.refundedCents ? (
          <span className="desk-sub">已退 {formatMoney(c.row.original.refundedCents)}</span>
        ) : null}
      </>
    ),
    meta: { sortKey: "payCents", align: "end" },
  }),
  column.accessor("stateLabel", {
    header: "状态",
    cell: (c) => (
      <>
        <span className="desk-state" data-state={c.row.original.state}>
          {c.getValue()}
        </span>
        {c.row.original.returnRequested ? <span className="desk-flag">退货待审核</span> : null}
        {c.row.original.refundFailed ? <span className="desk-flag">退款失败</span> : null}
      </>
    ),
    meta: { sortKey: "state" },
  }),
];

export default function OrdersPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <Page lead="所有学员的订单。搜索订单号、手机号、邮箱或商品名称，按状态、类型和下单日期（北京时间）筛选。">
      <FilterBar
        label="筛选订单"
        filters={FILTERS}
        keep={["userId", "sort", "dir", "pageSize"]}
        resetTo="/admin/orders"
      />
      {page.ok ? (
        <DataTable
          caption="订单"
          columns={columns}
          page={page.data}
          rowKey={(row) => row.orderNo}
          defaultSort={{ key: "createdAt", dir: "desc" }}
          empty={<p>没有符合条件的订单。换个关键词或放宽筛选条件试试。</p>}
        />
      ) : (
        <LoadFailed problem={page.problem} what="订单列表" />
      )}
    </Page>
  );
}
