/**
 * /sitemap.xml: every public page — the static pages of the route table and each published
 * course, trial lesson, public lesson, replay, live session, book, commodity and activity.
 * Served by the API (GET /api/sitemap.xml) so a web node without a database can pass it on.
 */
import type { RequestHandler } from "express";
import type { Kysely } from "kysely";
import { routeTable } from "../../../shared/routes";
import type { RouteDef } from "../../../shared/route-def";
import { NOINDEX_ROUTE_IDS } from "../../../shared/seo";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";

export interface SitemapEntry {
  path: string;
  lastmod?: Date;
  priority?: number;
}

/**
 * Static pages crawlers may index: public, parameterless, not test fixtures, not personal or
 * placeholder pages (the pages that carry `noindex`, shared/seo.ts).
 */
export function staticPagePaths(routes: RouteDef[] = routeTable, base = ""): string[] {
  const paths: string[] = [];
  for (const route of routes) {
    if ((route.access && route.access !== "public") || route.params || NOINDEX_ROUTE_IDS.has(route.id)) continue;
    if (route.middleware?.includes("testOnly")) continue;
    const path = route.path ? `${base}/${route.path}` : base;
    if (route.children) paths.push(...staticPagePaths(route.children, path));
    else paths.push(path || "/");
  }
  return [...new Set(paths)];
}

/** The page of each activity kind (/activitys/bmyx and its siblings). */
const KIND_PAGE = /^\/activitys\/(bmyx|daycourse|reading|travel_note)$/;

/**
 * Every sitemap entry at `now`. A kind's page is listed only while an activity of that kind is
 * running or coming; without one the page says there is nothing and carries `noindex`.
 */
export async function sitemapEntries(db: Kysely<DB>, now: Date = new Date()): Promise<SitemapEntry[]> {
  const [courses, lessons, items, lives, books, commodities, activities] = await Promise.all([
    db.selectFrom("courses").select(["id", "updated_at"]).where("status", "=", "published").orderBy("id").execute(),
    db
      .selectFrom("lessons")
      .innerJoin("courses", "courses.id", "lessons.course_id")
      .select(["lessons.id", "courses.updated_at"])
      .where("courses.status", "=", "published")
      .where("lessons.is_trial", "=", true)
      .orderBy("lessons.id")
      .execute(),
    db.selectFrom("public_course_items").select(["id", "published_at"]).orderBy("id").execute(),
    db
      .selectFrom("live_sessions")
      .select(["id", "state", "updated_at"])
      .where("state", "!=", "cancelled")
      .orderBy("id")
      .execute(),
    db.selectFrom("books").select(["id", "updated_at"]).where("status", "=", "published").orderBy("id").execute(),
    db.selectFrom("commodities").select(["id", "updated_at"]).where("status", "=", "published").orderBy("id").execute(),
    db.selectFrom("activities").select(["token", "kind", "starts_at", "ends_at"]).orderBy("id").execute(),
  ]);
  const openKinds = new Set(activities.filter((a) => new Date(a.ends_at) > now).map((a) => a.kind));
  const kindOpen = (path: string) => {
    const kind = KIND_PAGE.exec(path)?.[1];
    return kind === undefined || openKinds.has(kind as (typeof activities)[number]["kind"]);
  };
  return [
    ...staticPagePaths()
      .filter(kindOpen)
      .map((path) => ({ path, priority: path === "/" ? 1 : 0.5 })),
    ...courses.map((c) => ({ path: `/course/${c.id}`, lastmod: c.updated_at, priority: 0.9 })),
    ...lessons.map((l) => ({ path: `/video/${l.id}`, lastmod: l.updated_at, priority: 0.6 })),
    ...items.map((i) => ({ path: `/video/PublicCourseItem?id=${i.id}`, lastmod: i.published_at, priority: 0.6 })),
    ...lives.map((l) => ({ path: `/live/${l.id}`, lastmod: l.updated_at, priority: 0.6 })),
    ...lives.filter((l) => l.state === "replay").map((l) => ({ path: `/playback?id=${l.id}`, lastmod: l.updated_at })),
    ...books.map((b) => ({ path: `/books/${b.id}`, lastmod: b.updated_at, priority: 0.7 })),
    ...commodities.map((c) => ({ path: `/commodity/${c.id}`, lastmod: c.updated_at, priority: 0.7 })),
    ...activities.map((a) => ({ path: `/activitys/${encodeURIComponent(a.token)}`, lastmod: a.starts_at })),
  ];
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

export function sitemapXml(origin: string, entries: SitemapEntry[]): string {
  const urls = entries.map((e) => {
    const parts = [`<loc>${escapeXml(origin + e.path)}</loc>`];
    if (e.lastmod) parts.push(`<lastmod>${new Date(e.lastmod).toISOString().slice(0, 10)}</lastmod>`);
    if (e.priority !== undefined) parts.push(`<priority>${e.priority.toFixed(1)}</priority>`);
    return `<url>${parts.join("")}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** Seconds a crawler is asked to wait when there is no sitemap to give it yet. */
export const SITEMAP_RETRY_AFTER_S = 120;

/**
 * Serves the sitemap `make` returns; when that fails (the database or the API cannot be reached)
 * the last one made here is served instead, for crawlers a stale sitemap beats an error. With no
 * copy yet, 503 with Retry-After: crawlers come back later rather than count a server error.
 */
export function lastGoodSitemap(make: () => Promise<string>): RequestHandler {
  let lastGood: string | null = null;
  return async (req, res) => {
    let xml: string;
    let stale = false;
    try {
      xml = await make();
      lastGood = xml;
    } catch (err) {
      const reason = { err: { message: (err as Error)?.message } };
      if (lastGood === null) {
        req.log?.warn(reason, "sitemap: none made yet, answering 503");
        res.status(503).type("text/plain").setHeader("Cache-Control", "no-store");
        res.setHeader("Retry-After", String(SITEMAP_RETRY_AFTER_S));
        res.send("站点地图暂时无法生成，请稍后再试。");
        return;
      }
      req.log?.warn(reason, "sitemap: serving the last good copy");
      xml = lastGood;
      stale = true;
    }
    res.type("application/xml").setHeader("Cache-Control", stale ? "public, max-age=300" : "public, max-age=3600");
    res.send(xml);
  };
}

export function sitemapHandler(ctx: ApiContext): RequestHandler {
  return lastGoodSitemap(async () =>
    sitemapXml(ctx.settings.publicOrigin, await sitemapEntries(ctx.database.db, ctx.now())),
  );
}
