/** 我的直播 (/teach/live): this teacher's sessions from the last week on (every session for operators). */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { type AdminLiveRow, teachLiveListSchema } from "../../../shared/contracts/admin-live";
import { liveStates } from "../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../shared/format";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { Table } from "../../components/table/DataTable";
import "../../components/staff/staff.css";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal }: PageLoaderArgs) {
  const data = await env.api("/api/teach/live", { signal, schema: teachLiveListSchema });
  return { ...data, meta: { title: "我的直播", noindex: true } };
}

const column = createColumnHelper<AdminLiveRow>();
const columns = [
  column.accessor("title", {
    header: "直播",
    cell: (c) => (
      <Link className="text-link" to={`/teach/live/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
  }),
  column.accessor("courseTitle", { header: "课程", cell: (c) => c.getValue() ?? "公开课" }),
  column.accessor("startsAt", {
    header: "开始",
    cell: (c) => <time dateTime={c.getValue()}>{formatDateTime(c.getValue())}</time>,
  }),
  column.accessor("state", { header: "状态", cell: (c) => liveStates[c.getValue()] }),
  column.accessor("bookings", { header: "预约" }),
];

export default function MyLivePage() {
  const { sessions } = useLoaderData<typeof loader>();
  return (
    <Page lead="开播前在这里拿到推流密钥、检查推流；也可以调整时间、置顶消息、管理聊天。">
      {sessions.length === 0 ? (
        <EmptyState glyph="播" title="近期没有你的直播">
          <p>运营排好直播后，会出现在这里。</p>
        </EmptyState>
      ) : (
        <Table className="staff-table card" columns={columns} rows={sessions} rowKey={(s) => String(s.id)} />
      )}
    </Page>
  );
}
