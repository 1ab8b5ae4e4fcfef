/**
 * What the shop's pages (books, stationery, a commodity) share: tab bars and sort links that
 * live in the query string, page links, the quantity stepper, the stock state, the buy button
 * and its "ordering opens soon" notice, the sections under a product, and the dimmed list
 * while the next page of results loads.
 */
import { type ReactNode, useId, useState } from "react";
import { useLocation, useNavigation } from "react-router-dom";
import { Link } from "../../routing/link";
import { ORDER_PAY_MINUTES } from "../../../shared/contracts/orders";
import { LOW_STOCK, MAX_QUANTITY } from "../../../shared/contracts/shop";
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
export function pageWindow(page: number, pageCount: number): Array<number | "gap"> {
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

export function clampQuantity(value: number, max: number): number {
  const top = Math.max(1, Math.min(max, MAX_QUANTITY));
  if (!Number.isFinite(value)) return 1;
  return Math.min(top, Math.max(1, Math.round(value)));
}

/** − [n] +, never below 1 nor above what is in stock (nor 99). */
export function QuantityStepper({
  value,
  max,
  unit,
  disabled,
  onChange,
}: {
  value: number;
  max: number;
  unit: string;
  disabled?: boolean;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const top = Math.max(1, Math.min(max, MAX_QUANTITY));
  // What the learner is typing, kept apart so an empty field can be typed over.
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string) => {
    setDraft(null);
    onChange(clampQuantity(Number(text), max));
  };
  return (
    <div className="quantity">
      <label className="quantity__label" htmlFor={`${id}-input`}>
        数量
      </label>
      <div className="quantity__control">
        <button
          type="button"
          className="quantity__step"
          aria-label="减少一件"
          disabled={disabled || value <= 1}
          onClick={() => onChange(clampQuantity(value - 1, max))}
        >
          −
        </button>
        <input
          id={`${id}-input`}
          className="quantity__input"
          type="number"
          inputMode="numeric"
          min={1}
          max={top}
          value={draft ?? String(value)}
          disabled={disabled}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={(e) => commit(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(e.currentTarget.value);
          }}
        />
        <button
          type="button"
          className="quantity__step"
          aria-label="增加一件"
          disabled={disabled || value >= top}
          onClick={() => onChange(clampQuantity(value + 1, max))}
        >
          +
        </button>
      </div>
      {disabled ? null : (
        <span className="quantity__hint">
          最多可买 {top} {unit}
        </span>
      )}
    </div>
  );
}

function stockClass(stock: number): string {
  if (stock <= 0) return "stock-state stock-state--out";
  return stock <= LOW_STOCK ? "stock-state stock-state--low" : "stock-state";
}

/** How much is left, coloured: plenty, little, none. */
export function StockState({ stock, label }: { stock: number; label: string }) {
  return (
    <span className={stockClass(stock)} data-testid="stock-state">
      {label}
    </span>
  );
}

/** The buy button and the note under it (the note says why it is off, or what buying does now). */
export function BuyActions({
  soldOut,
  soldOutLabel,
  soldOutNote,
  problem,
  off = null,
  onBuy,
  onIntent,
}: {
  soldOut: boolean;
  soldOutLabel: string;
  soldOutNote: string;
  /** Why the last buy did not go through (useBuy's problem), shown under the button. */
  problem: string | null;
  /** Why buying is off on this site (no payment provider): the button is disabled and says so. */
  off?: string | null;
  onBuy: () => void;
  /** A likely click (hover, focus): starts loading what the click opens. */
  onIntent?: () => void;
}) {
  return (
    <>
      <div className="buy-box__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={soldOut || !!off}
          onClick={onBuy}
          onPointerEnter={onIntent}
          onFocus={onIntent}
        >
          {soldOut ? soldOutLabel : "立即购买"}
        </button>
      </div>
      <p className="buy-box__note" data-testid={off && !soldOut ? "buying-off" : undefined}>
        {soldOut ? soldOutNote : (off ?? `下单后请在 ${ORDER_PAY_MINUTES} 分钟内完成支付，库存为您保留。`)}
      </p>
      {problem ? (
        <p className="buy-box__note" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/** A titled section under a product (its description, its related items). */
export function ProductSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="product-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
