/**
 * 优惠券 (/admin/coupons): coupon templates — create, edit, retire — and issuing a template to
 * learners by phone number, e-mail address or account id (one Idempotency-Key per batch, so a
 * repeated submit gives nobody a second coupon).
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import {
  type CouponIssueResult,
  couponIssueResultSchema,
  type CouponTemplateAdmin,
  couponTemplateAdminSchema,
  couponTemplatePageSchema,
} from "../../../../shared/contracts/staff-commerce";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { createAjax } from "../../../../shared/ajax";
import { apiQuery, DialogForm, Field, num, text } from "../../../components/staff/staff-action";
import { useMutation } from "../../../lib/mutation";

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/coupons${apiQuery(request, ["status"])}`, {
    signal,
    schema: couponTemplatePageSchema,
  });
  return { page, meta: { title: "优惠券", noindex: true } };
}

type Editing =
  { mode: "new" } | { mode: "edit"; t: CouponTemplateAdmin } | { mode: "issue"; t: CouponTemplateAdmin; key: string };

const yuanToCents = (form: FormData, name: string) => {
  const v = num(form, name);
  return v === null ? 0 : Math.round(v * 100);
};

function templateBody(form: FormData) {
  const until = text(form, "validUntil");
  return {
    title: text(form, "title"),
    kind: text(form, "kind"),
    amountOffCents: yuanToCents(form, "amountOff"),
    percentOff: num(form, "percentOff") ?? 0,
    thresholdCents: yuanToCents(form, "threshold"),
    scope: text(form, "scope"),
    scopeRefId: num(form, "scopeRefId"),
    validDays: num(form, "validDays"),
    validUntil: until ? new Date(`${until}T23:59:59+08:00`).toISOString() : null,
    totalQuantity: num(form, "totalQuantity"),
    perUserLimit: num(form, "perUserLimit") ?? 1,
    claimable: form.get("claimable") === "on",
  };
}

const column = createColumnHelper<CouponTemplateAdmin>();

export default function CouponsPage() {
  const { page } = useLoaderData<typeof loader>();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [issued, setIssued] = useState<CouponIssueResult | null>(null);
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  const retire = useMutation({ after: revalidate });
  const close = () => {
    setEditing(null);
    action.setProblem(null);
  };

  const columns = [
    column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
    column.accessor("title", { header: "名称", meta: { sortKey: "title" } }),
    column.accessor("headline", { header: "优惠" }),
    column.accessor("scopeLabel", { header: "范围" }),
    column.display({
      id: "valid",
      header: "有效期",
      cell: (c) =>
        [
          c.row.original.validDays ? `领取后 ${c.row.original.validDays} 天` : null,
          c.row.original.validUntil ? `至 ${formatDateTime(c.row.original.validUntil)}` : null,
        ]
          .filter(Boolean)
          .join("，"),
    }),
    column.accessor("claimedCount", {
      header: "已发/总量",
      cell: (c) => `${c.getValue()} / ${c.row.original.totalQuantity ?? "不限"}`,
      meta: { sortKey: "claimedCount", align: "end" },
    }),
    column.display({
      id: "status",
      header: "状态",
      cell: (c) => (c.row.original.retiredAt ? "已停用" : c.row.original.claimable ? "可领取" : "仅发放"),
    }),
    column.display({
      id: "actions",
      header: "操作",
      cell: (c) =>
        c.row.original.retiredAt ? (
          "—"
        ) : (
          <div className="admin-actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => setEditing({ mode: "edit", t: c.row.original })}
            >
              编辑
            </button>
            <button
              type="button"
              className="button button--small button--primary"
              onClick={() => {
                setIssued(null);
                setEditing({ mode: "issue", t: c.row.original, key: crypto.randomUUID() });
              }}
            >
              发券
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={retire.busy}
              onClick={() => {
                if (window.confirm(`停用“${c.row.original.title}”？已领的券仍可用到期。`))
                  void retire.send(`/api/admin/coupons/${c.row.original.id}/retire`, {
                    schema: couponTemplateAdminSchema,
                  });
              }}
            >
              停用
            </button>
          </div>
        ),
    }),
  ];

  const t = editing && editing.mode !== "new" ? editing.t : null;
  return (
    <Page
      lead="优惠券模板：满减或折扣、门槛、适用范围、有效期和数量；可在领券中心领取，也可直接发给学员。"
      actions={
        <button type="button" className="button button--primary" onClick={() => setEditing({ mode: "new" })}>
          新建优惠券
        </button>
      }
    >
      <FilterBar
        label="筛选优惠券"
        filters={[
          {
            type: "select",
            name: "status",
            label: "状态",
            options: [
              ["all", "全部"],
              ["active", "启用中"],
              ["retired", "已停用"],
            ],
            fallback: "all",
          },
          { type: "search", name: "q", label: "关键词", placeholder: "优惠券名称" },
        ]}
      />
      {retire.problem ? <p role="alert">{retire.problem.message}</p> : null}
      <DataTable
        caption="优惠券模板"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "id", dir: "desc" }}
        empty={<p>还没有优惠券模板。</p>}
      />
      <DialogForm
        open={editing !== null && editing.mode !== "issue"}
        title={t ? `编辑：${t.title}` : "新建优惠券"}
        onClose={close}
        busy={action.busy}
        problem={action.problem}
        submitLabel="保存"
        onSubmit={async (form) =>
          Boolean(
            t
              ? await action.send(`/api/admin/coupons/${t.id}`, {
                  method: "PUT",
                  body: templateBody(form),
                  schema: couponTemplateAdminSchema,
                })
              : await action.send("/api/admin/coupons", {
                  body: templateBody(form),
                  schema: couponTemplateAdminSchema,
                }),
          )
        }
      >
        <Field label="名称" name="title" defaultValue={t?.title} required />
        <label className="form-field admin-field">
          <span className="form-field__label">类型 *</span>
          <select className="form-field__control" name="kind" defaultValue={t?.kind ?? "amount"}>
            <option value="amount">满减</option>
            <option value="percent">折扣</option>
          </select>
        </label>
        <Field
          label="减免金额（元，满减券）"
          name="amountOff"
          type="number"
          defaultValue={t ? t.amountOffCents / 100 : ""}
        />
        <Field
          label="减免百分比（折扣券，如 10 为 9 折）"
          name="percentOff"
          type="number"
          defaultValue={t?.percentOff ?? ""}
        />
        <Field
          label="使用门槛（元，0 为无门槛）"
          name="threshold"
          type="number"
          defaultValue={t ? t.thresholdCents / 100 : 0}
        />
        <label className="form-field admin-field">
          <span className="form-field__label">适用范围 *</span>
          <select className="form-field__control" name="scope" defaultValue={t?.scope ?? "all"}>
            <option value="all">全场通用</option>
            <option value="course">课程</option>
            <option value="book">书籍</option>
            <option value="commodity">文房用品</option>
          </select>
        </label>
        <Field label="指定商品编号（选填）" name="scopeRefId" type="number" defaultValue={t?.scopeRefId} />
        <Field label="领取后有效天数" name="validDays" type="number" defaultValue={t?.validDays} />
        <Field label="截止日期" name="validUntil" type="date" defaultValue={t?.validUntil?.slice(0, 10)} />
        <Field label="发放总量（空为不限）" name="totalQuantity" type="number" defaultValue={t?.totalQuantity} />
        <Field label="每人限领" name="perUserLimit" type="number" defaultValue={t?.perUserLimit ?? 1} />
        <label className="admin-check">
          <input type="checkbox" name="claimable" defaultChecked={t?.claimable ?? true} /> 在领券中心可领取
        </label>
      </DialogForm>
      <DialogForm
        open={editing?.mode === "issue"}
        title={t ? `发券：${t.title}` : "发券"}
        onClose={close}
        busy={action.busy}
        problem={action.problem}
        submitLabel="发放"
        onSubmit={async (form) => {
          if (editing?.mode !== "issue") return false;
          // One key per opening of the dialog: sending the same list twice issues it once.
          const post = createAjax({ headers: { "Idempotency-Key": editing.key } });
          const result = await action.run(() =>
            post(`/api/admin/coupons/${editing.t.id}/issue`, {
              method: "POST",
              body: { recipients: text(form, "recipients") },
              schema: couponIssueResultSchema,
            }),
          );
          if (result) setIssued(result);
          return false;
        }}
      >
        <label className="form-field">
          <span className="form-field__label">发放对象 *（手机号、邮箱或学员编号，每行一个，最多 500 个）</span>
          <textarea className="form-field__control" name="recipients" rows={6} />
        </label>
        {issued ? (
          <p className="form-success" role="status">
            {issued.message}
            {issued.unknown.length ? `：${issued.unknown.slice(0, 10).join("、")}` : ""}
          </p>
        ) : null}
      </DialogForm>
    </Page>
  );
}
