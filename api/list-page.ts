/**
 * One page of a staff table: the sort the page asked for (only columns the endpoint lists as
 * sortable; anything else falls back to its default), a stable tie-break on the id, and the
 * number of rows that match in all, counted on the same filtered query.
 */
import { sql, type SelectQueryBuilder } from "kysely";
import type { Paged, StaffPageQuery } from "../shared/contracts/staff";
import type { DB } from "./db/schema";

export interface Sorting {
  /** Column (or expression reference) per sort key the page may ask for. */
  sortable: Record<string, string>;
  /** Sort key used when none (or an unknown one) is asked for. */
  defaultSort: string;
  /** Unique column that breaks ties, so pages never repeat or skip a row. */
  tieBreak: string;
}

export async function pageOf<TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: Pick<StaffPageQuery, "page" | "pageSize" | "sort" | "dir">,
  sorting: Sorting,
): Promise<Paged<O>> {
  const column = sorting.sortable[page.sort ?? ""] ?? sorting.sortable[sorting.defaultSort];
  if (!column) throw new Error(`unknown default sort ${sorting.defaultSort}`);
  const direction = page.dir === "asc" ? sql`asc` : sql`desc`;
  const [rows, counted] = await Promise.all([
    query
      .orderBy(sql`${sql.ref(column)} ${direction} nulls last`)
      .orderBy(sql`${sql.ref(sorting.tieBreak)} ${direction}`)
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    query
      .clearSelect()
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirst() as Promise<{ n: string | number } | undefined>,
  ]);
  return { rows, total: Number(counted?.n ?? 0), page: page.page, pageSize: page.pageSize };
}

/** The staff tables of the commerce pages name their default column and tie-break directly. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table's query, its rows typed by R
type AnyQuery = SelectQueryBuilder<any, any, any>;

export async function listPage<R>(
  base: AnyQuery,
  query: Pick<StaffPageQuery, "page" | "pageSize" | "sort" | "dir">,
  sortable: Record<string, string>,
  fallback: string,
  idColumn: string,
): Promise<{ rows: R[]; total: number; page: number; pageSize: number }> {
  const page = await pageOf(base, query, {
    sortable: { ...sortable, "": fallback },
    defaultSort: "",
    tieBreak: idColumn,
  });
  return page as { rows: R[]; total: number; page: number; pageSize: number };
}

export const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
