/**
 * 兑换商城 (/admin/mall): every item, on the shelf or not; create and edit them, and change the
 * stock by an amount with a reason (a change, never an absolute number, so learners' redemptions
 * at the same moment are not overwritten).
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { currencies } from "../../../../shared/currency";
import { exchangeItemKinds } from "../../../../shared/contracts/wallet";
import {
  type MallItemAdmin,
  mallItemAdminSchema,
  mallItemPageSchema,
} from "../../../../shared/contracts/staff-commerce";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { apiQuery, DialogForm, Field, num, text } from "../../../components/staff/staff-action";
import { useMutation } from "../../../lib/mutation";

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/mall/items${apiQuery(request, ["active", "kind"])}`, {
    signal,
    schema: mallItemPageSchema,
  });
  return { page, meta: { title: "兑换商城", noindex: true } };
}

type Editing = { mode: "new" } | { mode: "edit"; item: MallItemAdmin } | { mode: "stock"; item: MallItemAdmin };

const column = createColumnHelper<MallItemAdmin>();

function itemBody(form: FormData, withStock: boolean) {
  return {
    title: text(form, "title"),
    summary: text(form, "summary"),
    kind: text(form, "kind"),
    refId: num(form, "refId"),
    currency: text(form, "currency"),
    price: num(form, "price"),
    perUserLimit: num(form, "perUserLimit"),
    coverChar: text(form, "coverChar"),
    active: form.get("active") === "on",
    position: num(form, "position") ?? 0,
    ...(withStock ? { stock: num(form, "stock") } : {}),
  };
}

export default function MallAdminPage() {
  const { page } = useLoaderData<typeof loader>();
  const [editing, setEditing] = useState<Editing | null>(null);
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  const close = () => {
    setEditing(null);
    action.setProblem(null);
  };

  const columns = [
    column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
    column.accessor("title", { header: "名称", meta: { sortKey: "title" } }),
    column.accessor("kind", {
      header: "类型",
      cell: (c) => `${exchangeItemKinds[c.getValue()]} #${c.row.original.refId}`,
    }),
    column.accessor("price", {
      header: "价格",
      cell: (c) => `${c.getValue()} ${currencies[c.row.original.currency]}`,
      meta: { sortKey: "price", align: "end" },
    }),
    column.accessor("stock", { header: "库存", meta: { sortKey: "stock", align: "end" } }),
    column.accessor("perUserLimit", { header: "每人限兑", meta: { align: "end" } }),
    column.accessor("redeemedCount", { header: "已兑", meta: { align: "end" } }),
    column.accessor("active", { header: "状态", cell: (c) => (c.getValue() ? "上架" : "已下架") }),
    column.accessor("position", { header: "排序", meta: { sortKey: "position", align: "end" } }),
    column.display({
      id: "actions",
      header: "操作",
      cell: (c) => (
        <div className="admin-actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => setEditing({ mode: "edit", item: c.row.original })}
          >
            编辑
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => setEditing({ mode: "stock", item: c.row.original })}
          >
            增减库存
          </button>
        </div>
      ),
    }),
  ];

  const item = editing && editing.mode !== "new" ? editing.item : null;
  return (
    <Page
      lead="兑换商城的物品：价格、库存、每人限兑与上下架。实物兑换后进入“兑换发货”。"
      actions={
        <button type="button" className="button button--primary" onClick={() => setEditing({ mode: "new" })}>
          新建物品
        </button>
      }
    >
      <FilterBar
        label="筛选兑换物品"
        filters={[
          {
            type: "select",
            name: "active",
            label: "状态",
            options: [
              ["all", "全部"],
              ["on", "上架"],
              ["off", "已下架"],
            ],
            fallback: "all",
          },
          {
            type: "select",
            name: "kind",
            label: "类型",
            options: [["", "全部类型"], ...Object.entries(exchangeItemKinds)],
          },
          { type: "search", name: "q", label: "关键词", placeholder: "物品名称" },
        ]}
      />
      <DataTable
        caption="兑换物品"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "position", dir: "asc" }}
        empty={<p>还没有兑换物品，点“新建物品”添加。</p>}
      />
      <DialogForm
        open={editing !== null && editing.mode !== "stock"}
        title={item ? `编辑：${item.title}` : "新建兑换物品"}
        onClose={close}
        busy={action.busy}
        problem={action.problem}
        submitLabel="保存"
        onSubmit={async (form) =>
          Boolean(
            item
              ? await action.send(`/api/admin/mall/items/${item.id}`, {
                  method: "PUT",
                  body: itemBody(form, false),
                  schema: mallItemAdminSchema,
                })
              : await action.send("/api/admin/mall/items", { body: itemBody(form, true), schema: mallItemAdminSchema }),
          )
        }
      >
        <Field label="名称" name="title" defaultValue={item?.title} required />
        <Field label="封面字" name="coverChar" defaultValue={item?.coverChar} placeholder="一个字" required />
        <label className="form-field admin-field">
          <span className="form-field__label">类型 *</span>
          <select className="form-field__control" name="kind" defaultValue={item?.kind ?? "book"}>
            {Object.entries(exchangeItemKinds).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="关联编号（课程/书籍/文房/券模板）"
          name="refId"
          type="number"
          defaultValue={item?.refId}
          required
        />
        <label className="form-field admin-field">
          <span className="form-field__label">币种 *</span>
          <select className="form-field__control" name="currency" defaultValue={item?.currency ?? "coin"}>
            <option value="coin">金币</option>
            <option value="bishan">笔山</option>
          </select>
        </label>
        <Field label="价格" name="price" type="number" defaultValue={item?.price} required />
        <Field label="每人限兑" name="perUserLimit" type="number" defaultValue={item?.perUserLimit ?? 1} required />
        <Field label="排序（小的在前）" name="position" type="number" defaultValue={item?.position ?? 0} />
        {item ? null : <Field label="初始库存" name="stock" type="number" defaultValue={0} required />}
        <Field label="简介" name="summary" defaultValue={item?.summary} />
        <label className="admin-check">
          <input type="checkbox" name="active" defaultChecked={item?.active ?? true} /> 上架
        </label>
      </DialogForm>
      <DialogForm
        open={editing?.mode === "stock"}
        title={item ? `增减库存：${item.title}（现有 ${item.stock}）` : "增减库存"}
        onClose={close}
        busy={action.busy}
        problem={action.problem}
        submitLabel="确认"
        onSubmit={async (form) =>
          Boolean(
            item &&
            (await action.send(`/api/admin/mall/items/${item.id}/stock`, {
              body: { delta: num(form, "delta"), reason: text(form, "reason") },
              schema: mallItemAdminSchema,
            })),
          )
        }
      >
        <Field label="变动（正数补货，负数减少）" name="delta" type="number" required />
        <Field label="原因" name="reason" placeholder="如：补货、盘点、破损" required />
      </DialogForm>
    </Page>
  );
}
