/**
 * The staff tables (/admin, /teach): rows sorted, filtered and paged by the server. The table's
 * state is the page's URL (`page`, `pageSize`, `sort`, `dir` and the page's own filters), so a
 * sort or a page is a navigation: the loader asks the API again, the back button works, and a
 * colleague can be sent the very same view. Headless rendering through @tanstack/react-table.
 */
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { useLocation, useNavigation, useSearchParams } from "react-router-dom";
import { Link } from "../../routing/link";
import { STAFF_PAGE_SIZES, type Paged } from "../../../shared/contracts/staff";
import { EmptyState } from "../EmptyState";
import "./data-table.css";

declare module "@tanstack/react-table" {
  // The key the server sorts by when this column's header is pressed (none: not sortable).
  interface ColumnMeta<TData extends RowData, TValue> {
    sortKey?: string;
    align?: "end";
    /** Unused type parameters kept by the declaration merge. */
    _types?: [TData, TValue];
  }
}

export interface DataTableProps<Row> {
  /** Says what the table lists (the caption screen readers announce). */
  caption: string;
  // Column value types differ per column; the library's own examples type the array this way.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Row, any>[];
  page: Paged<Row>;
  rowKey: (row: Row) => string;
  /** What an empty result says (the filters may explain it). */
  empty?: ReactNode;
  /** The sort the server uses when the URL names none. */
  defaultSort?: { key: string; dir: "asc" | "desc" };
}

/**
 * A column's label as plain text: phones show each cell as a line of a card, the label beside
 * the value (`data-label`, drawn by data-table.css), since the header row is out of sight there.
 */
export function columnLabel(header: unknown, id: string): string {
  return typeof header === "string" ? header : id;
}

/** The URL of the same page with `changes` applied (null removes a parameter). */
export function withParams(search: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") next.delete(key);
    else next.set(key, value);
  }
  const text = next.toString();
  return text ? `?${text}` : "?";
}

/** The table of a staff page's rows, its headers and cells from `columns` (the core of `DataTable`). */
export function Table<Row>({
  caption,
  className,
  columns,
  rows,
  rowKey,
  sorting,
}: {
  /** What the table lists, with its count where the page knows it (omitted: no caption). */
  caption?: ReactNode;
  className: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as in DataTableProps
  columns: ColumnDef<Row, any>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** The server's sort and the URL it lives in: sortable headers become links (omitted: plain headers). */
  sorting?: { search: URLSearchParams; key: string; dir: "asc" | "desc"; pageCount: number };
}) {
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowKey,
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    state: { sorting: sorting?.key ? [{ id: sorting.key, desc: sorting.dir === "desc" }] : [] },
    pageCount: sorting?.pageCount ?? 1,
  });
  return (
    <table className={className}>
      {caption ? <caption className="data-table__caption">{caption}</caption> : null}
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const label = flexRender(header.column.columnDef.header, header.getContext());
              const active = sorting !== undefined && meta?.sortKey !== undefined && meta.sortKey === sorting.key;
              const dir = sorting?.dir ?? "desc";
              const nextDir = active && dir === "desc" ? "asc" : "desc";
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={meta?.align === "end" ? "is-end" : undefined}
                  aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  {sorting && meta?.sortKey ? (
                    <Link
                      className="data-table__sort"
                      to={withParams(sorting.search, { sort: meta.sortKey, dir: nextDir, page: null })}
                      preventScrollReset
                    >
                      {label}
                      <span aria-hidden="true">{active ? (dir === "asc" ? " ↑" : " ↓") : " ↕"}</span>
                    </Link>
                  ) : (
                    label
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id}>
            {row.getVisibleCells().map((cell) => (
              <td
                key={cell.id}
                className={cell.column.columnDef.meta?.align === "end" ? "is-end" : undefined}
                data-label={columnLabel(cell.column.columnDef.header, cell.column.id)}
              >
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DataTable<Row>({ caption, columns, page, rowKey, empty, defaultSort }: DataTableProps<Row>) {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const sortKey = search.get("sort") ?? defaultSort?.key ?? "";
  const dir = (search.get("dir") ?? defaultSort?.dir ?? "desc") === "asc" ? "asc" : "desc";
  // Loading: a navigation to this same page (another sort, page or filter) is on its way.
  const loading = navigation.state === "loading" && navigation.location?.pathname === location.pathname;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));

  return (
    <div className="data-table" aria-busy={loading}>
      <Table
        className="data-table__table"
        caption={
          <>
            {caption}（共 {page.total} 条）
          </>
        }
        columns={columns}
        rows={page.rows}
        rowKey={rowKey}
        sorting={{ search, key: sortKey, dir, pageCount: pages }}
      />
      {page.rows.length === 0 ? (
        <EmptyState glyph="空" title="没有符合条件的记录">
          {empty ?? <p>换个筛选条件或关键词试试。</p>}
        </EmptyState>
      ) : null}
      <nav className="data-table__pager" aria-label={`${caption}分页`}>
        <span>
          第 {page.page} / {pages} 页
        </span>
        {page.page > 1 ? (
          <Link to={withParams(search, { page: String(page.page - 1) })} preventScrollReset>
            上一页
          </Link>
        ) : null}
        {page.page < pages ? (
          <Link to={withParams(search, { page: String(page.page + 1) })} preventScrollReset>
            下一页
          </Link>
        ) : null}
        <span className="data-table__sizes">
          每页
          {STAFF_PAGE_SIZES.map((size) =>
            size === page.pageSize ? (
              <strong key={size} aria-current="true">
                {size}
              </strong>
            ) : (
              <Link key={size} to={withParams(search, { pageSize: String(size), page: null })} preventScrollReset>
                {size}
              </Link>
            ),
          )}
          条
        </span>
      </nav>
    </div>
  );
}
