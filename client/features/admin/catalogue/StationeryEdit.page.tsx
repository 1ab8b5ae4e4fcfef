/** 文房 (/admin/stationery/:id): name and status, the cover, the variants with SKU, price and stock changes with their history. */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  type AdminCommodity,
  type AdminSku,
  PUBLISH_STATE_LABELS,
  adminCommoditySchema,
} from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { ActionMessage, Field, centsOf, useAction, yuanOf } from "../../../components/staff/staff-kit";
import { browserApi } from "../../../lib/api";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { CreatedNotice } from "./goods-form";
import { CoverUpload, StockForm, StockHistory } from "./stock-parts";
import "./catalogue.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const item = await env.api(`/api/admin/commodities/${params.id ?? ""}`, { signal, schema: adminCommoditySchema });
  return { item, meta: { title: item.title, noindex: true } };
}

function TextInput({
  label,
  value,
  onChange,
  error,
  maxLength,
  inputMode,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  maxLength?: number;
  inputMode?: "decimal";
}) {
  return (
    <Field label={label} error={error}>
      {(id) => (
        <input
          id={id}
          className="form-field__control"
          value={value}
          maxLength={maxLength}
          inputMode={inputMode}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

function ItemForm({ item }: { item: AdminCommodity }) {
  const [title, setTitle] = useState(item.title);
  const [category, setCategory] = useState(item.category);
  const [coverChar, setCoverChar] = useState(item.coverChar);
  const [summary, setSummary] = useState(item.summary);
  const action = useAction();
  const revalidator = useRevalidator();
  const published = item.status === "published";
  const patch = (body: Record<string, unknown>, done: string) =>
    void action
      .run(() => browserApi(`/api/admin/commodities/${item.id}`, { method: "PATCH", body }), done)
      .then(() => revalidator.revalidate());
  return (
    <form
      className="staff-form"
      aria-label="商品信息"
      onSubmit={(event) => {
        event.preventDefault();
        patch({ title, category, coverChar, summary }, "已保存");
      }}
    >
      <TextInput label="名称" value={title} onChange={setTitle} error={action.fields.title} maxLength={80} />
      <TextInput label="分类" value={category} onChange={setCategory} error={action.fields.category} maxLength={20} />
      <TextInput label="封面字" value={coverChar} onChange={setCoverChar} error={action.fields.coverChar} />
      <Field label="简介" error={action.fields.summary}>
        {(id) => (
          <textarea
            id={id}
            className="form-field__control"
            rows={2}
            maxLength={300}
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          保存
        </button>
        <span className={`staff-badge${published ? " staff-badge--on" : ""}`}>{PUBLISH_STATE_LABELS[item.status]}</span>
        <button
          type="button"
          className="button button--small"
          disabled={action.busy}
          onClick={() => patch({ status: published ? "draft" : "published" }, published ? "已下架" : "已上架")}
        >
          {published ? "下架" : "上架"}
        </button>
        <ActionMessage state={action} />
      </div>
    </form>
  );
}

/** A variant's name and prices (a new variant when `sku` is absent; it starts with stock 0). */
function SkuForm({ item, sku }: { item: AdminCommodity; sku?: AdminSku }) {
  const [name, setName] = useState(sku?.name ?? "");
  const [price, setPrice] = useState(sku ? yuanOf(sku.priceCents) : "");
  const [listPrice, setListPrice] = useState(sku ? yuanOf(sku.originalPriceCents) : "");
  const action = useAction();
  const revalidator = useRevalidator();
  return (
    <form
      className="staff-form"
      aria-label={sku ? `规格 ${sku.name}` : "新增规格"}
      onSubmit={(event) => {
        event.preventDefault();
        const body = { name, priceCents: centsOf(price), originalPriceCents: centsOf(listPrice) };
        void action
          .run(
            () =>
              sku
                ? browserApi(`/api/admin/skus/${sku.id}`, { method: "PATCH", body })
                : browserApi(`/api/admin/commodities/${item.id}/skus`, { method: "POST", body }),
            sku ? "规格已保存" : "规格已新增",
          )
          .then((ok) => {
            if (ok && !sku) {
              setName("");
              setPrice("");
              setListPrice("");
            }
            void revalidator.revalidate();
          });
      }}
    >
      <TextInput label="规格名称" value={name} onChange={setName} error={action.fields.name} maxLength={40} />
      <TextInput
        label="售价（元）"
        value={price}
        onChange={setPrice}
        error={action.fields.priceCents}
        inputMode="decimal"
      />
      <TextInput
        label="划线价（元）"
        value={listPrice}
        onChange={setListPrice}
        error={action.fields.originalPriceCents}
        inputMode="decimal"
      />
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          {sku ? "保存规格" : "新增规格"}
        </button>
        <ActionMessage state={action} />
      </div>
    </form>
  );
}

export default function StationeryEditPage() {
  const { item } = useLoaderData<typeof loader>();
  return (
    <Page title={item.title} lead={<Link to="/admin/stationery">← 文房列表</Link>}>
      <CreatedNotice />
      <section className="card staff-panel" aria-labelledby="item-info">
        <h2 id="item-info">商品信息</h2>
        <ItemForm key={item.updatedAt} item={item} />
      </section>
      <section className="card staff-panel" aria-labelledby="item-cover">
        <h2 id="item-cover">封面</h2>
        <CoverUpload
          endpoint={`/api/admin/commodities/${item.id}/cover`}
          coverImage={item.coverImage}
          coverChar={item.coverChar}
          alt="商品封面"
          hint="JPEG、PNG 或 WebP，不超过 5 MB；裁成正方形"
          width={100}
          height={100}
        />
      </section>
      {item.skus.length === 0 ? (
        <section className="card staff-panel">
          <p className="staff-message">还没有规格；先新增一个规格，再调整库存。</p>
        </section>
      ) : (
        item.skus.map((sku) => (
          <section key={sku.id} className="card staff-panel" aria-labelledby={`sku-${sku.id}`}>
            <h2 id={`sku-${sku.id}`}>
              规格 SKU-{sku.id}：{sku.name} · 库存 {sku.stock} 件
            </h2>
            <SkuForm key={`${sku.name}-${sku.priceCents}-${sku.originalPriceCents}`} item={item} sku={sku} />
            <StockForm endpoint={`/api/admin/skus/${sku.id}/stock`} label={`调整库存 ${sku.name}`} />
            <StockHistory history={sku.history} caption={`${sku.name} 的库存变动记录`} />
          </section>
        ))
      )}
      <section className="card staff-panel" aria-labelledby="sku-new">
        <h2 id="sku-new">新增规格</h2>
        <SkuForm item={item} />
      </section>
    </Page>
  );
}
