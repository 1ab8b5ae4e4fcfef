/** Reads the session for every API request; `requireUser` turns anonymity into 401. */
import type { RequestHandler } from "express";
import type { ApiContext } from "../../context";
import { ApiError } from "../../http";
import { type Auth, authOf } from "../../request-auth";
import { readSession, readSessionToken, sessionAuth } from "./sessions";
import { mustEnrolTwoFactor } from "./two-factor";

export { type Auth, authOf, requireAuth } from "../../request-auth";

export function attachSession(ctx: ApiContext): RequestHandler {
  return (req, res, next) => {
    // Already read for this call: a page's loader calling the API in-process hands over what the
    // page read (server/in-process-api.ts). Nothing else sets it before this.
    if (res.locals.auth !== undefined) {
      next();
      return;
    }
    readSession(ctx.database, readSessionToken(req, ctx.settings.cookies), ctx.now())
      .then((info) => {
        res.locals.auth = info ? (sessionAuth(info) satisfies Auth) : null;
        next();
      })
      .catch(next);
  };
}

export const PASSWORD_CHANGE_REQUIRED_MESSAGE = "请先修改初始密码，修改后才能继续使用其他功能";

/**
 * An account signed in with a one-time password (`user:create`) must set its own first: until
 * then its session may read its own account (GET /me…), use the login endpoints (/auth…, log
 * out included) and change the password (POST /me/password); everything else is refused.
 */
export function passwordChangeGate(): RequestHandler {
  return (req, res, next) => {
    const auth = authOf(res);
    if (!auth?.user.password_change_required) return next();
    const p = req.path;
    const allowed =
      p === "/auth" ||
      p.startsWith("/auth/") ||
      (req.method === "GET" && (p === "/me" || p.startsWith("/me/"))) ||
      (req.method === "POST" && p === "/me/password");
    if (allowed) return next();
    next(new ApiError(403, "password_change_required", PASSWORD_CHANGE_REQUIRED_MESSAGE));
  };
}

export const TWO_FACTOR_REQUIRED_MESSAGE = "运营账号须先开启两步验证，开启后才能继续使用其他功能";

/**
 * An operator of the `pro` site without two-factor login must turn it on first: until then the
 * session may read its own account, use the login endpoints, change the password and set up
 * two-factor login (/me/two-factor…); everything else is refused.
 */
export function twoFactorGate(ctx: ApiContext): RequestHandler {
  return (req, res, next) => {
    const auth = authOf(res);
    if (!auth || !ctx.settings.operatorsNeedTwoFactor || auth.user.role !== "operator") return next();
    const p = req.path;
    const allowed =
      p === "/auth" ||
      p.startsWith("/auth/") ||
      p.startsWith("/me/two-factor") ||
      (req.method === "GET" && (p === "/me" || p.startsWith("/me/"))) ||
      (req.method === "POST" && p === "/me/password");
    if (allowed) return next();
    mustEnrolTwoFactor(ctx, auth.user).then(
      (must) => next(must ? new ApiError(403, "two_factor_required", TWO_FACTOR_REQUIRED_MESSAGE) : undefined),
      next,
    );
  };
}
