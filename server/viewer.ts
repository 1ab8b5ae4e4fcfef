/**
 * Who is signed in, for the page being rendered (step 8 of server/app.ts): read from the session
 * in this process, or asked of the API at API_ORIGIN.
 */
import type { RequestHandler } from "express";
import { readPageSession, readSessionToken, type Services } from "../api/index";
import { type Viewer, viewerSchema } from "../shared/contracts/viewer";
import type { AppConfig } from "./config";

/**
 * Who is signed in, for the page being rendered: from the session here, or asked of the API.
 * When a session cookie is there but cannot be read (the database or the API is down), the
 * visitor is not shown as signed out: `viewerUnavailable` makes the page a 503 instead.
 */
export function viewerResolver(config: AppConfig, services: Services | undefined): RequestHandler {
  const cookies = services?.api.settings.cookies ?? { secure: config.publicOrigin.startsWith("https:") };
  return (req, res, next) => {
    const token = readSessionToken(req, cookies);
    const find = async (): Promise<Viewer | null> => {
      if (!token) return null;
      if (services) {
        const { auth, viewer } = await readPageSession(services.api, token);
        // The page's loaders call the API with the same cookie: it takes this read as theirs.
        res.locals.pageSession = { auth };
        return viewer;
      }
      if (!req.headers.cookie || !config.apiOrigin) return null;
      const reply = await fetch(`${config.apiOrigin}/api/auth/me`, {
        headers: { cookie: req.headers.cookie, accept: "application/json" },
        signal: AbortSignal.timeout(3000),
      });
      if (reply.status >= 500) throw new Error(`session lookup answered ${reply.status}`);
      if (!reply.ok) return null;
      const body = (await reply.json()) as { viewer?: unknown };
      const parsed = viewerSchema.nullable().safeParse(body.viewer ?? null);
      return parsed.success ? parsed.data : null;
    };
    find()
      .then((viewer) => {
        res.locals.viewer = viewer;
        next();
      })
      .catch((err: unknown) => {
        req.log?.warn({ err: { message: (err as Error)?.message } }, "viewer lookup failed");
        res.locals.viewer = null;
        res.locals.viewerUnavailable = true;
        next();
      });
  };
}
