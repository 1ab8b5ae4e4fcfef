/**
 * A shop list page (books, stationery): tab bars and sort links that live in the query string,
 * page links, and the dimmed list while the next page of results loads.
 */
import { type ReactNode } from "react";
import { useLocation, useNavigation } from "react-router-dom";
import { Link } from "../../routing/link";
import "./shop.css";

/** A page's query string with some parameters changed (null removes one); "" when empty. */
export function withQuery(search: string, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** True while the router loads another address of this same page (a filter, a sort, a page). */
export function useReloadingList(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === "loading" && navigation.location?.pathname === location.pathname;
}

export interface TabItem {
  key: string;
  label: string;
  count?: number;
  to: string;
  active: boolean;
}

export function FilterTabs({ label, items }: { label: string; items: TabItem[] }) {
  return (
    <nav className="filter-tabs" aria-label={label}>
      <ul>
        {items.map((item) => (
          <li key={item.key}>
            <Link
              to={item.to}
              className={`filter-tabs__tab${item.active ? " is-active" : ""}`}
              aria-current={item.active ? "page" : undefined}
              preventScrollReset
            >
              {item.label}
              {item.count !== undefined ? <span className="filter-tabs__count">{item.count}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SortLinks({ items }: { items: Array<{ key: string; label: string; to: string; active: boolean }> }) {
  return (
    <div className="sort-links" role="group" aria-label="排序">
      <span className="sort-links__label">排序</span>
      {items.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          className={`sort-links__link${item.active ? " is-active" : ""}`}
          aria-current={item.active ? "true" : undefined}
          preventScrollReset
        >
          {item.label}
        </Link>
      ))}
    </div>
  );
}

/** The pages to offer: first, last, and two either side of the current one. */
function pageWindow(page: number, pageCount: number): Array<number | "gap"> {
  const wanted = new Set([1, pageCount, page - 2, page - 1, page, page + 1, page + 2]);
  const pages = [...wanted].filter((p) => p >= 1 && p <= pageCount).sort((a, b) => a - b);
  const out: Array<number | "gap"> = [];
  for (const p of pages) {
    const last = out[out.length - 1];
    if (typeof last === "number" && p - last > 1) out.push("gap");
    out.push(p);
  }
  return out;
}

/** Page links (real links: crawlers and people without script page through them too). */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="分页">
      {page > 1 ? (
        <Link className="pagination__step" to={hrefFor(page - 1)} rel="prev">
          上一页
        </Link>
      ) : (
        <span className="pagination__step is-disabled">上一页</span>
      )}
      {pageWindow(page, pageCount).map((p, i) =>
        p === "gap" ? (
          <span key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : p === page ? (
          <span key={p} className="pagination__page is-current" aria-current="page">
            {p}
          </span>
        ) : (
          <Link key={p} className="pagination__page" to={hrefFor(p)} aria-label={`第 ${p} 页`}>
            {p}
          </Link>
        ),
      )}
      {page < pageCount ? (
        <Link className="pagination__step" to={hrefFor(page + 1)} rel="next">
          下一页
        </Link>
      ) : (
        <span className="pagination__step is-disabled">下一页</span>
      )}
    </nav>
  );
}

/** The list under a filter: dimmed and marked busy while the next results load. */
export function ResultList({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <div className={`result-list${busy ? " is-loading" : ""}`} aria-busy={busy}>
      {busy ? (
        <p className="result-list__status" role="status">
          正在加载…
        </p>
      ) : null}
      {children}
    </div>
  );
}
