/**
 * Who is signed in for a page the web server renders in this process: read once from the
 * session cookie, for the page (its viewer) and for its loaders' API calls (their auth).
 */
import type { Viewer } from "../../shared/contracts/viewer";
import type { ApiContext } from "../context";
import { viewerOf } from "../modules/auth/accounts";
import { readSession, sessionAuth } from "../modules/auth/sessions";
import type { Auth } from "../request-auth";

export interface PageSessionRead {
  /** The session's auth, handed to the page's in-process API calls (null: not signed in). */
  auth: Auth | null;
  viewer: Viewer | null;
}

export async function readPageSession(ctx: ApiContext, token: string): Promise<PageSessionRead> {
  const info = await readSession(ctx.database, token, ctx.now());
  if (!info) return { auth: null, viewer: null };
  return { auth: sessionAuth(info), viewer: await viewerOf(ctx, info.user) };
}
