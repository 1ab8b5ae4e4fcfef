/**
 * The session of the request at hand, as `attachSession` (modules/auth/guard.ts) left it in
 * `res.locals`: endpoints read it through `authOf` or demand it with `requireAuth` (401).
 */
import type { Request, Response } from "express";
import type { User } from "./db/schema";
import { unauthorized } from "./http";

export interface Auth {
  user: User;
  sessionIdHash: string;
}

export function authOf(res: Response): Auth | null {
  return (res.locals.auth as Auth | null | undefined) ?? null;
}

export function requireAuth(_req: Request, res: Response): Auth {
  const auth = authOf(res);
  if (!auth) throw unauthorized();
  return auth;
}
