/**
 * The staff tables of the commerce pages take one page through the admin paging helper
 * (api/modules/admin/paging.ts), naming their default column and tie-break directly.
 */
import type { SelectQueryBuilder } from "kysely";
import type { StaffPageQuery } from "../shared/contracts/staff";
import { pageOf } from "./modules/admin/paging";

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
