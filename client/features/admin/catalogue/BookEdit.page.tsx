/** 图书 (/admin/books/:id): price and status, the cover, and stock changes with their reasons and history. */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  type AdminBookDetail,
  PUBLISH_STATE_LABELS,
  adminBookDetailSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { ActionMessage, Field, centsOf, useAction, yuanOf } from "../../../components/staff/staff-kit";
import { browserApi } from "../../../lib/api";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { CreatedNotice } from "./goods-form";
import { CoverUpload, StockForm, StockHistory } from "./stock-parts";
import "./catalogue.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const book = await env.api(`/api/admin/books/${params.id ?? ""}`, { signal, schema: adminBookDetailSchema });
  return { book, meta: { title: book.title, noindex: true } };
}

function PriceForm({ book }: { book: AdminBookDetail }) {
  const [price, setPrice] = useState(yuanOf(book.priceCents));
  const [listPrice, setListPrice] = useState(yuanOf(book.originalPriceCents));
  const action = useAction();
  const revalidator = useRevalidator();
  const published = book.status === "published";
  const patch = (body: Record<string, unknown>, done: string) =>
    void action
      .run(() => browserApi(`/api/admin/books/${book.id}`, { method: "PATCH", body }), done)
      .then(() => revalidator.revalidate());
  return (
    <form
      className="staff-form"
      aria-label="价格"
      onSubmit={(event) => {
        event.preventDefault();
        patch({ priceCents: centsOf(price), originalPriceCents: centsOf(listPrice) }, "价格已保存");
      }}
    >
      <Field label="售价（元）" error={action.fields.priceCents}>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
          />
        )}
      </Field>
      <Field label="划线价（元）" error={action.fields.originalPriceCents}>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            inputMode="decimal"
            value={listPrice}
            onChange={(e) => setListPrice(e.target.value)}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          保存价格
        </button>
        <span className={`staff-badge${published ? " staff-badge--on" : ""}`}>{PUBLISH_STATE_LABELS[book.status]}</span>
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

export default function BookEditPage() {
  const { book } = useLoaderData<typeof loader>();
  return (
    <Page title={book.title} lead={<Link to="/admin/books">← 图书列表</Link>}>
      <CreatedNotice />
      <section className="card staff-panel" aria-labelledby="book-price">
        <h2 id="book-price">
          {book.author} · {book.publisher} · ISBN {book.isbn}
        </h2>
        <PriceForm key={book.updatedAt} book={book} />
      </section>
      <section className="card staff-panel" aria-labelledby="book-cover">
        <h2 id="book-cover">封面</h2>
        <CoverUpload
          endpoint={`/api/admin/books/${book.id}/cover`}
          coverImage={book.coverImage}
          coverChar={book.coverChar}
          alt="图书封面"
          hint="JPEG、PNG 或 WebP，不超过 5 MB；裁成 3:4"
          width={90}
          height={120}
        />
      </section>
      <section className="card staff-panel" aria-labelledby="book-stock">
        <h2 id="book-stock">库存：{book.stock} 本</h2>
        <StockForm endpoint={`/api/admin/books/${book.id}/stock`} />
        <StockHistory history={book.history} />
      </section>
    </Page>
  );
}
