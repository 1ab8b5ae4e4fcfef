/**
 * Site search (`/search?q=&type=`): one box for courses, books, stationery, live sessions,
 * public lessons, playback and activities, tabs per kind
 * with counts, matches highlighted, and suggestions when there is nothing (yet) to show. The
 * "all" tab groups the best matches by kind; a kind's tab loads further pages as one scrolls.
 * Search pages are kept out of indexes, but their links are ordinary links.
 */
import { useCallback, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { GetForm } from "../../routing/get-form";
import { Link } from "../../routing/link";
import {
  popularSearches,
  type SearchEntry,
  type SearchHit,
  type SearchKind,
  type SearchResult,
  searchKinds,
} from "../../../shared/contracts/search";
import { BookCard, CommodityCard, CourseCard, Highlighted } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { InfiniteList, type InfiniteLoadState } from "../../lib/infinite-list";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "@fontsource/ma-shan-zheng/400.css";
import "./search.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const searchContract = () => import("../../../shared/contracts/search");

/** The "all" tab shows this many best matches, grouped by kind; a kind's tab pages by 12. */
const ALL_PAGE_SIZE = 48;
const KIND_PAGE_SIZE = 12;
const HIT_KINDS = ["course", "book", "commodity", "live", "lesson", "playback", "activity"] as const;
type HitKind = (typeof HIT_KINDS)[number];

interface SearchData {
  q: string;
  kind: SearchKind;
  result: SearchResult | null;
  /** Why the words were not searched for (too long…). */
  problem: string | null;
}

const DESCRIPTION =
  "在墨池课堂搜索课程、书籍、文房用品、直播、公开课、回放和活动：按课程名、老师、书体、碑帖名或作者查找。";

function searchHref(q: string, kind: SearchKind = "all"): string {
  const params = new URLSearchParams({ q });
  if (kind !== "all") params.set("type", kind);
  return `/search?${params}`;
}

function apiPath(q: string, kind: SearchKind, page: number): string {
  const pageSize = kind === "all" ? ALL_PAGE_SIZE : KIND_PAGE_SIZE;
  return `/api/search?${new URLSearchParams({ q, kind, page: String(page), pageSize: String(pageSize) })}`;
}

export async function loader({ env, request, signal }: PageLoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get("q") ?? "";
  // ?type= names the tab; ?kind= is what older links used.
  const kindParam = url.searchParams.get("type") ?? url.searchParams.get("kind") ?? "";
  const kind: SearchKind = kindParam in searchKinds ? (kindParam as SearchKind) : "all";
  const { searchTermSchema } = await searchContract();
  const parsed = searchTermSchema.safeParse(raw);
  const base = { q: raw.trim(), kind };
  if (!parsed.success) {
    const problem = raw.trim() ? (parsed.error.issues[0]?.message ?? "搜索内容不正确") : null;
    return {
      ...base,
      result: null,
      problem,
      meta: { title: "搜索", description: DESCRIPTION, noindex: true },
    } satisfies SearchData & { meta: unknown };
  }
  const result = await env.api(apiPath(parsed.data, kind, 1), {
    signal,
    schema: searchContract().then((m) => m.searchResultSchema),
  });
  return {
    q: parsed.data,
    kind,
    result,
    problem: null,
    meta: {
      title: `“${parsed.data}”的搜索结果`,
      description: `与“${parsed.data}”相关的课程 ${result.counts.course} 门、书籍 ${result.counts.book} 本、文房 ${result.counts.commodity} 件、直播 ${result.counts.live} 场、公开课 ${result.counts.lesson} 节、回放 ${result.counts.playback} 场、活动 ${result.counts.activity} 个。`,
      noindex: true,
    },
  } satisfies SearchData & { meta: unknown };
}

function SearchBox({ q }: { q: string }) {
  return (
    <GetForm action="/search" role="search" className="search-box" aria-label="站内搜索">
      <input
        key={q}
        className="search-box__input"
        type="search"
        name="q"
        defaultValue={q}
        maxLength={40}
        placeholder="搜索课程、老师、碑帖、书籍、直播或活动"
        aria-label="搜索内容"
      />
      <button type="submit" className="button button--primary search-box__button">
        搜索
      </button>
    </GetForm>
  );
}

function Suggestions({ lead }: { lead: string }) {
  return (
    <div className="search-suggestions">
      <p>{lead}</p>
      <ul className="search-suggestions__list" aria-label="大家都在搜">
        {popularSearches.map((word) => (
          <li key={word}>
            <Link to={searchHref(word)}>{word}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A live session, public lesson, playback or activity: cover character, title, context, summary. */
function EntryCard({ entry, kind, q }: { entry: SearchEntry; kind: SearchKind; q: string }) {
  return (
    <article className="card catalogue-card search-entry">
      <Link to={entry.href} className="catalogue-card__link search-entry__link">
        <span className="search-entry__cover" aria-hidden="true">
          {entry.coverChar}
        </span>
        <h3 className="catalogue-card__title">
          <Highlighted text={entry.title} highlight={q} />
        </h3>
      </Link>
      <p className="catalogue-card__meta">
        <span className="search-entry__kind">{searchKinds[kind]}</span> {entry.meta}
      </p>
      {entry.summary ? (
        <p className="search-entry__summary">
          <Highlighted text={entry.summary} highlight={q} />
        </p>
      ) : null}
    </article>
  );
}

function HitCard({ hit, q }: { hit: SearchHit; q: string }) {
  const card =
    hit.kind === "course" ? (
      <CourseCard course={hit.course} highlight={q} />
    ) : hit.kind === "book" ? (
      <BookCard book={hit.book} highlight={q} />
    ) : hit.kind === "commodity" ? (
      <CommodityCard commodity={hit.commodity} highlight={q} />
    ) : (
      <EntryCard entry={hit.entry} kind={hit.kind} q={q} />
    );
  return (
    <li className="search-hit">
      {card}
      <p className="search-hit__why">
        {hit.matched === "other" && hit.snippet && !("entry" in hit && hit.entry.summary === hit.snippet) ? (
          <>
            匹配：
            <Highlighted text={hit.snippet} highlight={q} />
          </>
        ) : null}
      </p>
    </li>
  );
}

const gridClass: Record<HitKind, string> = {
  course: "catalogue-grid",
  book: "catalogue-grid catalogue-grid--books",
  commodity: "catalogue-grid",
  live: "catalogue-grid",
  lesson: "catalogue-grid",
  playback: "catalogue-grid",
  activity: "catalogue-grid",
};
const unitOf: Record<HitKind, string> = {
  course: "门",
  book: "本",
  commodity: "件",
  live: "场",
  lesson: "节",
  playback: "场",
  activity: "个",
};

function hitKey(hit: SearchHit): string {
  const id =
    hit.kind === "course"
      ? hit.course.id
      : hit.kind === "book"
        ? hit.book.id
        : hit.kind === "commodity"
          ? hit.commodity.id
          : hit.entry.id;
  return `${hit.kind}-${id}`;
}

/** The "all" tab: the best matches of each kind, each kind under its own heading. */
function GroupedResults({ result }: { result: SearchResult }) {
  return (
    <>
      {HIT_KINDS.filter((kind) => result.counts[kind] > 0).map((kind) => {
        const hits = result.items.filter((h) => h.kind === kind);
        const more = result.counts[kind] - hits.length;
        return (
          <section key={kind} className="search-group" aria-labelledby={`search-group-${kind}`}>
            <header className="search-group__head">
              <h2 id={`search-group-${kind}`}>
                {searchKinds[kind]}
                <span className="search-group__count">
                  {result.counts[kind]} {unitOf[kind]}
                </span>
              </h2>
              {more > 0 ? (
                <Link className="search-group__more" to={searchHref(result.q, kind)}>
                  查看全部{result.counts[kind]}
                  {unitOf[kind]}
                  {searchKinds[kind]}
                </Link>
              ) : null}
            </header>
            <ul className={gridClass[kind]}>
              {hits.map((hit) => (
                <HitCard key={hitKey(hit)} hit={hit} q={result.q} />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

/** One kind's tab: the first page from the server, further pages as the reader scrolls. */
function KindResults({ result, kind }: { result: SearchResult; kind: HitKind }) {
  const [more, setMore] = useState<SearchHit[]>([]);
  // A ref, not state: the list may ask again before React has re-rendered with the new page.
  const nextPage = useRef(2);
  const loadMore = useCallback(
    async (state: InfiniteLoadState) => {
      if (nextPage.current > result.pageCount) {
        state.complete();
        return;
      }
      try {
        const page = await browserApi(apiPath(result.q, kind, nextPage.current), {
          schema: searchContract().then((m) => m.searchResultSchema),
        });
        nextPage.current += 1;
        setMore((prev) => [...prev, ...page.items]);
        if (nextPage.current > page.pageCount) state.complete();
        else state.loaded();
      } catch {
        state.error();
      }
    },
    [result.q, result.pageCount, kind],
  );
  return (
    <>
      <ul className={gridClass[kind]}>
        {[...result.items, ...more].map((hit) => (
          <HitCard key={hitKey(hit)} hit={hit} q={result.q} />
        ))}
      </ul>
      {result.pageCount > 1 ? <InfiniteList onLoad={loadMore} identifier={`${result.q}|${kind}`} /> : null}
    </>
  );
}

function KindTabs({ result }: { result: SearchResult }) {
  return (
    <nav className="search-tabs" aria-label="搜索范围">
      <ul>
        {(Object.keys(searchKinds) as SearchKind[]).map((kind) => (
          <li key={kind}>
            <Link
              to={searchHref(result.q, kind)}
              className={`search-tabs__tab${kind === result.kind ? " is-active" : ""}`}
              aria-current={kind === result.kind ? "page" : undefined}
            >
              {searchKinds[kind]}
              <span className="search-tabs__count">{result.counts[kind]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function SearchPage() {
  const { q, result, problem } = useLoaderData<typeof loader>();
  return (
    <Page
      lead={
        result
          ? result.counts.all > 0
            ? `找到与“${q}”相关的内容 ${result.counts.all} 条`
            : `搜索“${q}”`
          : "一个搜索框，找课程、书籍、文房、直播、公开课、回放和活动。"
      }
    >
      <SearchBox q={q} />
      {problem ? (
        <p className="notice notice--warning search-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {!result ? (
        <EmptyState glyph="寻" title={problem ? "换个短一点的词试试" : "想找点什么？"}>
          <Suggestions lead="可以搜课程名、老师、书体、碑帖名、作者或文房用品，比如：" />
        </EmptyState>
      ) : (
        <>
          <KindTabs result={result} />
          {result.total === 0 ? (
            <EmptyState
              glyph="寻"
              title={`没有找到与“${q}”相关的${result.kind === "all" ? "内容" : searchKinds[result.kind]}`}
              action={
                result.kind !== "all" && result.counts.all > 0 ? (
                  <Link className="button" to={searchHref(q)}>
                    看全部 {result.counts.all} 条结果
                  </Link>
                ) : undefined
              }
            >
              <Suggestions lead="换个说法，或用更短的词试试。大家常搜：" />
            </EmptyState>
          ) : result.kind === "all" ? (
            <GroupedResults result={result} />
          ) : (
            <KindResults key={`${q}|${result.kind}`} result={result} kind={result.kind} />
          )}
        </>
      )}
    </Page>
  );
}
