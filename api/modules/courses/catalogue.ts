/** The public side of the course catalogue: the filtered list and a course's detail. */
import type { Kysely } from "kysely";
import type { CourseCategoryKey } from "../../../shared/catalogue";
import type { BookSummary, CommoditySummary } from "../../../shared/contracts/catalogue";
import type {
  CourseDetail,
  CourseList,
  CourseListQuery,
  OutlineChapter,
  OutlineLesson,
} from "../../../shared/contracts/courses";
import type { ApiContext } from "../../context";
import type { CourseKind, DB } from "../../db/schema";
import { notFound } from "../../http";
import { runningCampaign } from "../campaigns/campaigns";
import { liveSummaries } from "../live/sessions";
import { campUnlockDate, lessonLock } from "./access";
import {
  publishedBooks,
  publishedCommodities,
  publishedCourses,
  selectCourseSummaries,
  toBookSummary,
  toCommoditySummary,
  toCourseSummary,
  toLiveSummary,
  toTeacherSummary,
} from "./summaries";

export const courseNotFound = () => notFound("课程不存在");

export async function listCourses(ctx: ApiContext, query: CourseListQuery): Promise<CourseList> {
  const { db } = ctx.database;
  let filtered = publishedCourses(db);
  if (query.category) filtered = filtered.where("courses.category", "=", query.category);
  if (query.kind) filtered = filtered.where("courses.kind", "=", query.kind);
  if (query.level) filtered = filtered.where("courses.level", "=", query.level);
  if (query.price === "free") filtered = filtered.where("courses.price_cents", "=", 0);
  if (query.price === "paid") filtered = filtered.where("courses.price_cents", ">", 0);

  let rows = selectCourseSummaries(filtered);
  switch (query.sort) {
    case "popular":
      rows = rows.orderBy("courses.popularity", "desc");
      break;
    case "newest":
      rows = rows.orderBy("courses.published_at", "desc");
      break;
    case "price_asc":
      rows = rows.orderBy("courses.price_cents", "asc");
      break;
    case "price_desc":
      rows = rows.orderBy("courses.price_cents", "desc");
      break;
  }
  const offset = (query.page - 1) * query.pageSize;
  const [items, count] = await Promise.all([
    rows.orderBy("courses.id", "asc").limit(query.pageSize).offset(offset).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.n);
  return {
    items: items.map(toCourseSummary),
    total,
    page: query.page,
    pageSize: query.pageSize,
    hasMore: offset + items.length < total,
  };
}

export interface CourseCore {
  id: number;
  price_cents: number;
  kind: CourseKind;
  camp_starts_on: string | null;
  teacher_id: number;
}

/** A published course's fields that decide access, or null. */
export async function publishedCourseCore(db: Kysely<DB>, id: number): Promise<CourseCore | null> {
  const row = await db
    .selectFrom("courses")
    .select(["id", "price_cents", "kind", "camp_starts_on", "teacher_id"])
    .where("id", "=", id)
    .where("status", "=", "published")
    .executeTakeFirst();
  return row ?? null;
}

/** The course's lessons in outline order, with their chapter. */
export function outlineLessons(db: Kysely<DB>, courseId: number) {
  return db
    .selectFrom("lessons")
    .innerJoin("chapters", "chapters.id", "lessons.chapter_id")
    .select([
      "lessons.id",
      "lessons.title",
      "lessons.duration_seconds",
      "lessons.is_trial",
      "lessons.unlock_day",
      "chapters.id as chapter_id",
      "chapters.title as chapter_title",
    ])
    .where("lessons.course_id", "=", courseId)
    .orderBy("chapters.position")
    .orderBy("lessons.position")
    .orderBy("lessons.id")
    .execute();
}

export async function courseDetail(ctx: ApiContext, id: number): Promise<CourseDetail> {
  const { db } = ctx.database;
  const now = ctx.now();
  const [summaryRow, course] = await Promise.all([
    selectCourseSummaries(publishedCourses(db).where("courses.id", "=", id)).executeTakeFirst(),
    db
      .selectFrom("courses")
      .innerJoin("teachers", "teachers.id", "courses.teacher_id")
      .select([
        "courses.summary",
        "courses.introduction",
        "courses.outcomes",
        "courses.camp_starts_on",
        "courses.published_at",
        "courses.price_cents",
        "courses.kind",
        "teachers.id as teacher_id",
        "teachers.name as teacher_name",
        "teachers.title as teacher_title",
        "teachers.specialty as teacher_specialty",
        "teachers.bio as teacher_bio",
        "teachers.portrait_char as teacher_portrait_char",
      ])
      .where("courses.id", "=", id)
      .where("courses.status", "=", "published")
      .executeTakeFirst(),
  ]);
  if (!summaryRow || !course) throw courseNotFound();
  const summary = toCourseSummary(summaryRow);

  const [lessons, lives, related, groupBuy] = await Promise.all([
    outlineLessons(db, id),
    liveSummaries(db).where("s.course_id", "=", id).orderBy("s.starts_at").execute(),
    relatedItems(db, summary.category as CourseCategoryKey, `${summary.title}${summary.subtitle}`),
    course.price_cents > 0 ? runningCampaign(db, id, now) : null,
  ]);

  const chapters: OutlineChapter[] = [];
  for (const lesson of lessons) {
    // The public outline is what an anonymous visitor sees; /me adds the learner's own view.
    const lock = lessonLock(course, lesson, { signedIn: false, enrolled: false, staff: false }, now);
    const item: OutlineLesson = {
      id: lesson.id,
      title: lesson.title,
      durationSeconds: lesson.duration_seconds,
      isTrial: lesson.is_trial,
      locked: lock.locked,
      lockReason: lock.reason,
      unlockDay: course.kind === "camp" ? lesson.unlock_day : null,
      unlockDate: course.kind === "camp" ? campUnlockDate(course.camp_starts_on, lesson.unlock_day) : null,
    };
    const last = chapters.at(-1);
    if (last && last.id === lesson.chapter_id) last.lessons.push(item);
    else chapters.push({ id: lesson.chapter_id, title: lesson.chapter_title, lessons: [item] });
  }

  return {
    ...summary,
    summary: course.summary,
    introduction: course.introduction,
    outcomes: Array.isArray(course.outcomes) ? course.outcomes.filter((o) => typeof o === "string") : [],
    teacher: toTeacherSummary({
      id: course.teacher_id,
      name: course.teacher_name,
      title: course.teacher_title,
      specialty: course.teacher_specialty,
      bio: course.teacher_bio,
      portrait_char: course.teacher_portrait_char,
    }),
    campStartsOn: course.camp_starts_on,
    publishedAt: course.published_at.toISOString(),
    chapters,
    firstLessonId: lessons[0]?.id ?? null,
    firstTrialLessonId: lessons.find((l) => l.is_trial)?.id ?? null,
    relatedBooks: related.books,
    relatedCommodities: related.commodities,
    liveSessions: lives.map((l) => toLiveSummary(l, now)),
    groupBuy,
  };
}

/**
 * What to read and what to write with, per course category: the book tabs and stationery
 * categories that fit it, best first.
 */
const relatedByCategory: Record<CourseCategoryKey, { tabs: string[]; stationery: string[] }> = {
  kaishu: { tabs: ["碑帖", "技法"], stationery: ["毛笔", "字帖纸", "墨汁", "宣纸", "砚台"] },
  xingshu: { tabs: ["碑帖", "技法"], stationery: ["毛笔", "宣纸", "墨汁", "砚台", "字帖纸"] },
  lishu: { tabs: ["碑帖", "技法"], stationery: ["毛笔", "宣纸", "墨汁", "字帖纸", "砚台"] },
  zhuanshu: { tabs: ["碑帖", "技法", "理论"], stationery: ["毛笔", "宣纸", "墨汁", "砚台"] },
  caoshu: { tabs: ["碑帖", "技法", "理论"], stationery: ["毛笔", "宣纸", "墨汁", "砚台"] },
  yingbi: { tabs: ["硬笔字帖"], stationery: ["硬笔", "字帖纸", "文具"] },
  xiezuo: { tabs: ["写作", "国学经典"], stationery: ["文具", "硬笔"] },
  guoxue: { tabs: ["国学经典", "理论", "碑帖"], stationery: ["毛笔", "宣纸", "文具"] },
};

/** How many related items a course page shows: a shelf of books and a row of stationery. */
export const RELATED_LIMITS = { books: 6, commodities: 4, atLeast: 3 } as const;

/** Characters too common in titles to say two items belong together. */
const COMMON_CHARS = new Set([..."书法字帖楷碑入门课讲写的与之和精练学套装一二三四五六七八十天"]);

function sharedCharacters(a: string, b: string): number {
  const mine = new Set([...a].filter((ch) => /\p{Script=Han}/u.test(ch) && !COMMON_CHARS.has(ch)));
  return new Set([...b].filter((ch) => mine.has(ch))).size;
}

interface Candidate<T> {
  item: T;
  /** Characters shared with the course's title. */
  score: number;
  /** Place of the item's tab or category in the course's list; -1 when it does not fit. */
  fit: number;
}

/**
 * The fitting items, those sharing more characters with the course first, then the better fit,
 * then `tieBreak`; up to `limit`, topped up from the others only to reach `atLeast`. `spread`
 * takes the best of each fitting category in turn (a brush, a copybook, ink, paper), not four
 * brushes.
 */
function pick<T>(candidates: Candidate<T>[], limit: number, tieBreak: (a: T, b: T) => number, spread = false): T[] {
  const order = (x: Candidate<T>, y: Candidate<T>) => y.score - x.score || x.fit - y.fit || tieBreak(x.item, y.item);
  const fitting = candidates.filter((c) => c.fit >= 0).sort(order);
  const others = candidates.filter((c) => c.fit < 0).sort(order);
  let chosen = fitting.slice(0, limit);
  if (spread) {
    const groups = new Map<number, Candidate<T>[]>();
    for (const c of fitting) groups.set(c.fit, [...(groups.get(c.fit) ?? []), c]);
    const queues = [...groups.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
    chosen = [];
    for (let round = 0; chosen.length < limit && queues.some((q) => q.length > round); round++) {
      for (const queue of queues) {
        const next = queue[round];
        if (next && chosen.length < limit) chosen.push(next);
      }
    }
    chosen.sort((x, y) => y.score - x.score);
  }
  if (chosen.length < RELATED_LIMITS.atLeast) chosen.push(...others.slice(0, RELATED_LIMITS.atLeast - chosen.length));
  return chosen.map((c) => c.item);
}

/**
 * Books and stationery for a course: those whose tab or category fits its category, the ones
 * sharing characters with its title first (the 九成宫醴泉铭 copybook for the 九成宫 course);
 * stationery one of each kind in turn.
 */
export async function relatedItems(
  db: Kysely<DB>,
  category: CourseCategoryKey,
  courseText: string,
): Promise<{ books: BookSummary[]; commodities: CommoditySummary[] }> {
  const fit = relatedByCategory[category] ?? { tabs: [], stationery: [] };
  const [books, commodities, siblings] = await Promise.all([
    publishedBooks(db).execute(),
    publishedCommodities(db).execute(),
    publishedCourses(db)
      .select(["courses.title", "courses.subtitle"])
      .where("courses.category", "=", category)
      .execute(),
  ]);
  // The course's own title counts most; the rest of its category says what the category reads
  // (曹全碑 and 张迁碑 for a 隶书 taster that names neither).
  const categoryText = siblings.map((c) => c.title + c.subtitle).join("");
  const score = (title: string) => 10 * sharedCharacters(courseText, title) + sharedCharacters(categoryText, title);
  const chosenBooks = pick(
    books.map((b) => ({ item: b, score: score(b.title), fit: fit.tabs.indexOf(b.tab) })),
    RELATED_LIMITS.books,
    (a, b) => a.id - b.id,
  );
  const chosenCommodities = pick(
    commodities.map((c) => ({ item: c, score: score(c.title), fit: fit.stationery.indexOf(c.category) })),
    RELATED_LIMITS.commodities,
    (a, b) => b.sales - a.sales || a.id - b.id,
    true,
  );
  return { books: chosenBooks.map(toBookSummary), commodities: chosenCommodities.map(toCommoditySummary) };
}
