/**
 * The catalogue's summary rows (course, book, commodity, live session, teacher) as the shared
 * contracts describe them, read the same way by the course list, the course page and the home
 * page. Only published items are listed.
 */
import { type Kysely, type SqlBool, sql } from "kysely";
import type {
  BookSummary,
  CommoditySummary,
  CourseSummary,
  LiveSummary,
  TeacherSummary,
} from "../../../shared/contracts/catalogue";
import type { DB, LiveState } from "../../db/schema";
import { effectiveState } from "../live/states";
import { type LiveSummaryRow, liveSummaryOf } from "../live/sessions";

/** Published courses with their teacher; filter and order before selecting `courseSummaryColumns`. */
export function publishedCourses(db: Kysely<DB>) {
  return db
    .selectFrom("courses")
    .innerJoin("teachers", "teachers.id", "courses.teacher_id")
    .where("courses.status", "=", "published");
}

export function selectCourseSummaries(query: ReturnType<typeof publishedCourses>) {
  return query.select((eb) => [
    "courses.id",
    "courses.title",
    "courses.subtitle",
    "courses.category",
    "courses.kind",
    "courses.level",
    "teachers.name as teacher_name",
    "courses.price_cents",
    "courses.original_price_cents",
    "courses.learners_count",
    "courses.cover_char",
    "courses.cover_image",
    "courses.is_public",
    eb
      .selectFrom("lessons")
      .select((l) => l.fn.countAll<number>().as("n"))
      .whereRef("lessons.course_id", "=", "courses.id")
      .as("lessons_count"),
  ]);
}

type CourseSummaryRow = Awaited<ReturnType<ReturnType<typeof selectCourseSummaries>["execute"]>>[number];

export function toCourseSummary(row: CourseSummaryRow): CourseSummary {
  return {
    id: row.id,
    title: row.title,
    subtitle: row.subtitle,
    category: row.category,
    kind: row.kind,
    level: row.level,
    teacherName: row.teacher_name,
    priceCents: row.price_cents,
    originalPriceCents: row.original_price_cents,
    learnersCount: row.learners_count,
    lessonsCount: Number(row.lessons_count ?? 0),
    coverChar: row.cover_char,
    coverImage: row.cover_image,
    isPublic: row.is_public,
  };
}

/** Summaries of the given courses, in the order of `ids` (unknown or unpublished ids left out). */
export async function courseSummariesByIds(db: Kysely<DB>, ids: number[]): Promise<Map<number, CourseSummary>> {
  if (ids.length === 0) return new Map();
  const rows = await selectCourseSummaries(publishedCourses(db).where("courses.id", "in", ids)).execute();
  return new Map(rows.map((r) => [r.id, toCourseSummary(r)]));
}

export function publishedBooks(db: Kysely<DB>) {
  return db
    .selectFrom("books")
    .select([
      "id",
      "title",
      "author",
      "publisher",
      "tab",
      "price_cents",
      "original_price_cents",
      "stock",
      "cover_char",
      "cover_image",
      "created_at",
    ])
    .where("status", "=", "published");
}

export function toBookSummary(row: {
  id: number;
  title: string;
  author: string;
  publisher: string;
  tab: string;
  price_cents: number;
  original_price_cents: number;
  stock: number;
  cover_char: string;
  cover_image: string | null;
}): BookSummary {
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    publisher: row.publisher,
    tab: row.tab,
    priceCents: row.price_cents,
    originalPriceCents: row.original_price_cents,
    stock: row.stock,
    coverChar: row.cover_char,
    coverImage: row.cover_image,
  };
}

/** Published stationery that has at least one SKU, priced by its cheapest SKU. */
export function publishedCommodities(db: Kysely<DB>) {
  const cheapest = (column: "price_cents" | "original_price_cents") =>
    sql<number>`(select ${sql.ref(`s.${column}`)} from commodity_skus s where s.commodity_id = commodities.id order by s.price_cents, s.position, s.id limit 1)`;
  return db
    .selectFrom("commodities")
    .select((eb) => [
      "commodities.id",
      "commodities.title",
      "commodities.category",
      "commodities.summary",
      "commodities.sales",
      "commodities.cover_char",
      "commodities.cover_image",
      cheapest("price_cents").as("price_cents"),
      cheapest("original_price_cents").as("original_price_cents"),
      eb
        .exists(
          eb
            .selectFrom("commodity_skus")
            .select("commodity_skus.id")
            .whereRef("commodity_skus.commodity_id", "=", "commodities.id")
            .where("commodity_skus.stock", ">", 0),
        )
        .as("in_stock"),
    ])
    .where("commodities.status", "=", "published")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("commodity_skus")
          .select("commodity_skus.id")
          .whereRef("commodity_skus.commodity_id", "=", "commodities.id"),
      ),
    );
}

export function toCommoditySummary(row: {
  id: number;
  title: string;
  category: string;
  summary: string;
  sales: number;
  cover_char: string;
  cover_image: string | null;
  price_cents: number;
  original_price_cents: number;
  in_stock: SqlBool;
}): CommoditySummary {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    summary: row.summary,
    priceCents: Number(row.price_cents),
    originalPriceCents: Number(row.original_price_cents),
    inStock: Boolean(row.in_stock),
    sales: row.sales,
    coverChar: row.cover_char,
    coverImage: row.cover_image,
  };
}

/** The state the live pages show too: the clock's, never backwards, never a replay without a recording. */
export function toLiveSummary(
  row: LiveSummaryRow & { state: LiveState; recording_video_key: string | null },
  now: Date,
): LiveSummary {
  return liveSummaryOf(row, effectiveState(row, now));
}

export async function allTeachers(db: Kysely<DB>): Promise<TeacherSummary[]> {
  const rows = await db.selectFrom("teachers").selectAll().orderBy("position").orderBy("id").execute();
  return rows.map(toTeacherSummary);
}

export function toTeacherSummary(row: {
  id: number;
  name: string;
  title: string;
  specialty: string;
  bio: string;
  portrait_char: string;
}): TeacherSummary {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    specialty: row.specialty,
    bio: row.bio,
    portraitChar: row.portrait_char,
  };
}
