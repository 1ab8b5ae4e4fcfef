/**
 * The course list's address: which query parameters it understands, how they are checked (the
 * API's own schema), and the links that change one of them. Other parameters (utm_…) are
 * ignored, and defaults never appear in a link, so every list has one address.
 */
import { COURSE_PAGE_SIZE, type CourseListQuery } from "../../../shared/contracts/courses";

export const LIST_PATH = "/product/list";

/** In the order they appear in an address. */
export const listParams = ["category", "kind", "level", "price", "sort", "page"] as const;
export type ListParam = (typeof listParams)[number];

export type ListQuery = Omit<CourseListQuery, "pageSize">;

export type ParsedListQuery = { ok: true; query: ListQuery } | { ok: false; message: string };

/** Checked with the API's own schema, loaded with the first list (decision 030). */
export async function parseListQuery(search: URLSearchParams): Promise<ParsedListQuery> {
  const { courseListQuerySchema } = await import("../../../shared/contracts/courses");
  const input: Record<string, string> = {};
  for (const name of listParams) {
    const value = search.get(name);
    if (value !== null) input[name] = value;
  }
  const result = courseListQuerySchema.safeParse(input);
  if (!result.success) return { ok: false, message: result.error.issues[0]?.message ?? "筛选条件不正确" };
  const { pageSize: _pageSize, ...query } = result.data;
  return { ok: true, query };
}

/** "?category=kaishu&sort=newest" (or "" for the whole list on its first page). */
export function listSearch(query: Partial<ListQuery>): string {
  const params = new URLSearchParams();
  for (const name of listParams) {
    const value = query[name];
    if (value === undefined) continue;
    if (name === "sort" && value === "popular") continue;
    if (name === "page" && value === 1) continue;
    params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** The list with one parameter changed (undefined: removed), back on its first page. */
export function listHref(query: ListQuery, name: Exclude<ListParam, "page">, value: string | undefined): string {
  return `${LIST_PATH}${listSearch({ ...query, [name]: value, page: 1 })}`;
}

export function pageHref(query: ListQuery, page: number): string {
  return `${LIST_PATH}${listSearch({ ...query, page })}`;
}

/** The API address of one page of this list. */
export function apiListPath(query: ListQuery, page: number): string {
  const search = listSearch({ ...query, page });
  return `/api/courses${search ? `${search}&` : "?"}pageSize=${COURSE_PAGE_SIZE}`;
}
