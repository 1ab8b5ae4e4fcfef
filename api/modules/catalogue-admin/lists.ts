/** The operator's catalogue lists (courses, books, stationery): one page each, sorted and filtered on the server. */
import { sql } from "kysely";
import type { CatalogueListQuery } from "../../../shared/contracts/admin-catalogue";
import { type Db, likeOf, pageOfAliased } from "./common";
import { bookOf } from "./goods";

/** One page of the course list: searched by title, id or teacher, filtered by status and category. */
export async function coursePage(db: Db, query: CatalogueListQuery) {
  let q = db
    .selectFrom("courses as c")
    .innerJoin("teachers as t", "t.id", "c.teacher_id")
    .select([
      "c.id",
      "c.title",
      "c.category",
      "c.kind",
      "t.name as teacher_name",
      "c.price_cents",
      "c.original_price_cents",
      "c.status",
      "c.updated_at",
      (eb) =>
        eb
          .selectFrom("lessons as l")
          .select(sql<number>`count(*)::int`.as("n"))
          .whereRef("l.course_id", "=", "c.id")
          .as("lessons"),
    ]);
  if (query.status) q = q.where("c.status", "=", query.status);
  if (query.category) q = q.where("c.category", "=", query.category);
  if (query.q) {
    const text = query.q;
    q = q.where((eb) =>
      /^\d{1,9}$/.test(text)
        ? eb.or([eb("c.id", "=", Number(text)), eb("c.title", "ilike", likeOf(text))])
        : eb.or([eb("c.title", "ilike", likeOf(text)), eb("t.name", "ilike", likeOf(text))]),
    );
  }
  const page = await pageOfAliased(q, query, {
    sortable: {
      id: "c.id",
      title: "c.title",
      price: "c.price_cents",
      status: "c.status",
      updatedAt: "c.updated_at",
    },
    defaultSort: "updatedAt",
    tieBreak: "c.id",
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      title: r.title,
      category: r.category,
      kind: r.kind,
      teacherName: r.teacher_name,
      priceCents: r.price_cents,
      originalPriceCents: r.original_price_cents,
      status: r.status,
      lessons: Number(r.lessons ?? 0),
      updatedAt: r.updated_at.toISOString(),
    })),
  };
}

/** One page of the book list: searched by title, author or ISBN, filtered by status and category. */
export async function bookPage(db: Db, query: CatalogueListQuery) {
  let q = db.selectFrom("books").selectAll();
  if (query.status) q = q.where("status", "=", query.status);
  if (query.category) q = q.where("tab", "=", query.category);
  if (query.q) {
    const like = likeOf(query.q);
    q = q.where((eb) =>
      eb.or([eb("title", "ilike", like), eb("author", "ilike", like), eb("isbn", "=", query.q ?? "")]),
    );
  }
  const page = await pageOfAliased(q, query, {
    sortable: {
      id: "id",
      title: "title",
      price: "price_cents",
      stock: "stock",
      status: "status",
      updatedAt: "updated_at",
    },
    defaultSort: "updatedAt",
    tieBreak: "id",
  });
  return { ...page, rows: page.rows.map(bookOf) };
}

/** One page of the stationery list: searched by title, filtered by status and category. */
export async function commodityPage(db: Db, query: CatalogueListQuery) {
  let q = db.selectFrom("commodities as c").select([
    "c.id",
    "c.title",
    "c.category",
    "c.status",
    "c.updated_at",
    (eb) =>
      eb
        .selectFrom("commodity_skus as s")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("s.commodity_id", "=", "c.id")
        .as("skus"),
    (eb) =>
      eb
        .selectFrom("commodity_skus as s")
        .select(sql<number>`coalesce(sum(s.stock), 0)::int`.as("n"))
        .whereRef("s.commodity_id", "=", "c.id")
        .as("stock"),
    (eb) =>
      eb
        .selectFrom("commodity_skus as s")
        .select(sql<number>`min(s.price_cents)`.as("n"))
        .whereRef("s.commodity_id", "=", "c.id")
        .as("min_price"),
  ]);
  if (query.status) q = q.where("c.status", "=", query.status);
  if (query.category) q = q.where("c.category", "=", query.category);
  if (query.q) q = q.where("c.title", "ilike", likeOf(query.q));
  const page = await pageOfAliased(q, query, {
    sortable: { id: "c.id", title: "c.title", status: "c.status", updatedAt: "c.updated_at" },
    defaultSort: "updatedAt",
    tieBreak: "c.id",
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      title: r.title,
      category: r.category,
      status: r.status,
      skus: Number(r.skus ?? 0),
      stock: Number(r.stock ?? 0),
      minPriceCents: r.min_price === null || r.min_price === undefined ? null : Number(r.min_price),
      updatedAt: r.updated_at.toISOString(),
    })),
  };
}
