/** 直播排期 (/admin/live): every session, searched, filtered by state and date, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { type AdminLiveRow, adminLivePageSchema } from "../../../../shared/contracts/admin-live";
import { liveStates } from "../../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";

const PARAMS = ["q", "state", "from", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  // Soonest first unless the URL says otherwise.
  const url = new URL(request.url);
  if (!url.searchParams.get("dir")) url.searchParams.set("dir", "asc");
  const page = await env.api(`/api/admin/live${listQuery(url, PARAMS)}`, { signal, schema: adminLivePageSchema });
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
  return (
    <Page
      lead="排期、改时间、取消（通知学员）、指派老师、推流密钥、回放与聊天管理。"
      actions={
        <Link className="button button--primary" to="/admin/live/new">
          排一场直播
        </Link>
      }
    >
      <FilterBar
        label="筛选直播"
        filters={[
          { type: "search", name: "q", label: "搜索", placeholder: "标题或老师" },
          { type: "select", name: "state", label: "状态", options: [["", "全部"], ...Object.entries(liveStates)] },
          { type: "date", name: "from", label: "从" },
        ]}
      />
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
