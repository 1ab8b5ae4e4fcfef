/**
 * Substring search over courses, books and stationery (docs/decisions/007-catalogue-search.md).
 * The words are matched literally (`%`, `_` and `\` escaped) with ILIKE, which behaves the same
 * on PGlite and PostgreSQL and needs no Chinese word segmentation. Exact titles rank first, then
 * titles that contain the words, then matches in other fields (subtitle, teacher, author…).
 */
import { type Expression, type SqlBool, sql } from "kysely";
import { courseCategories } from "../../../shared/catalogue";
import type { SearchHit, SearchKind, SearchQuery, SearchResult } from "../../../shared/contracts/search";
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

function hitQueries(database: Database, words: string) {
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

  return { courses, books, commodities };
}

export async function search(database: Database, query: SearchQuery): Promise<SearchResult> {
  const { courses, books, commodities } = hitQueries(database, query.q);
  const all = courses.unionAll(books).unionAll(commodities);
  const byKind = { course: courses, book: books, commodity: commodities } as const;
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
      .orderBy(sql`case h.kind when 'course' then 0 when 'book' then 1 else 2 end`)
      .orderBy("h.score", "desc")
      .orderBy("h.id")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);

  const counts = { all: 0, course: 0, book: 0, commodity: 0 };
  for (const row of countRows) {
    counts[row.kind] = Number(row.count);
    counts.all += Number(row.count);
  }

  const idsOf = (kind: HitKind) => hits.filter((h) => h.kind === kind).map((h) => h.id);
  const [courseMap, bookRows, commodityRows] = await Promise.all([
    courseSummariesByIds(database.db, idsOf("course")),
    idsOf("book").length ? publishedBooks(database.db).where("id", "in", idsOf("book")).execute() : [],
    idsOf("commodity").length
      ? publishedCommodities(database.db).where("commodities.id", "in", idsOf("commodity")).execute()
      : [],
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
    } else {
      const commodity = commodityMap.get(h.id);
      if (commodity) items.push({ kind: "commodity", commodity, ...base });
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
