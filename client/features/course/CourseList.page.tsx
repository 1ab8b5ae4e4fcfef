/**
 * The course catalogue (/product/list): filters by category, kind, level and price, and the
 * sort, all as links that change the query string, so any list can be shared and is rendered
 * on the server. The browser loads the following pages as the reader scrolls (infinite list);
 * real previous/next links serve crawlers and visitors without script.
 */
import { type ReactNode, useCallback, useRef, useState } from "react";
import { data, useLoaderData, useLocation, useNavigation } from "react-router-dom";
import { Link } from "../../routing/link";
import { courseCategories, courseCategoryName } from "../../../shared/catalogue";
import { type CourseSummary, courseKinds, courseLevels } from "../../../shared/contracts/catalogue";
import { COURSE_PAGE_SIZE, type CourseList, coursePriceFilters, courseSorts } from "../../../shared/contracts/courses";
import { CourseCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { InfiniteList, type InfiniteLoadState } from "../../lib/infinite-list";
import type { PageLoaderArgs } from "../../routing/nav-context";
import {
  apiListPath,
  LIST_PATH,
  type ListParam,
  type ListQuery,
  listHref,
  listSearch,
  pageHref,
  parseListQuery,
  pendingListQuery,
} from "./list-query";
import "./course.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const coursesContract = () => import("../../../shared/contracts/courses");

type ListData = { list: CourseList; query: ListQuery; title: string } | { invalid: string; title: string };

function titleOf(query: Partial<ListQuery>): string {
  const category = query.category ? courseCategoryName(query.category) : undefined;
  const base = category ? `${category}课程` : "课程";
  return query.page && query.page > 1 ? `${base}（第 ${query.page} 页）` : base;
}

function descriptionOf(query: ListQuery): string {
  const category = query.category ? courseCategoryName(query.category) : undefined;
  const parts = [
    query.price ? coursePriceFilters[query.price] : null,
    query.level ? courseLevels[query.level] : null,
    query.kind ? courseKinds[query.kind] : "录播课、直播课与训练营",
  ].filter(Boolean);
  return `${category ? `${category}方向的` : "楷书、行书、隶书、篆书、草书、硬笔、写作与国学"}${parts.join("")}：名师授课，按学习阶段挑选，付费课程可免费试看。`;
}

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const parsed = await parseListQuery(new URL(request.url).searchParams);
  if (!parsed.ok) {
    const body: ListData = { invalid: parsed.message, title: "课程" };
    return data({ ...body, meta: { title: "筛选条件有误", noindex: true } }, { status: 400 });
  }
  const { query } = parsed;
  const list = await env.api(apiListPath(query, query.page), {
    signal,
    schema: coursesContract().then((m) => m.courseListSchema),
  });
  const title = titleOf(query);
  const offset = (query.page - 1) * COURSE_PAGE_SIZE;
  const body: ListData = { list, query, title };
  return {
    ...body,
    meta: {
      title,
      description: descriptionOf(query),
      canonicalSearch: listSearch(query),
      // A page past the end has nothing to index.
      noindex: list.items.length === 0,
      jsonLd: {
        "@type": "ItemList",
        name: title,
        numberOfItems: list.items.length,
        itemListElement: list.items.map((course, i) => ({
          "@type": "ListItem",
          position: offset + i + 1,
          url: `/course/${course.id}`,
          name: course.title,
        })),
      },
    },
  };
}

const filterGroups: Array<{ name: Exclude<ListParam, "page" | "sort">; label: string; options: [string, string][] }> = [
  { name: "category", label: "分类", options: courseCategories.map((c) => [c.key, c.name]) },
  { name: "kind", label: "类型", options: Object.entries(courseKinds) },
  { name: "level", label: "难度", options: Object.entries(courseLevels) },
  { name: "price", label: "价格", options: Object.entries(coursePriceFilters) },
];

/** A filter or sort choice: a real link (crawlers follow it too) that keeps the scroll position. */
function ChoiceLink({
  className,
  to,
  active,
  children,
}: {
  className: string;
  to: string;
  active: boolean;
  children: ReactNode;
}) {
  return (
    <Link
      className={`${className}${active ? " is-active" : ""}`}
      to={to}
      aria-current={active ? "true" : undefined}
      preventScrollReset
    >
      {children}
    </Link>
  );
}

function Filters({ query }: { query: ListQuery }) {
  return (
    <nav className="card course-filters" aria-label="筛选课程">
      {filterGroups.map((group) => {
        const current = query[group.name];
        return (
          <div className="course-filters__row" key={group.name}>
            <span className="course-filters__label" id={`filter-${group.name}`}>
              {group.label}
            </span>
            <ul className="course-filters__options" aria-labelledby={`filter-${group.name}`}>
              {[["", "全部"] as [string, string], ...group.options].map(([value, label]) => {
                const active = (current ?? "") === value;
                return (
                  <li key={value || "all"}>
                    <ChoiceLink
                      className="course-filters__option"
                      to={listHref(query, group.name, value || undefined)}
                      active={active}
                    >
                      {label}
                    </ChoiceLink>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}

function SortBar({ query, total }: { query: ListQuery; total: number }) {
  return (
    <div className="course-sort">
      <p className="course-sort__total" role="status">
        共 <strong>{total}</strong> 门课程
      </p>
      <ul className="course-sort__options" aria-label="排序">
        {Object.entries(courseSorts).map(([value, label]) => {
          const active = query.sort === value;
          return (
            <li key={value}>
              <ChoiceLink className="course-sort__option" to={listHref(query, "sort", value)} active={active}>
                {label}
              </ChoiceLink>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** One list: the server's page, then the pages the browser adds. Remounted when the query changes. */
function Results({ list, query }: { list: CourseList; query: ListQuery }) {
  const [more, setMore] = useState<CourseSummary[]>([]);
  const [lastPage, setLastPage] = useState(list.page);
  const [hasMore, setHasMore] = useState(list.hasMore);
  // A ref, not state: the list may ask again before React has re-rendered with the new page.
  const nextPage = useRef(list.page + 1);

  const loadMore = useCallback(
    async (state: InfiniteLoadState) => {
      try {
        const page = await browserApi(apiListPath(query, nextPage.current), {
          schema: coursesContract().then((m) => m.courseListSchema),
        });
        nextPage.current = page.page + 1;
        setMore((prev) => [...prev, ...page.items.filter((c) => !prev.some((p) => p.id === c.id))]);
        setLastPage(page.page);
        setHasMore(page.hasMore);
        state.loaded();
        if (!page.hasMore) state.complete();
      } catch {
        state.error();
      }
    },
    [query],
  );

  if (list.total === 0) {
    return (
      <EmptyState
        glyph="寻"
        title="没有找到符合条件的课程"
        action={
          <Link className="button" to={LIST_PATH}>
            清除筛选条件
          </Link>
        }
      >
        <p>换个分类或难度试试，也可以看看全部课程。</p>
      </EmptyState>
    );
  }
  if (list.items.length === 0) {
    return (
      <EmptyState
        glyph="页"
        title="这一页没有课程"
        action={
          <Link className="button" to={pageHref(query, 1)}>
            回到第一页
          </Link>
        }
      >
        <p>符合条件的课程共 {list.total} 门，已经在前面的页里了。</p>
      </EmptyState>
    );
  }

  const items = [...list.items, ...more];
  const totalPages = Math.max(1, Math.ceil(list.total / COURSE_PAGE_SIZE));
  return (
    <>
      <h2 className="visually-hidden">课程列表</h2>
      <ul className="course-grid">
        {items.map((course, index) => (
          <li key={course.id}>
            {/* The first row (four columns) is above the fold: its covers come with the document. */}
            <CourseCard course={course} priority={index < 4} />
          </li>
        ))}
      </ul>
      {list.hasMore ? <InfiniteList onLoad={loadMore} className="course-list__more" /> : null}
      <nav className="pager" aria-label="分页">
        {list.page > 1 ? (
          <Link className="pager__link" to={pageHref(query, list.page - 1)} rel="prev">
            ‹ 上一页
          </Link>
        ) : (
          <span className="pager__link is-disabled">‹ 上一页</span>
        )}
        <span className="pager__current">
          第 {lastPage > list.page ? `${list.page}–${lastPage}` : list.page} 页 / 共 {totalPages} 页
        </span>
        {hasMore ? (
          <Link className="pager__link" to={pageHref(query, lastPage + 1)} rel="next">
            下一页 ›
          </Link>
        ) : (
          <span className="pager__link is-disabled">下一页 ›</span>
        )}
      </nav>
    </>
  );
}

export default function CourseListPage() {
  const loaded = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const updating = navigation.state === "loading" && navigation.location.pathname === LIST_PATH;
  // While another list loads, the choices show it and build on it (pendingListQuery).
  const chosen = updating ? pendingListQuery(navigation.location.search) : null;

  if ("invalid" in loaded) {
    return (
      <Page title="课程">
        <EmptyState
          glyph="误"
          title="筛选条件有误"
          action={
            <Link className="button" to={LIST_PATH}>
              查看全部课程
            </Link>
          }
        >
          <p>{loaded.invalid}。请重新选择分类、类型、难度或价格。</p>
        </EmptyState>
      </Page>
    );
  }

  const { list, query, title } = loaded;
  return (
    <Page title={title} lead="名师录播、直播小班与训练营，付费课程可以先免费试看。">
      <Filters query={chosen ?? query} />
      <section className="course-results" aria-label="课程列表" aria-busy={updating} data-updating={updating}>
        <SortBar query={chosen ?? query} total={list.total} />
        {updating ? (
          <p className="course-results__updating" role="status">
            正在更新课程列表…
          </p>
        ) : null}
        <Results key={location.search} list={list} query={query} />
      </section>
    </Page>
  );
}
