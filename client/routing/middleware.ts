/**
 * The registry of named route middleware (spec §2: "Pages without their own middleware use a
 * default one named auth"). Runs on the server for the first request and in the browser for
 * every later navigation, in route order, before validate and before any loader.
 */
import { redirect } from "react-router-dom";
import { mayOperate, mayTeach } from "../../shared/contracts/viewer";
import { AppError, NOT_FOUND_MESSAGE } from "../../shared/errors";
import { accessOf, paramRules } from "../../shared/routes";
import type { MiddlewareContext, RouteMiddleware } from "./nav-context";

/** Where an account signed in with a one-time password (or an operator without two-factor login) must go first. */
export const PASSWORD_CHANGE_PATH = "/my/security";

/** Where a logged-out visit to a `user` page is sent: home opens the login dialog. */
export function loginRedirectPath(url: URL): string {
  const back = url.pathname + url.search;
  return `/?login=1&redirect=${encodeURIComponent(back)}`;
}

export const middlewareRegistry: Record<string, RouteMiddleware> = {
  auth(ctx) {
    const access = accessOf(ctx.chain);
    if (access === "public") return;
    if (!ctx.env.viewer) throw redirect(loginRedirectPath(ctx.url));
    // Learners are told the staff areas do not exist rather than that they are closed to them.
    if (access === "teacher" && !mayTeach(ctx.env.viewer)) throw new AppError(404, NOT_FOUND_MESSAGE);
    if (access === "operator" && !mayOperate(ctx.env.viewer)) throw new AppError(404, NOT_FOUND_MESSAGE);
  },
  /**
   * `/course_old/{id}` is the old address of a course page. Middleware runs before validate, so
   * the id is checked here: a bad one is a 404, never a redirect to a page that cannot exist.
   */
  legacyCourse(ctx) {
    if (!paramRules.id.safeParse(ctx.params.id ?? "").success) throw new AppError(404, NOT_FOUND_MESSAGE);
    throw redirect(`/course/${ctx.params.id}`, 301);
  },
  testOnly(ctx) {
    if (!ctx.env.fixtures) throw new AppError(404, NOT_FOUND_MESSAGE);
  },
};

/** Global middleware: runs before the route middleware of every navigation. */
export const globalMiddleware: RouteMiddleware[] = [
  function browserCheck(ctx: MiddlewareContext) {
    if (ctx.url.pathname.startsWith("/bowser")) return;
    if (ctx.env.unsupportedBrowser) throw redirect("/bowser");
  },
  /**
   * Signed in with a one-time password (`user:create`), or an operator of the `pro` site without
   * two-factor login: setting a new password, then two-factor login, comes before anything else.
   */
  function passwordChange(ctx: MiddlewareContext) {
    if (!ctx.env.viewer?.passwordChangeRequired && !ctx.env.viewer?.twoFactorRequired) return;
    if (ctx.url.pathname === PASSWORD_CHANGE_PATH || ctx.url.pathname === "/my/logout") return;
    throw redirect(PASSWORD_CHANGE_PATH);
  },
];
