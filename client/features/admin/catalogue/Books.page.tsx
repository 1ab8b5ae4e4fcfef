/** 图书管理 (/admin/books): every book, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { type AdminBook, adminBookPageSchema } from "../../../../shared/contracts/admin-catalogue";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { nameColumns, statusColumn, statusFilter } from "./list-columns";

const PARAMS = ["q", "status", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/books${listQuery(request, PARAMS)}`, { signal, schema: adminBookPageSchema });
  return { page, meta: { title: "图书管理", noindex: true } };
}

const column = createColumnHelper<AdminBook>();
const columns = [
  ...nameColumns<AdminBook>("书名", "/admin/books"),
  column.accessor("author", { header: "作者" }),
  column.accessor("isbn", { header: "ISBN" }),
  column.accessor("priceCents", {
    header: "售价",
    cell: (c) => `¥${formatYuan(c.getValue())}`,
    meta: { sortKey: "price", align: "end" },
  }),
  column.accessor("stock", { header: "库存", meta: { sortKey: "stock", align: "end" } }),
  statusColumn<AdminBook>(),
];

export default function BooksPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <Page
      lead="图书的价格、上下架与库存；每次库存调整都写明原因并留下记录。"
      actions={
        <Link className="button button--primary" to="/admin/books/new">
          新建图书
        </Link>
      }
    >
      <FilterBar
        label="筛选图书"
        filters={[{ type: "search", name: "q", label: "搜索", placeholder: "书名、作者或 ISBN" }, statusFilter]}
      />
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
