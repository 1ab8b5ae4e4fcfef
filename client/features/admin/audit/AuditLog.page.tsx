/**
 * 审计日志 (/admin/audit): every staff action, newest first; filters and sort live in the URL.
 * Above the table, whether the log's hash chain is whole.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { auditChainSchema, auditEntrySchema, pagedOf, type AuditEntry } from "../../../../shared/contracts/staff";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { LoadFailed, loaded } from "../desk-parts";
import { ChainStatus } from "./ChainStatus";
import "../desk.css";

const FILTERS = ["q", "action", "targetType", "targetId", "actor", "from", "to", "page", "pageSize", "sort", "dir"];
const auditPage = pagedOf(auditEntrySchema);

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const [page, chain] = await Promise.all([
    loaded(env.api(`/api/admin/audit${listQuery(request, FILTERS)}`, { signal, schema: auditPage })),
    loaded(env.api("/api/admin/audit/chain", { signal, schema: auditChainSchema })),
  ]);
  return { page, chain, meta: { title: "审计日志", noindex: true } };
}

const ROLE_LABELS: Record<string, string> = { operator: "运营", teacher: "教师", learner: "学员", system: "系统" };

function Change({ entry }: { entry: AuditEntry }) {
  const show = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value, null, 1));
  return (
    <pre className="admin-json">
      {show(entry.before)} → {show(entry.after)}
    </pre>
  );
}

const column = createColumnHelper<AuditEntry>();
const columns = [
  // The number the chain check names (第 X 条).
  column.accessor("id", { header: "编号", cell: (c) => c.getValue() }),
  column.accessor("at", { header: "时间", cell: (c) => formatDateTime(c.getValue()), meta: { sortKey: "at" } }),
  column.accessor("actorName", {
    header: "操作人",
    cell: (c) => `${c.getValue()}（${ROLE_LABELS[c.row.original.actorRole] ?? c.row.original.actorRole}）`,
    meta: { sortKey: "actor" },
  }),
  column.accessor("action", { header: "操作", meta: { sortKey: "action" } }),
  column.display({
    id: "target",
    header: "对象",
    cell: (c) => `${c.row.original.targetType}${c.row.original.targetId ? ` #${c.row.original.targetId}` : ""}`,
  }),
  column.display({ id: "change", header: "变更（前 → 后）", cell: (c) => <Change entry={c.row.original} /> }),
  column.accessor("reason", { header: "原因", cell: (c) => c.getValue() ?? "—" }),
];

export default function AuditLogPage() {
  const { page, chain } = useLoaderData<typeof loader>();
  return (
    <Page lead="员工的每一次操作：谁、何时、做了什么、改动前后。记录只增不改。">
      <ChainStatus chain={chain} />
      <FilterBar
        label="筛选审计日志"
        filters={[
          { type: "search", name: "q", label: "关键词", placeholder: "操作人、对象编号、原因…" },
          { type: "text", name: "action", label: "操作", placeholder: "如 order 或 order.ship" },
          { type: "text", name: "targetType", label: "对象类型", placeholder: "如 order、course" },
          { type: "date", name: "from", label: "从" },
          { type: "date", name: "to", label: "到" },
        ]}
      />
      {page.ok ? (
        <DataTable
          caption="审计日志"
          columns={columns}
          page={page.data}
          rowKey={(row) => String(row.id)}
          defaultSort={{ key: "at", dir: "desc" }}
          empty={<p>还没有符合条件的操作记录。</p>}
        />
      ) : (
        <LoadFailed problem={page.problem} what="审计日志" />
      )}
    </Page>
  );
}
