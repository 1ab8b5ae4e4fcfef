/** 文房 (/admin/stationery/:id): name and status, the cover, the variants with SKU, price and stock changes with their history. */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../../routing/link";
import { type AdminCommodity, type AdminSku, adminCommoditySchema } from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { InputField } from "../../../components/staff/staff-fields";
import { centsOf, yuanOf } from "../../../components/staff/staff-kit";
import { FormAlert } from "../../../components/form/FormAlert";
import { useMutation } from "../../../lib/mutation";
import { browserApi } from "../../../lib/api";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { GoodsPatchForm } from "./goods-editor";
import { CreatedNotice } from "./goods-form";
import { CoverUpload, StockForm, StockHistory } from "./stock-parts";
import "./catalogue.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const item = await env.api(`/api/admin/commodities/${params.id ?? ""}`, { signal, schema: adminCommoditySchema });
  return { item, meta: { title: item.title, noindex: true } };
}

function ItemForm({ item }: { item: AdminCommodity }) {
  return (
    <GoodsPatchForm
      label="商品信息"
      endpoint={`/api/admin/commodities/${item.id}`}
      status={item.status}
      fields={[
        { name: "title", label: "名称", maxLength: 80, initial: item.title },
        { name: "category", label: "分类", maxLength: 20, initial: item.category },
        { name: "coverChar", label: "封面字", initial: item.coverChar },
        { name: "summary", label: "简介", type: "area", rows: 2, maxLength: 300, wide: false, initial: item.summary },
      ]}
      body={(typed) => ({
        title: typed("title"),
        category: typed("category"),
        coverChar: typed("coverChar"),
        summary: typed("summary"),
      })}
      saveLabel="保存"
      savedText="已保存"
    />
  );
}

/** A variant's name and prices (a new variant when `sku` is absent; it starts with stock 0). */
function SkuForm({ item, sku }: { item: AdminCommodity; sku?: AdminSku }) {
  const [name, setName] = useState(sku?.name ?? "");
  const [price, setPrice] = useState(sku ? yuanOf(sku.priceCents) : "");
  const [listPrice, setListPrice] = useState(sku ? yuanOf(sku.originalPriceCents) : "");
  const action = useMutation();
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
            { done: sku ? "规格已保存" : "规格已新增" },
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
      <InputField label="规格名称" value={name} onChange={setName} error={action.errors.name} maxLength={40} />
      <InputField
        label="售价（元）"
        value={price}
        onChange={setPrice}
        error={action.errors.priceCents}
        inputMode="decimal"
      />
      <InputField
        label="划线价（元）"
        value={listPrice}
        onChange={setListPrice}
        error={action.errors.originalPriceCents}
        inputMode="decimal"
      />
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          {sku ? "保存规格" : "新增规格"}
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
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
