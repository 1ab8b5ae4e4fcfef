/**
 * 新建文房 (/admin/stationery/new): the item as its public page shows it, its cover, whether it
 * goes on sale at once, and its variants (规格), each with its price, list price and the stock it
 * starts with (kept as the change 初始库存). Checked with the API's contract before it is sent.
 */
import { useState } from "react";
import {
  MAX_NEW_SKUS,
  adminCommoditySchema,
  commodityCreateSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { InputField, MoneyField } from "../../../components/staff/staff-fields";
import { centsOf } from "../../../components/staff/staff-kit";
import { GoodsCreateForm, type GoodsKind, GoodsNewPage } from "./goods-editor";

export function loader() {
  return { meta: { title: "新建文房", noindex: true } };
}

const COMMODITY: GoodsKind = {
  key: "commodity",
  title: "新建文房",
  list: { to: "/admin/stationery", label: "← 文房列表" },
  label: "文房信息",
  submitLabel: "创建文房商品",
  slots: [
    { name: "title", label: "商品名称", required: true, maxLength: 80 },
    { name: "category", label: "分类", hint: "文房页的分类，如 毛笔、墨、纸、砚", required: true, maxLength: 20 },
    { name: "coverChar", label: "封面字", hint: "没有封面图片时，封面上写的一个字", required: true, maxLength: 2 },
    "cover",
    "onSale",
    { name: "summary", label: "简介", wide: true, maxLength: 300 },
    { name: "description", label: "详情", type: "area", rows: 4, maxLength: 5000 },
  ],
  coverHint: "JPEG、PNG 或 WebP，不超过 5 MB；裁成正方形",
  endpoint: "/api/admin/commodities",
  body: (typed) => ({
    title: typed("title"),
    category: typed("category"),
    coverChar: typed("coverChar"),
    summary: typed("summary"),
    description: typed("description"),
  }),
  check: commodityCreateSchema,
  created: adminCommoditySchema,
};

interface SkuRow {
  key: number;
  name: string;
  price: string;
  listPrice: string;
  stock: string;
}

let nextKey = 1;
const emptySku = (): SkuRow => ({ key: nextKey++, name: "", price: "", listPrice: "", stock: "0" });

function SkuRows({
  rows,
  onChange,
  err,
}: {
  rows: SkuRow[];
  onChange: (rows: SkuRow[]) => void;
  err: (name: string) => string | undefined;
}) {
  const set = (key: number, patch: Partial<SkuRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset className="staff-field--wide catalogue-skus">
      <legend>规格（至少一个才能上架）</legend>
      {rows.length === 0 ? <p className="staff-message">还没有规格。</p> : null}
      {rows.map((row, i) => (
        <div key={row.key} className="staff-form catalogue-sku-row" role="group" aria-label={`规格 ${i + 1}`}>
          <InputField
            label="规格名称"
            value={row.name}
            onChange={(name) => set(row.key, { name })}
            error={err(`skus.${i}.name`)}
            maxLength={40}
          />
          <MoneyField
            label="售价（元）"
            value={row.price}
            onChange={(price) => set(row.key, { price })}
            error={err(`skus.${i}.priceCents`)}
          />
          <MoneyField
            label="划线价（元）"
            value={row.listPrice}
            onChange={(listPrice) => set(row.key, { listPrice })}
            error={err(`skus.${i}.originalPriceCents`)}
            hint="不填则与售价相同"
          />
          <InputField
            label="初始库存（件）"
            value={row.stock}
            onChange={(stock) => set(row.key, { stock })}
            error={err(`skus.${i}.stock`)}
            inputMode="numeric"
          />
          <div className="staff-form__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
            >
              删除规格 {i + 1}
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className="button button--small"
        disabled={rows.length >= MAX_NEW_SKUS}
        onClick={() => onChange([...rows, emptySku()])}
      >
        ＋ 添加规格
      </button>
      {err("skus") ? (
        <small className="staff-field__error" role="alert">
          {err("skus")}
        </small>
      ) : null}
    </fieldset>
  );
}

function CommodityCreateForm() {
  const [skus, setSkus] = useState<SkuRow[]>(() => [emptySku()]);
  const body = {
    skus: skus.map((s) => ({
      name: s.name,
      priceCents: centsOf(s.price),
      originalPriceCents: centsOf(s.listPrice.trim() === "" ? s.price : s.listPrice),
      stock: s.stock.trim() === "" ? 0 : Number(s.stock.trim()),
    })),
  };
  return (
    <GoodsCreateForm
      kind={COMMODITY}
      extra={{ body, render: (err) => <SkuRows rows={skus} onChange={setSkus} err={err} /> }}
    />
  );
}

export default function StationeryNewPage() {
  return (
    <GoodsNewPage kind={COMMODITY}>
      <CommodityCreateForm />
    </GoodsNewPage>
  );
}
