/** 图书管理 (/admin/books): every book, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData, useSearchParams } from "react-router-dom";
import { GetForm } from "../../../routing/get-form";
import { Link } from "../../../routing/link";
import {
  type AdminBook,
  PUBLISH_STATES,
  PUBLISH_STATE_LABELS,
  adminBookPageSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import type { PageLoaderArgs } from "../../../routing/nav-context";

const PARAMS = ["q", "status", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const key of PARAMS) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  const text = query.toString();
  const page = await env.api(`/api/admin/books${text ? `?${text}` : ""}`, { signal, schema: adminBookPageSchema });
  return { page, meta: { title: "图书管理", noindex: true } };
}

const column = createColumnHelper<AdminBook>();
const columns = [
  column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
  column.accessor("title", {
    header: "书名",
    cell: (c) => (
      <Link className="text-link" to={`/admin/books/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
    meta: { sortKey: "title" },
  }),
  column.accessor("author", { header: "作者" }),
  column.accessor("isbn", { header: "ISBN" }),
  column.accessor("priceCents", {
    header: "售价",
    cell: (c) => `¥${formatYuan(c.getValue())}`,
    meta: { sortKey: "price", align: "end" },
  }),
  column.accessor("stock", { header: "库存", meta: { sortKey: "stock", align: "end" } }),
  column.accessor("status", {
    header: "状态",
    cell: (c) => PUBLISH_STATE_LABELS[c.getValue()],
    meta: { sortKey: "status" },
  }),
];

export default function BooksPage() {
  const { page } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  return (
    <Page
      lead="图书的价格、上下架与库存；每次库存调整都写明原因并留下记录。"
      actions={
        <Link className="button button--primary" to="/admin/books/new">
          新建图书
        </Link>
      }
    >
      <GetForm className="admin-filters" role="search" aria-label="筛选图书">
        <label>
          搜索
          <input name="q" type="search" defaultValue={search.get("q") ?? ""} placeholder="书名、作者或 ISBN" />
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
      <DataTable
        caption="图书"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "updatedAt", dir: "desc" }}
        empty={<p>没有符合条件的图书。</p>}
      />
    </Page>
  );
}
