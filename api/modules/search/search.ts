/**
 * Substring search over courses, books, stationery, live sessions, public lessons, playback and
 * activities (docs/decisions/007-catalogue-search.md, 042).
 * The words are matched literally (`%`, `_` and `\` escaped) with ILIKE, which behaves the same
 * on PGlite and PostgreSQL and needs no Chinese word segmentation. Exact titles rank first, then
 * titles that contain the words, then matches in other fields (subtitle, teacher, author…).
 */
import { type Expression, type SqlBool, sql } from "kysely";
import { courseCategories } from "../../../shared/catalogue";
import type { SearchEntry, SearchHit, SearchKind, SearchQuery, SearchResult } from "../../../shared/contracts/search";
import { pageOf } from "../../../shared/contracts/shop";
import type { Database } from "../../db/database";
import { courseSummariesByIds, publishedBooks, publishedCommodities, toBookSummary } from "../courses/summaries";
import { bookPopularity } from "../shop/books";
import { commoditySummaryOf } from "../shop/commodities";

type HitKind = Exclude<SearchKind, "all">;
const CATEGORY_LABEL = "分类：";

/** `%words%` for ILIKE … ESCAPE '\': the user's %, _ and \ are matched as themselves. */
export function containsPattern(words: string): string {
  return `%${words.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function ilike(column: string, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} ilike ${pattern} escape '\\'`;
}

/** 0: the title is the words; 1: the title contains them; 2: another field does. */
function rankOf(title: string, words: string, pattern: string) {
  return sql<number>`case when lower(${sql.ref(title)}) = lower(${words}::text) then 0 when ${ilike(title, pattern)} then 1 else 2 end`;
}

/** The first other field that matched, labelled ("老师：林墨"); null for a title match. */
function snippetOf(pattern: string, title: string, fields: Array<[label: string, column: string]>) {
  const whens = fields.map(
    ([label, column]) => sql`when ${ilike(column, pattern)} then ${label}::text || ${sql.ref(column)}`,
  );
  return sql<string | null>`case when ${ilike(title, pattern)} then null ${sql.join(whens, sql` `)} else null end`;
}

function hitQueries(database: Database, words: string, now: Date) {
  const pattern = containsPattern(words);
  const needle = words.toLowerCase();
  // Course categories are keys in the table; "楷书" or "楷" should still find the 楷书 courses.
  const categoryKeys = courseCategories
    .filter((c) => c.name.includes(needle) || needle.includes(c.name))
    .map((c) => c.key);
  // Labelled with the key; the key becomes the category's name once the rows are read.
  const categorySnippet = categoryKeys.length
    ? sql<
        string | null
      >`case when c.category in (${sql.join(categoryKeys)}) then ${CATEGORY_LABEL}::text || c.category end`
    : sql<string | null>`null`;

  const courses = database.db
    .selectFrom("courses as c")
    .innerJoin("teachers as t", "t.id", "c.teacher_id")
    .where("c.status", "=", "published")
    .where((eb) =>
      eb.or([
        ilike("c.title", pattern),
        ilike("c.subtitle", pattern),
        ilike("c.summary", pattern),
        ilike("t.name", pattern),
        ...(categoryKeys.length ? [eb("c.category", "in", categoryKeys)] : []),
      ]),
    )
    .select([
      sql<HitKind>`'course'`.as("kind"),
      "c.id as id",
      rankOf("c.title", words, pattern).as("rank"),
      sql<number>`c.popularity`.as("score"),
      sql<string | null>`coalesce(${snippetOf(pattern, "c.title", [
        ["", "c.subtitle"],
        ["老师：", "t.name"],
        ["", "c.summary"],
      ])}, ${categorySnippet})`.as("snippet"),
    ]);

  const books = database.db
    .selectFrom("books")
    .where("books.status", "=", "published")
    .where((eb) =>
      eb.or([
        ilike("books.title", pattern),
        ilike("books.author", pattern),
        ilike("books.summary", pattern),
        ilike("books.publisher", pattern),
        ilike("books.tab", pattern),
      ]),
    )
    .select([
      sql<HitKind>`'book'`.as("kind"),
      "books.id as id",
      rankOf("books.title", words, pattern).as("rank"),
      bookPopularity.as("score"),
      snippetOf(pattern, "books.title", [
        ["作者：", "books.author"],
        ["", "books.summary"],
        ["出版：", "books.publisher"],
        ["分类：", "books.tab"],
      ]).as("snippet"),
    ]);

  const commodities = database.db
    .selectFrom("commodities as c")
    .where("c.status", "=", "published")
    .where((eb) =>
      eb.or([
        ilike("c.title", pattern),
        ilike("c.summary", pattern),
        ilike("c.description", pattern),
        ilike("c.category", pattern),
      ]),
    )
    .select([
      sql<HitKind>`'commodity'`.as("kind"),
      "c.id as id",
      rankOf("c.title", words, pattern).as("rank"),
      sql<number>`c.sales`.as("score"),
      snippetOf(pattern, "c.title", [
        ["", "c.summary"],
        ["分类：", "c.category"],
        ["", "c.description"],
      ]).as("snippet"),
    ]);

  // Live sessions of a course show only when the course is published; cancelled ones never.
  const visibleLive = (state: "replay" | "live") =>
    database.db
      .selectFrom("live_sessions as s")
      .innerJoin("teachers as t", "t.id", "s.teacher_id")
      .leftJoin("courses as lc", "lc.id", "s.course_id")
      .where(
        "s.state",
        state === "replay" ? "=" : "in",
        state === "replay" ? "replay" : ["scheduled", "live", "ended", "processing"],
      )
      .where((eb) => eb.or([eb("s.course_id", "is", null), eb("lc.status", "=", "published")]))
      .where((eb) => eb.or([ilike("s.title", pattern), ilike("s.summary", pattern), ilike("t.name", pattern)]))
      .select([
        sql<HitKind>`${state === "replay" ? "playback" : "live"}::text`.as("kind"),
        "s.id as id",
        rankOf("s.title", words, pattern).as("rank"),
        sql<number>`floor(extract(epoch from s.starts_at))::bigint`.as("score"),
        snippetOf(pattern, "s.title", [
          ["", "s.summary"],
          ["老师：", "t.name"],
        ]).as("snippet"),
      ]);

  const lessons = database.db
    .selectFrom("public_course_items as p")
    .innerJoin("teachers as t", "t.id", "p.teacher_id")
    .where("p.published_at", "<=", now)
    .where((eb) => eb.or([ilike("p.title", pattern), ilike("p.summary", pattern), ilike("t.name", pattern)]))
    .select([
      sql<HitKind>`'lesson'`.as("kind"),
      "p.id as id",
      rankOf("p.title", words, pattern).as("rank"),
      sql<number>`floor(extract(epoch from p.published_at))::bigint`.as("score"),
      snippetOf(pattern, "p.title", [
        ["", "p.summary"],
        ["老师：", "t.name"],
      ]).as("snippet"),
    ]);

  const activities = database.db
    .selectFrom("activities as a")
    .where((eb) => eb.or([ilike("a.title", pattern), ilike("a.summary", pattern)]))
    .select([
      sql<HitKind>`'activity'`.as("kind"),
      "a.id as id",
      rankOf("a.title", words, pattern).as("rank"),
      sql<number>`floor(extract(epoch from a.starts_at))::bigint`.as("score"),
      snippetOf(pattern, "a.title", [["", "a.summary"]]).as("snippet"),
    ]);

  return {
    courses,
    books,
    commodities,
    live: visibleLive("live"),
    lessons,
    playback: visibleLive("replay"),
    activities,
  };
}

const KIND_ORDER = sql`case h.kind when 'course' then 0 when 'book' then 1 when 'commodity' then 2 when 'live' then 3 when 'lesson' then 4 when 'playback' then 5 else 6 end`;

const dateFormat = new Intl.DateTimeFormat("zh-CN", {
  timeZone: "Asia/Shanghai",
  month: "numeric",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/** The entries of the four kinds shown as plain cards (title, cover character, a line of context). */
async function entriesOf(database: Database, ids: Record<"live" | "lesson" | "playback" | "activity", number[]>) {
  const liveIds = [...ids.live, ...ids.playback];
  const [liveRows, lessonRows, activityRows] = await Promise.all([
    liveIds.length
      ? database.db
          .selectFrom("live_sessions as s")
          .innerJoin("teachers as t", "t.id", "s.teacher_id")
          .select(["s.id", "s.title", "s.summary", "s.cover_char", "s.starts_at", "s.state", "t.name as teacher"])
          .where("s.id", "in", liveIds)
          .execute()
      : [],
    ids.lesson.length
      ? database.db
          .selectFrom("public_course_items as p")
          .innerJoin("teachers as t", "t.id", "p.teacher_id")
          .select(["p.id", "p.title", "p.summary", "p.cover_char", "p.published_at", "t.name as teacher"])
          .where("p.id", "in", ids.lesson)
          .execute()
      : [],
    ids.activity.length
      ? database.db
          .selectFrom("activities as a")
          .select(["a.id", "a.token", "a.title", "a.summary", "a.cover_char", "a.starts_at", "a.ends_at"])
          .where("a.id", "in", ids.activity)
          .execute()
      : [],
  ]);
  const live = new Map<number, SearchEntry>(
    liveRows.map((r) => {
      const startsAt = new Date(r.starts_at);
      const replay = r.state === "replay";
      return [
        r.id,
        {
          id: r.id,
          title: r.title,
          summary: r.summary,
          coverChar: r.cover_char,
          href: replay ? `/playback?id=${r.id}` : `/live/${r.id}`,
          meta: `${r.teacher}老师 · ${dateFormat.format(startsAt)}${replay ? " 直播回放" : " 开播"}`,
          at: startsAt.toISOString(),
        },
      ];
    }),
  );
  const lesson = new Map<number, SearchEntry>(
    lessonRows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        summary: r.summary,
        coverChar: r.cover_char,
        href: `/video/PublicCourseItem?id=${r.id}`,
        meta: `${r.teacher}老师 · 免费公开课`,
        at: new Date(r.published_at).toISOString(),
      },
    ]),
  );
  const activity = new Map<number, SearchEntry>(
    activityRows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        summary: r.summary,
        coverChar: r.cover_char,
        href: `/activitys/${encodeURIComponent(r.token)}`,
        meta: `${dateFormat.format(new Date(r.starts_at))} – ${dateFormat.format(new Date(r.ends_at))}`,
        at: new Date(r.starts_at).toISOString(),
      },
    ]),
  );
  return { live, playback: live, lesson, activity };
}

export async function search(database: Database, query: SearchQuery, now = new Date()): Promise<SearchResult> {
  const { courses, books, commodities, live, lessons, playback, activities } = hitQueries(database, query.q, now);
  const all = courses
    .unionAll(books)
    .unionAll(commodities)
    .unionAll(live)
    .unionAll(lessons)
    .unionAll(playback)
    .unionAll(activities);
  const byKind = {
    course: courses,
    book: books,
    commodity: commodities,
    live,
    lesson: lessons,
    playback,
    activity: activities,
  } as const;
  const chosen = query.kind === "all" ? all : byKind[query.kind];

  const [countRows, hits] = await Promise.all([
    database.db
      .selectFrom(all.as("h"))
      .select((eb) => ["h.kind", eb.fn.countAll<number>().as("count")])
      .groupBy("h.kind")
      .execute(),
    database.db
      .selectFrom(chosen.as("h"))
      .selectAll()
      .orderBy("h.rank")
      .orderBy(KIND_ORDER)
      .orderBy("h.score", "desc")
      .orderBy("h.id")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);

  const counts = { all: 0, course: 0, book: 0, commodity: 0, live: 0, lesson: 0, playback: 0, activity: 0 };
  for (const row of countRows) {
    counts[row.kind] = Number(row.count);
    counts.all += Number(row.count);
  }

  const idsOf = (kind: HitKind) => hits.filter((h) => h.kind === kind).map((h) => h.id);
  const [courseMap, bookRows, commodityRows, entries] = await Promise.all([
    courseSummariesByIds(database.db, idsOf("course")),
    idsOf("book").length ? publishedBooks(database.db).where("id", "in", idsOf("book")).execute() : [],
    idsOf("commodity").length
      ? publishedCommodities(database.db).where("commodities.id", "in", idsOf("commodity")).execute()
      : [],
    entriesOf(database, {
      live: idsOf("live"),
      lesson: idsOf("lesson"),
      playback: idsOf("playback"),
      activity: idsOf("activity"),
    }),
  ]);
  const bookMap = new Map(bookRows.map((r) => [r.id, toBookSummary(r)]));
  const commodityMap = new Map(commodityRows.map((r) => [r.id, commoditySummaryOf(r)]));

  const items: SearchHit[] = [];
  for (const h of hits) {
    const inTitle = Number(h.rank) < 2;
    const base = { matched: inTitle ? ("title" as const) : ("other" as const), snippet: inTitle ? null : h.snippet };
    if (h.kind === "course") {
      const course = courseMap.get(h.id);
      if (course) {
        const key = base.snippet?.startsWith(CATEGORY_LABEL) ? base.snippet.slice(CATEGORY_LABEL.length) : null;
        const name = key === null ? undefined : courseCategories.find((c) => c.key === key)?.name;
        const snippet = name ? `${CATEGORY_LABEL}${name}` : base.snippet;
        items.push({ kind: "course", course, ...base, snippet });
      }
    } else if (h.kind === "book") {
      const book = bookMap.get(h.id);
      if (book) items.push({ kind: "book", book, ...base });
    } else if (h.kind === "commodity") {
      const commodity = commodityMap.get(h.id);
      if (commodity) items.push({ kind: "commodity", commodity, ...base });
    } else {
      const entry = entries[h.kind].get(h.id);
      if (entry) items.push({ kind: h.kind, entry, ...base });
    }
  }

  const total = counts[query.kind];
  return {
    q: query.q,
    kind: query.kind,
    counts,
    items,
    ...pageOf(query, total),
  };
}
