/**
 * 新建图书 (/admin/books/new): every field the book's public page shows, its cover, the stock it
 * starts with (kept as the change 初始库存) and whether it goes on sale at once. Checked here with
 * the API's own contract first; the API's refusals show beside their fields.
 */
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../../routing/link";
import { adminBookDetailSchema, bookCreateSchema } from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { InputField, MoneyField, TextAreaField, fieldErrorsOf } from "../../../components/staff/staff-fields";
import { ActionMessage, centsOf, useAction } from "../../../components/staff/staff-kit";
import { browserApi } from "../../../lib/api";
import { CoverPicker, type CreatedState, OnSaleChoice, coverFileProblem, sendCover } from "./goods-form";
import "./catalogue.css";

export function loader() {
  return { meta: { title: "新建图书", noindex: true } };
}

/** A whole number typed by the operator, or `fallback` when left empty (NaN stays NaN for the check). */
const wholeOr = <T,>(text: string, fallback: T) => (text.trim() === "" ? fallback : Number(text.trim()));

function BookCreateForm() {
  const [title, setTitle] = useState("");
  const [author, setAuthor] = useState("");
  const [publisher, setPublisher] = useState("");
  const [isbn, setIsbn] = useState("");
  const [tab, setTab] = useState("");
  const [price, setPrice] = useState("");
  const [listPrice, setListPrice] = useState("");
  const [pages, setPages] = useState("");
  const [coverChar, setCoverChar] = useState("");
  const [summary, setSummary] = useState("");
  const [stock, setStock] = useState("0");
  const [onSale, setOnSale] = useState(false);
  const [cover, setCover] = useState<File | null>(null);
  const action = useAction();
  const navigate = useNavigate();
  const submit = () => {
    const body = {
      title,
      author,
      publisher,
      isbn: isbn.trim().toUpperCase(),
      tab,
      priceCents: centsOf(price),
      originalPriceCents: centsOf(listPrice.trim() === "" ? price : listPrice),
      coverChar,
      summary,
      pages: wholeOr(pages, null),
      stock: wholeOr(stock, 0),
      status: onSale ? ("published" as const) : ("draft" as const),
    };
    const checked = bookCreateSchema.safeParse(body);
    const coverProblem = coverFileProblem(cover);
    if (!checked.success || coverProblem) {
      const fields = checked.success ? {} : fieldErrorsOf(checked.error.issues);
      action.refuse(coverProblem ? { ...fields, cover: coverProblem } : fields);
      return;
    }
    void action
      .run(async () => {
        const book = await browserApi("/api/admin/books", { method: "POST", body, schema: adminBookDetailSchema });
        const notice = await sendCover(`/api/admin/books/${book.id}/cover`, cover);
        return { id: book.id, notice };
      })
      .then((created) => {
        if (!created) return;
        const state: CreatedState = { notice: created.notice };
        void navigate(`/admin/books/${created.id}`, { state });
      });
  };
  const err = (name: string) => action.fields[name];
  return (
    <form
      className="staff-form"
      aria-label="图书信息"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <InputField label="书名" value={title} onChange={setTitle} error={err("title")} required maxLength={80} />
      <InputField label="作者" value={author} onChange={setAuthor} error={err("author")} required maxLength={60} />
      <InputField
        label="出版社"
        value={publisher}
        onChange={setPublisher}
        error={err("publisher")}
        required
        maxLength={60}
      />
      <InputField
        label="ISBN"
        value={isbn}
        onChange={setIsbn}
        error={err("isbn")}
        hint="10 或 13 位，不带横线"
        required
        maxLength={13}
      />
      <InputField
        label="分类"
        value={tab}
        onChange={setTab}
        error={err("tab")}
        hint="书籍页的分类标签，如 字帖、碑帖"
        required
        maxLength={20}
      />
      <MoneyField label="售价（元）" value={price} onChange={setPrice} error={err("priceCents")} required />
      <MoneyField
        label="划线价（元）"
        value={listPrice}
        onChange={setListPrice}
        error={err("originalPriceCents")}
        hint="不低于售价；不填则与售价相同"
      />
      <InputField label="页数" value={pages} onChange={setPages} error={err("pages")} inputMode="numeric" />
      <InputField
        label="封面字"
        value={coverChar}
        onChange={setCoverChar}
        error={err("coverChar")}
        hint="没有封面图片时，封面上写的一个字"
        required
        maxLength={2}
      />
      <InputField
        label="初始库存（本）"
        value={stock}
        onChange={setStock}
        error={err("stock")}
        hint="记入库存变动记录，原因为“初始库存”"
        inputMode="numeric"
      />
      <CoverPicker error={err("cover")} hint="JPEG、PNG 或 WebP，不超过 5 MB；裁成 3:4" onPick={setCover} />
      <OnSaleChoice checked={onSale} onChange={setOnSale} error={err("status")} />
      <TextAreaField
        label="简介"
        value={summary}
        onChange={setSummary}
        error={err("summary")}
        rows={3}
        maxLength={1000}
      />
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? "正在创建…" : "创建图书"}
        </button>
        <ActionMessage state={action} />
      </div>
    </form>
  );
}

export default function BookNewPage() {
  return (
    <Page title="新建图书" lead={<Link to="/admin/books">← 图书列表</Link>} className="catalogue-edit">
      <section className="card staff-panel" aria-labelledby="book-new-title">
        <h2 id="book-new-title">图书信息</h2>
        <BookCreateForm />
      </section>
    </Page>
  );
}
