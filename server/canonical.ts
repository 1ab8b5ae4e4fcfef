/**
 * One address per page: `/About`, `/about/`, `/COURSE/1` and `/course/1/` answer 301 with the
 * route table's spelling (`/about`, `/course/1`), query kept. Parameters keep their own case
 * (group numbers, activity tokens). The spec's `…/index.html` forms are pages of their own
 * (their canonical link names the clean path); only their case is corrected.
 */
import type { RequestHandler } from "express";
import { routeTable, walkRoutes } from "../shared/routes";
import type { RouteDef } from "../shared/route-def";

type Pattern = readonly string[];

function patternsOf(defs: RouteDef[]): Pattern[] {
  const paths = new Set<string>();
  for (const { fullPath } of walkRoutes(defs)) {
    paths.add(fullPath);
    paths.add(fullPath === "/" ? "/index.html" : `${fullPath}/index.html`);
  }
  return [...paths].map((p) => p.split("/").slice(1));
}

/** The canonical spelling of `pathname`, or null when no page pattern matches it. */
function canonicalPathOf(pathname: string, patterns: readonly Pattern[]): string | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const segments = (trimmed || "/").split("/").slice(1);
  for (const pattern of patterns) {
    if (pattern.length !== segments.length) continue;
    const out: string[] = [];
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const want = pattern[i]!;
      const got = segments[i]!;
      if (want.startsWith(":")) {
        ok = got.length > 0;
        out.push(got);
      } else if (want.toLowerCase() === got.toLowerCase()) out.push(want);
      else ok = false;
    }
    if (ok) return `/${out.join("/")}`;
  }
  return null;
}

export function canonicalRedirect(defs: RouteDef[] = routeTable): RequestHandler {
  const patterns = patternsOf(defs);
  return (req, res, next) => {
    const pathname = req.path;
    // Only a trailing slash or a capital letter can make a variant: other addresses pass at once.
    if (!(pathname.length > 1 && pathname.endsWith("/")) && !/[A-Z]/.test(pathname)) return next();
    const canonical = canonicalPathOf(pathname, patterns);
    if (!canonical || canonical === pathname) return next();
    const query = req.originalUrl.slice(
      req.originalUrl.indexOf("?") >= 0 ? req.originalUrl.indexOf("?") : req.originalUrl.length,
    );
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.redirect(301, canonical + query);
  };
}
