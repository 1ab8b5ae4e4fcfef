/** The book shop's front: every tab with its count, the newest books, and the favourites of each tab. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { BookCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "../../components/shop/shop.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const shopContract = () => import("../../../shared/contracts/shop");

export async function loader({ env, signal }: PageLoaderArgs) {
  const overview = await env.api("/api/shop/books/overview", {
    signal,
    schema: shopContract().then((m) => m.bookOverviewSchema),
  });
  return {
    overview,
    meta: {
      title: "书籍",
      description: `碑帖字帖、技法教程、书法理论与国学读物共 ${overview.allCount} 种，与课程配套，注明适合的学习阶段。`,
    },
  };
}

const tabHref = (tab: string) => `/books/tabs?tab=${encodeURIComponent(tab)}`;

export default function BooksPage() {
  const { overview } = useLoaderData<typeof loader>();
  if (overview.allCount === 0) {
    return (
      <Page>
        <EmptyState
          glyph="书"
          title="书架还空着"
          action={
            <Link className="button" to="/stationery">
              看看文房
            </Link>
          }
        >
          <p>新一批字帖和读物正在上架，过几天再来看看。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page lead="临帖用的碑帖字帖、讲笔法结构的技法书，和书法史论、国学经典、写作读物，都与课程配套。">
      <ul className="tab-chips" aria-label="书籍分类">
        <li>
          <Link to="/books/tabs">
            全部书籍 <span>{overview.allCount}</span>
          </Link>
        </li>
        {overview.tabs.map((tab) => (
          <li key={tab.name}>
            <Link to={tabHref(tab.name)}>
              {tab.name} <span>{tab.count}</span>
            </Link>
          </li>
        ))}
      </ul>

      <section className="shelf" aria-labelledby="books-newest">
        <header className="shelf__head">
          <h2 className="shelf__title" id="books-newest">
            新书上架
          </h2>
          <Link className="shelf__more" to="/books/tabs?sort=newest">
            全部新书
          </Link>
        </header>
        <ul className="catalogue-grid catalogue-grid--books catalogue-grid--five">
          {overview.newest.map((book) => (
            <li key={book.id}>
              {/* The first shelf is above the fold: its covers come with the document. */}
              <BookCard book={book} priority />
            </li>
          ))}
        </ul>
      </section>

      {overview.tabs.map((tab, index) => (
        <section className="shelf" key={tab.name} aria-labelledby={`books-tab-${index}`}>
          <header className="shelf__head">
            <h2 className="shelf__title" id={`books-tab-${index}`}>
              {tab.name}
              <span className="shelf__count">{tab.count} 本</span>
            </h2>
            <Link className="shelf__more" to={tabHref(tab.name)}>
              查看全部{tab.name}
            </Link>
          </header>
          <ul className="catalogue-grid catalogue-grid--books catalogue-grid--five">
            {tab.books.map((book) => (
              <li key={book.id}>
                <BookCard book={book} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Page>
  );
}
