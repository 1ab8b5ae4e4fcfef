/** Books: the list by tab with sorts and pages, the shop front overview, and one book's detail. */
import { sql } from "kysely";
import {
  type BookDetail,
  type BookList,
  type BookListQuery,
  type BookOverview,
  type NamedCount,
  pageOf,
} from "../../../shared/contracts/shop";
import type { Database } from "../../db/database";
import { publishedBooks, toBookSummary } from "../courses/summaries";

const OVERVIEW_NEWEST = 10;
const OVERVIEW_PER_TAB = 5;
const RELATED_BOOKS = 5;

/**
 * A book's popularity (for a row of `books`): the learners of the published courses that use
 * it, i.e. whose title names the work ("兰亭序" in 兰亭序逐字精讲) or whose teacher wrote it.
 * Books carry no sales figure of their own; this ranks the books people study from first.
 */
export const bookPopularity = sql<number>`(
  select coalesce(sum(co.learners_count), 0)
  from courses co join teachers te on te.id = co.teacher_id
  where co.status = 'published'
    and (strpos(co.title, split_part(books.title, '（', 1)) > 0 or strpos(books.author, te.name) > 0)
)`;

/** Every tab with its number of published books, in shelf order (the order they were stocked). */
async function bookTabs(database: Database): Promise<NamedCount[]> {
  const rows = await database.db
    .selectFrom("books")
    .where("status", "=", "published")
    .select((eb) => ["tab", eb.fn.countAll<number>().as("count"), eb.fn.min("id").as("first")])
    .groupBy("tab")
    .orderBy("first")
    .execute();
  return rows.map((r) => ({ name: r.tab, count: Number(r.count) }));
}

export async function listBooks(database: Database, query: BookListQuery): Promise<BookList> {
  const tabs = await bookTabs(database);
  const allCount = tabs.reduce((sum, t) => sum + t.count, 0);
  const total = query.tab === null ? allCount : (tabs.find((t) => t.name === query.tab)?.count ?? 0);

  let select = publishedBooks(database.db);
  if (query.tab !== null) select = select.where("tab", "=", query.tab);
  switch (query.sort) {
    case "newest":
      select = select.orderBy("created_at", "desc");
      break;
    case "popular":
      select = select.orderBy(bookPopularity, "desc");
      break;
    case "price_asc":
      select = select.orderBy("price_cents", "asc");
      break;
    case "price_desc":
      select = select.orderBy("price_cents", "desc");
      break;
  }
  const rows = await select
    .orderBy("id", "desc")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return {
    items: rows.map(toBookSummary),
    ...pageOf(query, total),
    tab: query.tab,
    sort: query.sort,
    tabs,
    allCount,
  };
}

/** The shop front: the newest books and the most popular few of every tab. */
export async function bookOverview(database: Database): Promise<BookOverview> {
  const { db } = database;
  const [tabs, newest, ranked] = await Promise.all([
    bookTabs(database),
    publishedBooks(db).orderBy("created_at", "desc").orderBy("id", "desc").limit(OVERVIEW_NEWEST).execute(),
    db
      .selectFrom(
        publishedBooks(db)
          .select(
            sql<number>`row_number() over (partition by books.tab order by ${bookPopularity} desc, books.id)`.as(
              "place",
            ),
          )
          .as("r"),
      )
      .selectAll()
      .where("r.place", "<=", OVERVIEW_PER_TAB)
      .orderBy("r.place")
      .execute(),
  ]);
  return {
    newest: newest.map(toBookSummary),
    tabs: tabs.map((t) => ({ ...t, books: ranked.filter((b) => b.tab === t.name).map(toBookSummary) })),
    allCount: tabs.reduce((sum, t) => sum + t.count, 0),
  };
}

export async function bookDetail(database: Database, id: number, publicOrigin: string): Promise<BookDetail | null> {
  const book = await publishedBooks(database.db)
    .select(["isbn", "summary", "pages", "published_on"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!book) return null;
  const related = await publishedBooks(database.db)
    .where("tab", "=", book.tab)
    .where("id", "!=", id)
    .orderBy(bookPopularity, "desc")
    .orderBy("id")
    .limit(RELATED_BOOKS)
    .execute();
  return {
    ...toBookSummary(book),
    isbn: book.isbn,
    summary: book.summary,
    pages: book.pages,
    publishedOn: book.published_on,
    url: `${publicOrigin}/books/${book.id}`,
    related: related.map(toBookSummary),
  };
}
