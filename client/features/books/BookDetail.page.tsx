/**
 * One book: cover, bibliographic facts, price and stock, a quantity bounded by the stock, and
 * a buy button that says honestly that online ordering is not open yet. Unknown ids are 404.
 */
import { useState } from "react";
import { Link, useLoaderData } from "react-router-dom";
import {
  type BookDetail,
  bookDetailSchema,
  bookStockLabel,
  formatIsbn,
  LOW_STOCK,
} from "../../../shared/contracts/shop";
import { coverSizes, coverUrl } from "../../../shared/media";
import { BookCard, Price } from "../../components/cards/CatalogueCards";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { OrderingSoonDialog, QuantityStepper, formatDay } from "../shop/shop-parts";

const yuan = (cents: number) => (cents / 100).toFixed(2);

export async function loader({ env, params, signal }: PageLoaderArgs) {
  // An unknown id answers 404, which the page pipeline turns into the 404 page.
  const book = await env.api(`/api/shop/books/${params.id}`, { signal, schema: bookDetailSchema });
  const image = coverUrl(book.coverChar, "gold", "portrait");
  return {
    book,
    meta: {
      title: `《${book.title}》`,
      description: `${book.author} 著，${book.publisher}。${book.summary}`.slice(0, 150),
      image,
      type: "book",
      jsonLd: {
        "@type": "Book",
        name: book.title,
        author: { "@type": "Person", name: book.author },
        publisher: { "@type": "Organization", name: book.publisher },
        isbn: book.isbn,
        ...(book.pages ? { numberOfPages: book.pages } : {}),
        ...(book.publishedOn ? { datePublished: book.publishedOn } : {}),
        inLanguage: "zh-CN",
        description: book.summary,
        image: new URL(image, book.url).toString(),
        url: book.url,
        offers: {
          "@type": "Offer",
          price: yuan(book.priceCents),
          priceCurrency: "CNY",
          availability: book.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          url: book.url,
        },
      },
    },
  };
}

function stockClass(stock: number): string {
  if (stock <= 0) return "stock-state stock-state--out";
  return stock <= LOW_STOCK ? "stock-state stock-state--low" : "stock-state";
}

export default function BookDetailPage() {
  const { book } = useLoaderData() as { book: BookDetail };
  // Keyed: moving to a related book starts again at one copy.
  return <BookView key={book.id} book={book} />;
}

function BookView({ book }: { book: BookDetail }) {
  const [quantity, setQuantity] = useState(1);
  const [noticeOpen, setNoticeOpen] = useState(false);
  const size = coverSizes.portrait;
  const soldOut = book.stock <= 0;

  return (
    <Page title={book.title} className="page--book">
      <div className="product product--book">
        <div className="product__cover">
          <LazyImage
            src={coverUrl(book.coverChar, "gold", "portrait")}
            alt={`《${book.title}》封面`}
            width={size.width}
            height={size.height}
          />
        </div>
        <div className="product__info">
          <p className="product__byline">
            {book.author} 著 · {book.publisher}
          </p>
          <dl className="product__facts">
            <dt>作者</dt>
            <dd>{book.author}</dd>
            <dt>出版社</dt>
            <dd>{book.publisher}</dd>
            <dt>ISBN</dt>
            <dd>{formatIsbn(book.isbn)}</dd>
            {book.pages ? (
              <>
                <dt>页数</dt>
                <dd>{book.pages} 页</dd>
              </>
            ) : null}
            {book.publishedOn ? (
              <>
                <dt>出版日期</dt>
                <dd>{formatDay(book.publishedOn)}</dd>
              </>
            ) : null}
            <dt>分类</dt>
            <dd>
              <Link className="text-link" to={`/books/tabs?tab=${encodeURIComponent(book.tab)}`}>
                {book.tab}
              </Link>
            </dd>
          </dl>

          <div className="buy-box">
            <div className="buy-box__price">
              <Price cents={book.priceCents} originalCents={book.originalPriceCents} />
              <span className={stockClass(book.stock)} data-testid="stock-state">
                {bookStockLabel(book.stock)}
              </span>
            </div>
            <QuantityStepper value={quantity} max={book.stock} unit="本" disabled={soldOut} onChange={setQuantity} />
            <div className="buy-box__actions">
              <button
                type="button"
                className="button button--primary"
                disabled={soldOut}
                onClick={() => setNoticeOpen(true)}
              >
                {soldOut ? "暂时缺货" : "立即购买"}
              </button>
            </div>
            <p className="buy-box__note">
              {soldOut
                ? "这本书正在补货，补货后会在这里恢复购买。"
                : "在线下单即将开放，现在点击购买会告诉您如何订购。"}
            </p>
          </div>
        </div>
      </div>

      <section className="product-section" aria-labelledby="book-summary">
        <h2 id="book-summary">内容简介</h2>
        <p className="product-section__text">{book.summary || "这本书还没有简介。"}</p>
      </section>

      {book.related.length > 0 ? (
        <section className="product-section" aria-labelledby="book-related">
          <h2 id="book-related">同类书籍 · {book.tab}</h2>
          <ul className="catalogue-grid catalogue-grid--books">
            {book.related.map((b) => (
              <li key={b.id}>
                <BookCard book={b} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <OrderingSoonDialog
        open={noticeOpen}
        onClose={() => setNoticeOpen(false)}
        item={`《${book.title}》× ${quantity}`}
      />
    </Page>
  );
}
