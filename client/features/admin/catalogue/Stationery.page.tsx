/** 文房管理 (/admin/stationery): every stationery item, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { type AdminCommodityRow, adminCommodityPageSchema } from "../../../../shared/contracts/admin-catalogue";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { LoadFailed, loaded } from "../desk-parts";
import { nameColumns, statusColumn, statusFilter } from "./list-columns";
import "../desk.css";

const PARAMS = ["q", "status", "category", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await loaded(
    env.api(`/api/admin/commodities${listQuery(request, PARAMS)}`, { signal, schema: adminCommodityPageSchema }),
  );
  return { page, meta: { title: "文房管理", noindex: true } };
}

const column = createColumnHelper<AdminCommodityRow>();
const columns = [
  ...nameColumns<AdminCommodityRow>("名称", "/admin/stationery"),
  column.accessor("category", { header: "分类" }),
  column.accessor("skus", { header: "规格数", meta: { align: "end" } }),
  column.accessor("minPriceCents", {
    header: "最低售价",
    cell: (c) => {
      const v = c.getValue();
      return v === null ? "—" : `¥${formatYuan(v)}`;
    },
    meta: { align: "end" },
  }),
  column.accessor("stock", { header: "总库存", meta: { align: "end" } }),
  statusColumn<AdminCommodityRow>(),
];

export default function StationeryPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <Page
      lead="文房用品的规格、价格、上下架与库存；每次库存调整都写明原因并留下记录。"
      actions={
        <Link className="button button--primary" to="/admin/stationery/new">
          新建文房
        </Link>
      }
    >
      <FilterBar
        label="筛选文房"
        filters={[
          { type: "search", name: "q", label: "搜索", placeholder: "商品名称" },
          { type: "text", name: "category", label: "分类", maxLength: 20 },
          statusFilter,
        ]}
      />
      {page.ok ? (
        <DataTable
          caption="文房"
          columns={columns}
          page={page.data}
          rowKey={(row) => String(row.id)}
          defaultSort={{ key: "updatedAt", dir: "desc" }}
          empty={<p>没有符合条件的文房商品。</p>}
        />
      ) : (
        <LoadFailed problem={page.problem} what="文房列表" />
      )}
    </Page>
  );
}
