/**
 * The course list's address: which query parameters it understands, how they are checked (the
 * API's own schema), and the links that change one of them. Other parameters (utm_…) are
 * ignored, and defaults never appear in a link, so every list has one address.
 */
import { courseCategories } from "../../../shared/catalogue";
import { courseKinds, courseLevels } from "../../../shared/contracts/catalogue";
import {
  COURSE_PAGE_SIZE,
  type CourseListQuery,
  coursePriceFilters,
  courseSorts,
} from "../../../shared/contracts/courses";

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

const choices: Record<Exclude<ListParam, "page">, readonly string[]> = {
  category: courseCategories.map((c) => c.key),
  kind: Object.keys(courseKinds),
  level: Object.keys(courseLevels),
  price: Object.keys(coursePriceFilters),
  sort: Object.keys(courseSorts),
};

/**
 * The list a navigation under way is loading, read from its address without the schema (which
 * may not have loaded): the filter and sort links are built from it meanwhile, so choices clicked
 * in quick succession add up instead of the last one starting again from the list on screen.
 * Unknown values are left out; the loader's check still answers for the address itself.
 */
export function pendingListQuery(search: string): ListQuery {
  const params = new URLSearchParams(search);
  const query: Record<string, string | number> = { sort: "popular", page: 1 };
  for (const [name, allowed] of Object.entries(choices)) {
    const value = params.get(name);
    if (value !== null && allowed.includes(value)) query[name] = value;
  }
  const page = params.get("page");
  if (page !== null && /^[1-9]\d{0,5}$/.test(page)) query.page = Number(page);
  return query as ListQuery;
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
