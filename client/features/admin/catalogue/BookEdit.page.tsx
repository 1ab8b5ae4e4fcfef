/** 图书 (/admin/books/:id): price and status, the cover, and stock changes with their reasons and history. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { type AdminBookDetail, adminBookDetailSchema } from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { centsOf, yuanOf } from "../../../components/staff/staff-kit";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { GoodsPatchForm } from "./goods-editor";
import { CreatedNotice } from "./goods-form";
import { CoverUpload, StockForm, StockHistory } from "./stock-parts";
import "./catalogue.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const book = await env.api(`/api/admin/books/${params.id ?? ""}`, { signal, schema: adminBookDetailSchema });
  return { book, meta: { title: book.title, noindex: true } };
}

function PriceForm({ book }: { book: AdminBookDetail }) {
  return (
    <GoodsPatchForm
      label="价格"
      endpoint={`/api/admin/books/${book.id}`}
      status={book.status}
      fields={[
        { name: "priceCents", label: "售价（元）", type: "decimal", initial: yuanOf(book.priceCents) },
        {
          name: "originalPriceCents",
          label: "划线价（元）",
          type: "decimal",
          initial: yuanOf(book.originalPriceCents),
        },
      ]}
      body={(typed) => ({
        priceCents: centsOf(typed("priceCents")),
        originalPriceCents: centsOf(typed("originalPriceCents")),
      })}
      saveLabel="保存价格"
      savedText="价格已保存"
    />
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
