/** Books by tab (`?tab=`), sorted (`?sort=`) and paged (`?page=`), all in the address. */
import { useLoaderData, useLocation } from "react-router-dom";
import { Link } from "../../routing/link";
import { type BookSort, bookSorts } from "../../../shared/contracts/shop";
import { BookCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import {
  FilterTabs,
  Pagination,
  ResultList,
  SortLinks,
  useReloadingList,
  withQuery,
} from "../../components/shop/shop-list";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const shopContract = () => import("../../../shared/contracts/shop");

const PAGE_SIZE = 20;

/** The address's filters, tolerant of hand-edited values (an odd sort or page falls back). */
function filtersOf(url: URL) {
  const tab = (url.searchParams.get("tab") ?? "").trim().slice(0, 20);
  const sortParam = url.searchParams.get("sort") ?? "";
  const sort: BookSort = sortParam in bookSorts ? (sortParam as BookSort) : "newest";
  const pageParam = url.searchParams.get("page") ?? "";
  const page = /^[1-9]\d{0,2}$/.test(pageParam) ? Number(pageParam) : 1;
  return { tab, sort, page };
}

export async function loader({ env, request, signal }: PageLoaderArgs) {
  const { tab, sort, page } = filtersOf(new URL(request.url));
  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(PAGE_SIZE) });
  if (tab) query.set("tab", tab);
  const list = await env.api(`/api/shop/books?${query}`, {
    signal,
    schema: shopContract().then((m) => m.bookListSchema),
  });
  const title = tab ? `${tab} · 书籍` : "书籍分类";
  return {
    list,
    meta: {
      title: page > 1 ? `${title} · 第 ${page} 页` : title,
      description: tab
        ? `${tab}类书籍 ${list.total} 种：作者、出版社、价格与库存一目了然。`
        : `全部 ${list.allCount} 种书籍，按碑帖、技法、理论、硬笔字帖、国学经典、写作分类浏览。`,
      canonicalSearch: withQuery("", { tab: tab || null, page: page > 1 ? page : null }),
    },
  };
}

export default function BookTabsPage() {
  const { list } = useLoaderData<typeof loader>();
  const location = useLocation();
  const busy = useReloadingList();
  const tabKnown = list.tab === null || list.tabs.some((t) => t.name === list.tab);
  const title = list.tab ?? "全部书籍";

  const tabs = [
    {
      key: "",
      label: "全部",
      count: list.allCount,
      to: `/books/tabs${withQuery(location.search, { tab: null, page: null })}`,
      active: list.tab === null,
    },
    ...list.tabs.map((t) => ({
      key: t.name,
      label: t.name,
      count: t.count,
      to: `/books/tabs${withQuery(location.search, { tab: t.name, page: null })}`,
      active: t.name === list.tab,
    })),
  ];
  const sorts = (Object.keys(bookSorts) as BookSort[]).map((key) => ({
    key,
    label: bookSorts[key],
    to: `/books/tabs${withQuery(location.search, { sort: key === "newest" ? null : key, page: null })}`,
    active: key === list.sort,
  }));

  return (
    <Page title={title} lead="按分类找书：临帖用的碑帖字帖、讲笔法的技法书，和史论、国学、写作读物。">
      <FilterTabs label="书籍分类" items={tabs} />
      <div className="shop-toolbar">
        <p className="shop-toolbar__summary">
          {tabKnown ? `共 ${list.total} 本` : `没有名为「${list.tab}」的分类`}
          {list.pageCount > 1 ? ` · 第 ${list.page} / ${list.pageCount} 页` : ""}
        </p>
        <SortLinks items={sorts} />
      </div>
      <h2 className="visually-hidden">书籍列表</h2>
      <ResultList busy={busy}>
        {list.items.length > 0 ? (
          <ul className="catalogue-grid catalogue-grid--books">
            {list.items.map((book) => (
              <li key={book.id}>
                <BookCard book={book} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            glyph="卷"
            title={list.total > 0 ? "这一页没有书了" : `「${title}」下暂时没有书`}
            action={
              <Link
                className="button"
                to={list.total > 0 ? `/books/tabs${withQuery(location.search, { page: null })}` : "/books/tabs"}
              >
                {list.total > 0 ? "回到第一页" : "看看全部书籍"}
              </Link>
            }
          >
            <p>{list.total > 0 ? `这个分类一共 ${list.pageCount} 页。` : "换个分类看看，或者到书籍首页逛逛新书。"}</p>
          </EmptyState>
        )}
        <Pagination
          page={list.page}
          pageCount={list.pageCount}
          hrefFor={(p) => `/books/tabs${withQuery(location.search, { page: p > 1 ? p : null })}`}
        />
      </ResultList>
    </Page>
  );
}
