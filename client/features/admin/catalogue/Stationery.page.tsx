/** 文房管理 (/admin/stationery): every stationery item, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData, useSearchParams } from "react-router-dom";
import { GetForm } from "../../../routing/get-form";
import { Link } from "../../../routing/link";
import {
  type AdminCommodityRow,
  PUBLISH_STATES,
  PUBLISH_STATE_LABELS,
  adminCommodityPageSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { LoadFailed, loaded } from "../desk-parts";
import "../desk.css";

const PARAMS = ["q", "status", "category", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const key of PARAMS) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  const text = query.toString();
  const page = await loaded(
    env.api(`/api/admin/commodities${text ? `?${text}` : ""}`, { signal, schema: adminCommodityPageSchema }),
  );
  return { page, meta: { title: "文房管理", noindex: true } };
}

const column = createColumnHelper<AdminCommodityRow>();
const columns = [
  column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
  column.accessor("title", {
    header: "名称",
    cell: (c) => (
      <Link className="text-link" to={`/admin/stationery/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
    meta: { sortKey: "title" },
  }),
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
  column.accessor("status", {
    header: "状态",
    cell: (c) => PUBLISH_STATE_LABELS[c.getValue()],
    meta: { sortKey: "status" },
  }),
];

export default function StationeryPage() {
  const { page } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  return (
    <Page
      lead="文房用品的规格、价格、上下架与库存；每次库存调整都写明原因并留下记录。"
      actions={
        <Link className="button button--primary" to="/admin/stationery/new">
          新建文房
        </Link>
      }
    >
      <GetForm className="admin-filters" role="search" aria-label="筛选文房">
        <label>
          搜索
          <input name="q" type="search" defaultValue={search.get("q") ?? ""} placeholder="商品名称" />
        </label>
        <label>
          分类
          <input name="category" defaultValue={search.get("category") ?? ""} maxLength={20} />
        </label>
        <label>
          状态
          <select name="status" defaultValue={search.get("status") ?? ""}>
            <option value="">全部</option>
            {PUBLISH_STATES.map((s) => (
              <option key={s} value={s}>
                {PUBLISH_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--small">
          筛选
        </button>
      </GetForm>
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
