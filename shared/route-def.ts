/**
 * The shape of one route of the site's route table (shared/routes.ts), in a file of its own so the
 * route groups (shared/route-groups/) and the table can both use it without importing each other.
 */

export type LayoutName = "default" | "clean" | "test";
/**
 * Who may open a page: anyone, a signed-in account, teachers (and operators, who hold every
 * teacher permission), or operators only. Anyone signed in below the page's level gets the 404
 * page, so the staff areas do not announce themselves.
 */
export type Access = "public" | "user" | "teacher" | "operator";

/** The path parameter rules (each checked by `paramRules` in shared/routes.ts). */
export type ParamRule = "id" | "groupNo" | "token";

export interface RouteDef {
  /** Stable id; server and client key loader data by it. */
  id: string;
  /** Path relative to the parent ("" for an index route). */
  path: string;
  /** Page module under client/features, without the `.page.tsx` suffix. */
  page: string;
  /** Layout for top-level routes (children inherit their parent's). */
  layout?: LayoutName;
  /** Named route middleware, looked up in one registry; none named means ["auth"]. */
  middleware?: string[];
  /** Who may open the page; the auth middleware enforces it. */
  access?: Access;
  params?: Record<string, ParamRule>;
  /** Page title (Chinese), also the breadcrumb label. Pages with data may refine it. */
  title: string;
  /** Keep the scroll position on navigation (nested children keep it by default). */
  scrollToTop?: boolean;
  /** The page also fetches at component level (progress bar +30 instead of +45). */
  componentFetch?: boolean;
  children?: RouteDef[];
}
