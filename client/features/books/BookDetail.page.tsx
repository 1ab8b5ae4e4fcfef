/**
 * One book: cover, bibliographic facts, price and stock, a quantity bounded by the stock, and
 * a buy button that says honestly that online ordering is not open yet. Unknown ids are 404.
 */
import { useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { type BookDetail, bookStockLabel, formatIsbn } from "../../../shared/contracts/shop";
import { bookByline } from "../../../shared/catalogue";
import { coverOf, coverSizes, coverUrl } from "../../../shared/media";
import { BookCard, Price } from "../../components/cards/CatalogueCards";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { useBuy } from "../../components/commerce/useBuy";
import { BuyActions, ProductSection, QuantityStepper, StockState } from "../../components/shop/product-buy";
import { formatDate } from "../../../shared/format";
import { formatYuan } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const shopContract = () => import("../../../shared/contracts/shop");

export async function loader({ env, params, signal }: PageLoaderArgs) {
  // An unknown id answers 404, which the page pipeline turns into the 404 page.
  const book = await env.api(`/api/shop/books/${params.id}`, {
    signal,
    schema: shopContract().then((m) => m.bookDetailSchema),
  });
  const image = coverUrl(book.coverChar, "gold", "portrait");
  return {
    book,
    meta: {
      title: `《${book.title}》`,
      description: `${bookByline(book.author, book.tab)}，${book.publisher}。${book.summary}`.slice(0, 150),
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
          price: formatYuan(book.priceCents),
          priceCurrency: "CNY",
          availability: book.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          url: book.url,
        },
      },
    },
  };
}

export default function BookDetailPage() {
  const { book } = useLoaderData<typeof loader>();
  // Keyed: moving to a related book starts again at one copy.
  return <BookView key={book.id} book={book} />;
}

function BookView({ book }: { book: BookDetail }) {
  const [quantity, setQuantity] = useState(1);
  const purchase = useBuy({ itemType: "book", itemId: book.id, quantity, label: `《${book.title}》× ${quantity}` });
  const size = coverSizes.portrait;
  const soldOut = book.stock <= 0;

  return (
    <Page title={book.title} className="page--book">
      <div className="product product--book">
        <div className="product__cover">
          <LazyImage
            src={coverOf(book, "gold", "portrait")}
            alt={`《${book.title}》封面`}
            width={size.width}
            height={size.height}
            // The page's largest paint: fetched with the document, not after hydration.
            priority
          />
        </div>
        <div className="product__info">
          <p className="product__byline">{`${bookByline(book.author, book.tab)} · ${book.publisher}`}</p>
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
                <dd>{formatDate(book.publishedOn)}</dd>
              </>
            ) : null}
            <dt>分类</dt>
            <dd>
              <Link className="text-link" to={`/books/tabs?tab=${encodeURIComponent(book.tab)}`}>
                {book.tab}
              </Link>
            </dd>
          </dl>

          <div className="card buy-box">
            <div className="buy-box__price">
              <Price cents={book.priceCents} originalCents={book.originalPriceCents} />
              <StockState stock={book.stock} label={bookStockLabel(book.stock)} />
            </div>
            <QuantityStepper value={quantity} max={book.stock} unit="本" disabled={soldOut} onChange={setQuantity} />
            <BuyActions
              soldOut={soldOut}
              soldOutLabel="暂时缺货"
              soldOutNote="这本书正在补货，补货后会在这里恢复购买。"
              problem={purchase.problem}
              off={purchase.off}
              onBuy={purchase.buy}
              onIntent={purchase.preload}
            />
          </div>
        </div>
      </div>

      <ProductSection id="book-summary" title="内容简介">
        <p className="product-section__text">{book.summary || "这本书还没有简介。"}</p>
      </ProductSection>

      {book.related.length > 0 ? (
        <ProductSection id="book-related" title={`同类书籍 · ${book.tab}`}>
          <ul className="catalogue-grid catalogue-grid--books">
            {book.related.map((b) => (
              <li key={b.id}>
                <BookCard book={b} />
              </li>
            ))}
          </ul>
        </ProductSection>
      ) : null}

      {purchase.dialogs}
    </Page>
  );
}
