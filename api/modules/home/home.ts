/**
 * The home page's data in one round of queries: banners, categories with their course counts,
 * popular and new courses, live lessons on now and next, new books, best-selling stationery and
 * every teacher.
 */
import { courseCategories } from "../../../shared/catalogue";
import { type Home, HOME_LIMITS } from "../../../shared/contracts/home";
import type { ApiContext } from "../../context";
import {
  allTeachers,
  publishedBooks,
  publishedCommodities,
  publishedCourses,
  selectCourseSummaries,
  toBookSummary,
  toCommoditySummary,
  toCourseSummary,
  toLiveSummary,
} from "../courses/summaries";
import { liveSummaries } from "../live/sessions";

export async function homePage(ctx: ApiContext): Promise<Home> {
  const { db } = ctx.database;
  const now = ctx.now();
  const courses = selectCourseSummaries(publishedCourses(db));
  const [banners, counts, featured, newest, live, books, stationery, teachers] = await Promise.all([
    db
      .selectFrom("banners")
      .select(["id", "title", "subtitle", "link", "glyph", "tone"])
      .where("active", "=", true)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    publishedCourses(db)
      .select((eb) => ["courses.category", eb.fn.countAll<number>().as("n")])
      .groupBy("courses.category")
      .execute(),
    courses.orderBy("courses.popularity", "desc").orderBy("courses.id").limit(HOME_LIMITS.featured).execute(),
    courses.orderBy("courses.published_at", "desc").orderBy("courses.id").limit(HOME_LIMITS.newest).execute(),
    // On now and next: anything not over yet. Those on now started earliest, so they lead.
    liveSummaries(db)
      .where("s.state", "!=", "cancelled")
      .where("s.ends_at", ">", now)
      .orderBy("s.starts_at")
      .orderBy("s.id")
      .limit(HOME_LIMITS.live)
      .execute(),
    publishedBooks(db).orderBy("created_at", "desc").orderBy("id", "desc").limit(HOME_LIMITS.books).execute(),
    publishedCommodities(db)
      .orderBy("commodities.sales", "desc")
      .orderBy("commodities.id")
      .limit(HOME_LIMITS.stationery)
      .execute(),
    allTeachers(db),
  ]);
  const countOf = new Map(counts.map((c) => [c.category, Number(c.n)]));
  return {
    banners,
    categories: courseCategories.map((c) => ({ key: c.key, name: c.name, count: countOf.get(c.key) ?? 0 })),
    featured: featured.map(toCourseSummary),
    newest: newest.map(toCourseSummary),
    live: live.map((l) => toLiveSummary(l, now)),
    books: books.map(toBookSummary),
    stationery: stationery.map(toCommoditySummary),
    teachers,
  };
}
