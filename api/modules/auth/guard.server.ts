/** Reads the session for every API request; `requireUser` turns anonymity into 401. */
import type { Request, RequestHandler, Response } from "express";
import type { ApiContext } from "../../context.server";
import type { User } from "../../db/schema";
import { unauthorized } from "../../http.server";
import { readSession, readSessionToken } from "./sessions.server";

export interface Auth {
  user: User;
  sessionIdHash: string;
}

export function attachSession(ctx: ApiContext): RequestHandler {
  return (req, res, next) => {
    readSession(ctx.database, readSessionToken(req, ctx.settings.cookies), ctx.now())
      .then((info) => {
        res.locals.auth = info ? ({ user: info.user, sessionIdHash: info.idHash } satisfies Auth) : null;
        next();
      })
      .catch(next);
  };
}

export function authOf(res: Response): Auth | null {
  return (res.locals.auth as Auth | null | undefined) ?? null;
}

export function requireAuth(_req: Request, res: Response): Auth {
  const auth = authOf(res);
  if (!auth) throw unauthorized();
  return auth;
}
