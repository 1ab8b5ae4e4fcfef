/** 直播排期 (/admin/live): every session, searched, filtered by state and date, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData, useSearchParams } from "react-router-dom";
import { GetForm } from "../../../routing/get-form";
import { Link } from "../../../routing/link";
import { type AdminLiveRow, adminLivePageSchema } from "../../../../shared/contracts/admin-live";
import { liveStates } from "../../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import type { PageLoaderArgs } from "../../../routing/nav-context";

const PARAMS = ["q", "state", "from", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const key of PARAMS) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  if (!query.has("dir")) query.set("dir", "asc");
  const page = await env.api(`/api/admin/live?${query.toString()}`, { signal, schema: adminLivePageSchema });
  return { page, meta: { title: "直播排期", noindex: true } };
}

const column = createColumnHelper<AdminLiveRow>();
const columns = [
  column.accessor("startsAt", {
    header: "开始",
    cell: (c) => formatDateTime(c.getValue()),
    meta: { sortKey: "startsAt" },
  }),
  column.accessor("title", {
    header: "直播",
    cell: (c) => (
      <Link className="text-link" to={`/admin/live/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
    meta: { sortKey: "title" },
  }),
  column.accessor("courseTitle", { header: "课程", cell: (c) => c.getValue() ?? "公开课" }),
  column.accessor("teacherName", { header: "老师" }),
  column.accessor("state", { header: "状态", cell: (c) => liveStates[c.getValue()], meta: { sortKey: "state" } }),
  column.accessor("bookings", { header: "预约", meta: { align: "end" } }),
];

export default function LiveListPage() {
  const { page } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  return (
    <Page
      lead="排期、改时间、取消（通知学员）、指派老师、推流密钥、回放与聊天管理。"
      actions={
        <Link className="button button--primary" to="/admin/live/new">
          排一场直播
        </Link>
      }
    >
      <GetForm className="admin-filters" role="search" aria-label="筛选直播">
        <label>
          搜索
          <input name="q" type="search" defaultValue={search.get("q") ?? ""} placeholder="标题或老师" />
        </label>
        <label>
          状态
          <select name="state" defaultValue={search.get("state") ?? ""}>
            <option value="">全部</option>
            {Object.entries(liveStates).map(([key, name]) => (
              <option key={key} value={key}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          从
          <input name="from" type="date" defaultValue={search.get("from") ?? ""} />
        </label>
        <button type="submit" className="button button--small">
          筛选
        </button>
      </GetForm>
      <DataTable
        caption="直播"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "startsAt", dir: "asc" }}
        empty={<p>没有符合条件的直播。</p>}
      />
    </Page>
  );
}
