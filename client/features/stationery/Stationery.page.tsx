/**
 * The stationery shop: category tabs, "in stock only", sorts by sales, price or date, and page
 * links. Every choice lives in the query string, so a filtered list can be shared and reloaded.
 */
import { useState } from "react";
import { useLoaderData, useLocation, useNavigate, useNavigation } from "react-router-dom";
import { Link } from "../../routing/link";
import { type CommoditySort, commoditySorts } from "../../../shared/contracts/shop";
import { CommodityCard } from "../../components/cards/CatalogueCards";
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

const PAGE_SIZE = 16;

/** The address's filters, tolerant of hand-edited values (an odd sort or page falls back). */
function filtersOf(url: URL) {
  const category = (url.searchParams.get("category") ?? "").trim().slice(0, 20);
  const sortParam = url.searchParams.get("sort") ?? "";
  const sort: CommoditySort = sortParam in commoditySorts ? (sortParam as CommoditySort) : "sales";
  const inStock = url.searchParams.get("inStock") === "1";
  const pageParam = url.searchParams.get("page") ?? "";
  const page = /^[1-9]\d{0,2}$/.test(pageParam) ? Number(pageParam) : 1;
  return { category, sort, inStock, page };
}

export async function loader({ env, request, signal }: PageLoaderArgs) {
  const { category, sort, inStock, page } = filtersOf(new URL(request.url));
  const query = new URLSearchParams({ sort, page: String(page), pageSize: String(PAGE_SIZE) });
  if (category) query.set("category", category);
  if (inStock) query.set("inStock", "1");
  const list = await env.api(`/api/shop/commodities?${query}`, {
    signal,
    schema: shopContract().then((m) => m.commodityListSchema),
  });
  const title = category ? `${category} · 文房` : "文房";
  return {
    list,
    meta: {
      title: page > 1 ? `${title} · 第 ${page} 页` : title,
      description: category
        ? `${category} ${list.total} 件：规格、价格与库存一目了然，按销量或价格挑选。`
        : "毛笔、墨汁、宣纸、砚台、字帖纸、硬笔和文具：练字用的文房用品，注明适合的书体和学习阶段。",
      canonicalSearch: withQuery("", { category: category || null, page: page > 1 ? page : null }),
    },
  };
}

export default function StationeryPage() {
  const { list } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const busy = useReloadingList();
  // While the next list loads, the box already shows what was asked for.
  const pending = useNavigation().location;
  // The click itself sets the box at once (a discrete event renders synchronously), before the
  // router reports the navigation; a new list resets it to what was loaded.
  const [clicked, setClicked] = useState({ loaded: list.inStock, value: list.inStock });
  if (clicked.loaded !== list.inStock) setClicked({ loaded: list.inStock, value: list.inStock });
  const inStockShown =
    pending?.pathname === location.pathname
      ? new URLSearchParams(pending.search).get("inStock") === "1"
      : clicked.loaded === list.inStock
        ? clicked.value
        : list.inStock;
  const at = (changes: Record<string, string | number | null>) => `/stationery${withQuery(location.search, changes)}`;
  const filtered = list.category !== null || list.inStock;

  const tabs = [
    {
      key: "",
      label: "全部",
      count: list.allCount,
      to: at({ category: null, page: null }),
      active: list.category === null,
    },
    ...list.categories.map((c) => ({
      key: c.name,
      label: c.name,
      count: c.count,
      to: at({ category: c.name, page: null }),
      active: c.name === list.category,
    })),
  ];
  const sorts = (Object.keys(commoditySorts) as CommoditySort[]).map((key) => ({
    key,
    label: commoditySorts[key],
    to: at({ sort: key === "sales" ? null : key, page: null }),
    active: key === list.sort,
  }));

  return (
    <Page
      title={list.category ?? undefined}
      lead="笔、墨、纸、砚与练字用的小物件。每件都标明规格和库存，按销量或价格挑选。"
    >
      <FilterTabs label="文房分类" items={tabs} />
      <div className="shop-toolbar">
        <p className="shop-toolbar__summary">
          {`共 ${list.total} 件${list.inStock ? "有货商品" : "商品"}`}
          {list.pageCount > 1 ? ` · 第 ${list.page} / ${list.pageCount} 页` : ""}
        </p>
        <div className="shop-toolbar__filters">
          <label className="stock-filter">
            <input
              type="checkbox"
              checked={inStockShown}
              onChange={(e) => {
                setClicked({ loaded: list.inStock, value: e.target.checked });
                void navigate(at({ inStock: e.target.checked ? "1" : null, page: null }), { preventScrollReset: true });
              }}
            />
            只看有货
          </label>
          <SortLinks items={sorts} />
        </div>
      </div>
      <h2 className="visually-hidden">商品列表</h2>
      <ResultList busy={busy}>
        {list.items.length > 0 ? (
          <ul className="catalogue-grid">
            {list.items.map((commodity, index) => (
              <li key={commodity.id}>
                {/* The first row (five columns at the site's width) is above the fold. */}
                <CommodityCard commodity={commodity} priority={index < 5} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            glyph="砚"
            title={list.total > 0 ? "这一页没有商品了" : "没有符合条件的商品"}
            action={
              list.total > 0 ? (
                <Link className="button" to={at({ page: null })}>
                  回到第一页
                </Link>
              ) : filtered ? (
                <Link className="button" to="/stationery">
                  清除筛选，看全部文房
                </Link>
              ) : (
                <Link className="button" to="/books">
                  看看书籍
                </Link>
              )
            }
          >
            <p>
              {list.total > 0
                ? `一共 ${list.pageCount} 页。`
                : filtered
                  ? "换个分类，或取消“只看有货”再看看。"
                  : "文房用品正在上架，过几天再来看看。"}
            </p>
          </EmptyState>
        )}
        <Pagination page={list.page} pageCount={list.pageCount} hrefFor={(p) => at({ page: p > 1 ? p : null })} />
      </ResultList>
    </Page>
  );
}
