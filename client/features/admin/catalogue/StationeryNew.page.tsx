/**
 * 新建文房 (/admin/stationery/new): the item as its public page shows it, its cover, whether it
 * goes on sale at once, and its variants (规格), each with its price, list price and the stock it
 * starts with (kept as the change 初始库存). Checked with the API's contract before it is sent.
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  MAX_NEW_SKUS,
  adminCommoditySchema,
  commodityCreateSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { InputField, MoneyField, TextAreaField, fieldErrorsOf } from "../../../components/staff/staff-fields";
import { ActionMessage, centsOf, useAction } from "../../../components/staff/staff-kit";
import { browserApi } from "../../../lib/api";
import { CoverPicker, type CreatedState, OnSaleChoice, coverFileProblem, sendCover } from "./goods-form";
import "./catalogue.css";

export function loader() {
  return { meta: { title: "新建文房", noindex: true } };
}

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
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState("");
  const [coverChar, setCoverChar] = useState("");
  const [summary, setSummary] = useState("");
  const [description, setDescription] = useState("");
  const [onSale, setOnSale] = useState(false);
  const [cover, setCover] = useState<File | null>(null);
  const [skus, setSkus] = useState<SkuRow[]>(() => [emptySku()]);
  const action = useAction();
  const navigate = useNavigate();
  const submit = () => {
    const body = {
      title,
      category,
      coverChar,
      summary,
      description,
      status: onSale ? ("published" as const) : ("draft" as const),
      skus: skus.map((s) => ({
        name: s.name,
        priceCents: centsOf(s.price),
        originalPriceCents: centsOf(s.listPrice.trim() === "" ? s.price : s.listPrice),
        stock: s.stock.trim() === "" ? 0 : Number(s.stock.trim()),
      })),
    };
    const checked = commodityCreateSchema.safeParse(body);
    const coverProblem = coverFileProblem(cover);
    if (!checked.success || coverProblem) {
      const fields = checked.success ? {} : fieldErrorsOf(checked.error.issues);
      action.refuse(coverProblem ? { ...fields, cover: coverProblem } : fields);
      return;
    }
    void action
      .run(async () => {
        const item = await browserApi("/api/admin/commodities", { method: "POST", body, schema: adminCommoditySchema });
        const notice = await sendCover(`/api/admin/commodities/${item.id}/cover`, cover);
        return { id: item.id, notice };
      })
      .then((created) => {
        if (!created) return;
        const state: CreatedState = { notice: created.notice };
        void navigate(`/admin/stationery/${created.id}`, { state });
      });
  };
  const err = (name: string) => action.fields[name];
  return (
    <form
      className="staff-form"
      aria-label="文房信息"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <InputField label="商品名称" value={title} onChange={setTitle} error={err("title")} required maxLength={80} />
      <InputField
        label="分类"
        value={category}
        onChange={setCategory}
        error={err("category")}
        hint="文房页的分类，如 毛笔、墨、纸、砚"
        required
        maxLength={20}
      />
      <InputField
        label="封面字"
        value={coverChar}
        onChange={setCoverChar}
        error={err("coverChar")}
        hint="没有封面图片时，封面上写的一个字"
        required
        maxLength={2}
      />
      <CoverPicker error={err("cover")} hint="JPEG、PNG 或 WebP，不超过 5 MB；裁成正方形" onPick={setCover} />
      <OnSaleChoice checked={onSale} onChange={setOnSale} error={err("status")} />
      <InputField label="简介" value={summary} onChange={setSummary} error={err("summary")} wide maxLength={300} />
      <TextAreaField
        label="详情"
        value={description}
        onChange={setDescription}
        error={err("description")}
        rows={4}
        maxLength={5000}
      />
      <SkuRows rows={skus} onChange={setSkus} err={err} />
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? "正在创建…" : "创建文房商品"}
        </button>
        <ActionMessage state={action} />
      </div>
    </form>
  );
}

export default function StationeryNewPage() {
  return (
    <Page title="新建文房" lead={<Link to="/admin/stationery">← 文房列表</Link>} className="catalogue-edit">
      <section className="card staff-panel" aria-labelledby="commodity-new-title">
        <h2 id="commodity-new-title">文房信息</h2>
        <CommodityCreateForm />
      </section>
    </Page>
  );
}
