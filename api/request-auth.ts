/**
 * The session of the request at hand, as `attachSession` (modules/auth/guard.ts) left it in
 * `res.locals`: endpoints read it through `authOf` or demand it with `requireAuth` (401).
 */
import type { Request, Response } from "express";
import type { User } from "./db/schema";
import { ApiError, unauthorized } from "./http";

export interface Auth {
  user: User;
  sessionIdHash: string;
  /** The session proved its password or a two-factor code within the last 10 minutes (step-up). */
  steppedUp: boolean;
}

export function authOf(res: Response): Auth | null {
  return res.locals.auth ?? null;
}

export function requireAuth(_req: Request, res: Response): Auth {
  const auth = authOf(res);
  if (!auth) throw unauthorized();
  return auth;
}

/** What a guarded endpoint (`stepUp: true`) answers a session that has not proved itself lately. */
export const stepUpRequired = () =>
  new ApiError(403, "step_up_required", "这项操作需要先验证身份：请输入登录密码或两步验证码");
