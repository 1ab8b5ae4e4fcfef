/**
 * 拼团活动 (/admin/campaigns): group-buy campaigns on courses — create, edit (applies to groups
 * started afterwards), end now (no new groups; open ones run to their own deadline).
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import {
  type CampaignAdmin,
  campaignAdminSchema,
  campaignPageSchema,
} from "../../../../shared/contracts/staff-commerce";
import { formatDateTime } from "../../../../shared/format";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { apiQuery, DialogForm, Field, num, text } from "../../../components/staff/staff-action";
import { useMutation } from "../../../lib/mutation";

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/campaigns${apiQuery(request, ["status"])}`, {
    signal,
    schema: campaignPageSchema,
  });
  return { page, meta: { title: "拼团活动", noindex: true } };
}

/** "2026-11-26T20:00" in Beijing time for a datetime-local input, and back. */
const toLocal = (iso: string | undefined) =>
  iso ? new Date(new Date(iso).getTime() + 8 * 3_600_000).toISOString().slice(0, 16) : "";
const fromLocal = (value: string) => (value ? new Date(`${value}:00+08:00`).toISOString() : "");

function body(form: FormData) {
  const price = num(form, "groupPrice");
  return {
    courseId: num(form, "courseId"),
    groupSize: num(form, "groupSize"),
    groupPriceCents: price === null ? null : Math.round(price * 100),
    validHours: num(form, "validHours"),
    startsAt: fromLocal(text(form, "startsAt")),
    endsAt: fromLocal(text(form, "endsAt")),
  };
}

const column = createColumnHelper<CampaignAdmin>();

export default function CampaignsPage() {
  const { page } = useLoaderData<typeof loader>();
  const [editing, setEditing] = useState<{ c: CampaignAdmin | null } | null>(null);
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  const end = useMutation({ after: revalidate });

  const columns = [
    column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
    column.accessor("courseTitle", {
      header: "课程",
      cell: (c) => `${c.getValue()}（#${c.row.original.courseId}）`,
      meta: { sortKey: "course" },
    }),
    column.accessor("groupSize", { header: "成团人数", meta: { align: "end" } }),
    column.accessor("groupPriceCents", {
      header: "拼团价",
      cell: (c) => `¥${formatYuan(c.getValue())}`,
      meta: { sortKey: "price", align: "end" },
    }),
    column.accessor("validHours", { header: "组团时限", cell: (c) => `${c.getValue()} 小时` }),
    column.accessor("startsAt", {
      header: "开始",
      cell: (c) => formatDateTime(c.getValue()),
      meta: { sortKey: "startsAt" },
    }),
    column.accessor("endsAt", {
      header: "结束",
      cell: (c) => formatDateTime(c.getValue()),
      meta: { sortKey: "endsAt" },
    }),
    column.accessor("statusLabel", { header: "状态" }),
    column.display({
      id: "groups",
      header: "进行中/已成团",
      cell: (c) => `${c.row.original.groupsOpen} / ${c.row.original.groupsComplete}`,
    }),
    column.display({
      id: "actions",
      header: "操作",
      cell: (c) =>
        c.row.original.active ? (
          <div className="admin-actions">
            <button type="button" className="button button--small" onClick={() => setEditing({ c: c.row.original })}>
              编辑
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={end.busy}
              onClick={() => {
                if (window.confirm("立即结束这个拼团活动？已开的团按各自时限进行。"))
                  void end.send(`/api/admin/campaigns/${c.row.original.id}/end`, { schema: campaignAdminSchema });
              }}
            >
              结束
            </button>
          </div>
        ) : (
          "—"
        ),
    }),
  ];

  const c = editing?.c ?? null;
  return (
    <Page
      lead="课程的拼团活动：成团人数、拼团价、组团时限与起止时间。"
      actions={
        <button type="button" className="button button--primary" onClick={() => setEditing({ c: null })}>
          新建拼团
        </button>
      }
    >
      <FilterBar
        label="筛选拼团活动"
        filters={[
          {
            type: "select",
            name: "status",
            label: "状态",
            options: [
              ["all", "全部"],
              ["upcoming", "未开始"],
              ["running", "进行中"],
              ["ended", "已结束"],
            ],
            fallback: "all",
          },
          { type: "search", name: "q", label: "关键词", placeholder: "课程名称或编号" },
        ]}
      />
      {end.problem ? <p role="alert">{end.problem.message}</p> : null}
      <DataTable
        caption="拼团活动"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "id", dir: "desc" }}
        empty={<p>还没有拼团活动。</p>}
      />
      <DialogForm
        open={editing !== null}
        title={c ? `编辑拼团：${c.courseTitle}` : "新建拼团活动"}
        onClose={() => {
          setEditing(null);
          action.setProblem(null);
        }}
        busy={action.busy}
        problem={action.problem}
        submitLabel="保存"
        onSubmit={async (form) =>
          Boolean(
            c
              ? await action.send(`/api/admin/campaigns/${c.id}`, {
                  method: "PUT",
                  body: body(form),
                  schema: campaignAdminSchema,
                })
              : await action.send("/api/admin/campaigns", { body: body(form), schema: campaignAdminSchema }),
          )
        }
      >
        <Field label="课程编号" name="courseId" type="number" defaultValue={c?.courseId} required />
        <Field label="成团人数（2–10）" name="groupSize" type="number" defaultValue={c?.groupSize ?? 3} required />
        <Field
          label="拼团价（元）"
          name="groupPrice"
          type="number"
          defaultValue={c ? c.groupPriceCents / 100 : ""}
          required
        />
        <Field
          label="组团时限（小时，1–72）"
          name="validHours"
          type="number"
          defaultValue={c?.validHours ?? 24}
          required
        />
        <Field label="开始时间" name="startsAt" type="datetime-local" defaultValue={toLocal(c?.startsAt)} required />
        <Field label="结束时间" name="endsAt" type="datetime-local" defaultValue={toLocal(c?.endsAt)} required />
      </DialogForm>
    </Page>
  );
}
