/**
 * 发货 (/admin/shipping): physical goods redeemed in the exchange mall, waiting ones oldest first;
 * ship with carrier and tracking number, mark received. Filters and sort live in the URL.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { useLoaderData, useRevalidator, useSearchParams } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  deliveryLabels,
  type Shipment,
  shipmentPageSchema,
  shipmentSchema,
} from "../../../../shared/contracts/staff-commerce";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable, withParams } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { apiQuery, DialogForm, Field, text } from "../../../components/staff/staff-action";
import { useMutation } from "../../../lib/mutation";

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/shipping${apiQuery(request, ["state"])}`, {
    signal,
    schema: shipmentPageSchema,
  });
  return { page, meta: { title: "兑换发货", noindex: true } };
}

const TABS = [
  { state: "awaiting_shipment", label: "待发货" },
  { state: "shipped", label: "已发货" },
  { state: "delivered", label: "已签收" },
  { state: "all", label: "全部" },
] as const;

function Actions({ row, onShip }: { row: Shipment; onShip: (row: Shipment) => void }) {
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  if (row.deliveryState === "awaiting_shipment")
    return (
      <button type="button" className="button button--small button--primary" onClick={() => onShip(row)}>
        发货
      </button>
    );
  if (row.deliveryState === "shipped")
    return (
      <>
        <button
          type="button"
          className="button button--small"
          disabled={action.busy}
          onClick={() => void action.send(`/api/admin/shipping/${row.id}/delivered`, { schema: shipmentSchema })}
        >
          标记签收
        </button>
        {action.problem ? <span role="alert">{action.problem.message}</span> : null}
      </>
    );
  return <span>—</span>;
}

export default function ShippingPage() {
  const { page } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const current = search.get("state") ?? "awaiting_shipment";
  const [shipping, setShipping] = useState<Shipment | null>(null);
  const { revalidate } = useRevalidator();
  const ship = useMutation({ after: revalidate });

  const column = createColumnHelper<Shipment>();
  const columns = [
    column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
    column.accessor("createdAt", {
      header: "兑换时间",
      cell: (c) => formatDateTime(c.getValue()),
      meta: { sortKey: "createdAt" },
    }),
    column.accessor("title", { header: "物品", meta: { sortKey: "title" } }),
    column.accessor("nickname", { header: "学员", cell: (c) => `${c.getValue()}（#${c.row.original.userId}）` }),
    column.display({
      id: "address",
      header: "收货地址",
      cell: (c) => {
        const a = c.row.original.address;
        return a ? `${a.recipient} ${a.phone} ${a.region} ${a.detail}` : "—";
      },
    }),
    column.accessor("deliveryState", { header: "状态", cell: (c) => deliveryLabels[c.getValue()] }),
    column.display({
      id: "tracking",
      header: "快递",
      cell: (c) => (c.row.original.trackingNo ? `${c.row.original.carrier} ${c.row.original.trackingNo}` : "—"),
    }),
    column.display({
      id: "actions",
      header: "操作",
      cell: (c) => <Actions row={c.row.original} onShip={setShipping} />,
    }),
  ];

  return (
    <Page lead="兑换商城的实物（书籍、文房用品）：按收货地址寄出，填写快递公司和运单号，学员会收到通知。">
      <nav className="admin-tabs" aria-label="发货状态">
        {TABS.map((t) => (
          <Link
            key={t.state}
            to={withParams(search, { state: t.state, page: null })}
            className={`admin-tabs__tab${current === t.state ? " is-active" : ""}`}
            aria-current={current === t.state ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <FilterBar
        label="搜索发货"
        fixed={{ state: current }}
        filters={[{ type: "search", name: "q", label: "关键词", placeholder: "物品、学员、手机号、运单号" }]}
        submitLabel="搜索"
      />
      <DataTable
        caption="兑换发货"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "createdAt", dir: current === "awaiting_shipment" ? "asc" : "desc" }}
        empty={<p>{current === "awaiting_shipment" ? "没有待发货的兑换。" : "没有符合条件的兑换。"}</p>}
      />
      <DialogForm
        open={shipping !== null}
        title={shipping ? `发货：${shipping.title}` : "发货"}
        onClose={() => {
          setShipping(null);
          ship.setProblem(null);
        }}
        busy={ship.busy}
        problem={ship.problem}
        submitLabel="确认发货"
        onSubmit={async (form) =>
          Boolean(
            shipping &&
            (await ship.send(`/api/admin/shipping/${shipping.id}/ship`, {
              body: { carrier: text(form, "carrier"), trackingNo: text(form, "trackingNo") },
              schema: shipmentSchema,
            })),
          )
        }
      >
        {shipping?.address ? (
          <p>
            寄往：{shipping.address.recipient}，{shipping.address.phone}，{shipping.address.region}{" "}
            {shipping.address.detail}
          </p>
        ) : null}
        <Field label="快递公司" name="carrier" placeholder="如：顺丰速运" required />
        <Field label="运单号" name="trackingNo" placeholder="6–40 位字母或数字" required />
      </DialogForm>
    </Page>
  );
}
