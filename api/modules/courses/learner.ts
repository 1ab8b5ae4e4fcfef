/**
 * The signed-in learner's side of the catalogue: their state on one course (enrolment, locks,
 * progress per lesson), free enrolment, and their courses with progress. Progress rows are
 * written by the lesson player; these only read them.
 */
import { type Kysely, sql } from "kysely";
import type { CourseViewer, EnrolResult, MyCourse, MyCourses } from "../../../shared/contracts/courses";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { ApiError } from "../../http";
import { enrolLearner } from "../enrolments/enrolments";
import { isStaff } from "../learning/access";
import { lessonLock } from "./access";
import { courseNotFound, outlineLessons, publishedCourseCore } from "./catalogue";
import { courseSummariesByIds } from "./summaries";

/** Whole percent, rounded down: 100 only once everything is done. */
function percentOf(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.floor((part * 100) / whole));
}

/** The course's own teacher and operators see every lesson open, as the player lets them. */
async function viewerIsStaff(ctx: ApiContext, userId: number, teacherId: number): Promise<boolean> {
  const [user, teacher] = await Promise.all([
    ctx.database.db.selectFrom("users").select(["id", "role"]).where("id", "=", userId).executeTakeFirst(),
    ctx.database.db.selectFrom("teachers").select("user_id").where("id", "=", teacherId).executeTakeFirst(),
  ]);
  return isStaff(user ?? null, teacher?.user_id ?? null);
}

export async function courseViewer(ctx: ApiContext, userId: number, courseId: number): Promise<CourseViewer> {
  const { db } = ctx.database;
  const course = await publishedCourseCore(db, courseId);
  if (!course) throw courseNotFound();
  const [enrolment, lessons, progress] = await Promise.all([
    db
      .selectFrom("enrolments")
      .select(["created_at", "last_lesson_id", "last_learned_at"])
      .where("user_id", "=", userId)
      .where("course_id", "=", courseId)
      .executeTakeFirst(),
    outlineLessons(db, courseId),
    db
      .selectFrom("lesson_progress")
      .innerJoin("lessons", "lessons.id", "lesson_progress.lesson_id")
      .select(["lesson_progress.lesson_id", "lesson_progress.watched_seconds", "lesson_progress.completed_at"])
      .where("lesson_progress.user_id", "=", userId)
      .where("lessons.course_id", "=", courseId)
      .execute(),
  ]);
  const enrolled = enrolment !== undefined;
  const now = ctx.now();
  const [staff, teacher] = await Promise.all([
    viewerIsStaff(ctx, userId, course.teacher_id),
    db.selectFrom("teachers").select("user_id").where("id", "=", course.teacher_id).executeTakeFirst(),
  ]);
  const byLesson = new Map(progress.map((p) => [p.lesson_id, p]));
  const lastLesson = lessons.find((l) => l.id === enrolment?.last_lesson_id);
  let completed = 0;
  const items = lessons.map((lesson) => {
    const lock = lessonLock(course, lesson, { signedIn: true, enrolled, staff }, now);
    const row = byLesson.get(lesson.id);
    const done = row?.completed_at != null;
    if (done) completed++;
    return {
      id: lesson.id,
      locked: lock.locked,
      lockReason: lock.reason,
      completed: done,
      progressPercent: done ? 100 : percentOf(row?.watched_seconds ?? 0, lesson.duration_seconds),
    };
  });
  return {
    enrolled,
    enrolledAt: enrolment?.created_at.toISOString() ?? null,
    continueLessonId: enrolled ? (lastLesson?.id ?? lessons[0]?.id ?? null) : null,
    lastLearnedAt: enrolment?.last_learned_at?.toISOString() ?? null,
    lessonsCompleted: completed,
    lessons: items,
    teaches: teacher?.user_id === userId,
  };
}

export const paymentRequired = () => new ApiError(402, "payment_required", "该课程需购买后学习");

/** The learner's enrolment on a course: where they stopped, and the course's learner count. */
function enrolmentWithCount(db: Kysely<DB>, userId: number, courseId: number) {
  return db
    .selectFrom("enrolments")
    .innerJoin("courses", "courses.id", "enrolments.course_id")
    .select(["courses.learners_count", "enrolments.last_lesson_id"])
    .where("enrolments.user_id", "=", userId)
    .where("enrolments.course_id", "=", courseId);
}

/**
 * Free courses only. Idempotent: the enrolment row is inserted at most once and the learner
 * count and popularity grow only with the request that inserted it (enrolLearner, in one
 * transaction, so concurrent requests on PostgreSQL wait on the row's key and then find it there).
 */
export async function enrolFree(ctx: ApiContext, userId: number, courseId: number): Promise<EnrolResult> {
  const { db } = ctx.database;
  const course = await publishedCourseCore(db, courseId);
  if (!course) throw courseNotFound();
  const firstLesson = async () => (await outlineLessons(db, courseId))[0]?.id ?? null;

  if (course.price_cents > 0) {
    // Bought (or given) already: nothing to do; otherwise it has to be bought.
    const existing = await enrolmentWithCount(db, userId, courseId).executeTakeFirst();
    if (!existing) throw paymentRequired();
    return {
      enrolled: true,
      newlyEnrolled: false,
      learnersCount: existing.learners_count,
      continueLessonId: existing.last_lesson_id ?? (await firstLesson()),
    };
  }

  const result = await db.transaction().execute(async (trx) => {
    const enrolled = await enrolLearner(trx, userId, courseId, "free", ctx.now());
    if (enrolled) return { newlyEnrolled: true, learnersCount: enrolled.learnersCount, lastLessonId: null };
    const row = await enrolmentWithCount(trx, userId, courseId).executeTakeFirstOrThrow();
    return { newlyEnrolled: false, learnersCount: row.learners_count, lastLessonId: row.last_lesson_id };
  });
  return {
    enrolled: true,
    newlyEnrolled: result.newlyEnrolled,
    learnersCount: result.learnersCount,
    continueLessonId: result.lastLessonId ?? (await firstLesson()),
  };
}

/** Enough for any learner; the page shows them all at once. */
export const MY_COURSES_LIMIT = 200;

export async function myCourses(ctx: ApiContext, userId: number, limit = MY_COURSES_LIMIT): Promise<MyCourses> {
  const { db } = ctx.database;
  const rows = await db
    .selectFrom("enrolments")
    .innerJoin("courses", "courses.id", "enrolments.course_id")
    .leftJoin("lessons as last", (join) =>
      join.onRef("last.id", "=", "enrolments.last_lesson_id").onRef("last.course_id", "=", "enrolments.course_id"),
    )
    .select((eb) => [
      "enrolments.course_id",
      "enrolments.created_at",
      "enrolments.last_learned_at",
      "last.id as last_lesson_id",
      "last.title as last_lesson_title",
      eb
        .selectFrom("lessons")
        .select((l) => l.fn.countAll<number>().as("n"))
        .whereRef("lessons.course_id", "=", "enrolments.course_id")
        .as("lessons_total"),
      eb
        .selectFrom("lesson_progress")
        .innerJoin("lessons", "lessons.id", "lesson_progress.lesson_id")
        .select((l) => l.fn.countAll<number>().as("n"))
        .whereRef("lessons.course_id", "=", "enrolments.course_id")
        .whereRef("lesson_progress.user_id", "=", "enrolments.user_id")
        .where("lesson_progress.completed_at", "is not", null)
        .as("lessons_completed"),
    ])
    .where("enrolments.user_id", "=", userId)
    .where("courses.status", "=", "published")
    .orderBy(sql`enrolments.last_learned_at desc nulls last`)
    .orderBy("enrolments.created_at", "desc")
    .orderBy("enrolments.course_id", "desc")
    .limit(limit)
    .execute();

  const ids = rows.map((r) => r.course_id);
  const [summaries, firstLessons, total] = await Promise.all([
    courseSummariesByIds(db, ids),
    ids.length
      ? db
          .selectFrom("lessons")
          .innerJoin("chapters", "chapters.id", "lessons.chapter_id")
          .select(["lessons.course_id", "lessons.id"])
          .distinctOn("lessons.course_id")
          .where("lessons.course_id", "in", ids)
          .orderBy("lessons.course_id")
          .orderBy("chapters.position")
          .orderBy("lessons.position")
          .orderBy("lessons.id")
          .execute()
      : Promise.resolve([]),
    db
      .selectFrom("enrolments")
      .innerJoin("courses", "courses.id", "enrolments.course_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("enrolments.user_id", "=", userId)
      .where("courses.status", "=", "published")
      .executeTakeFirstOrThrow(),
  ]);
  const firstOf = new Map(firstLessons.map((l) => [l.course_id, l.id]));

  const items: MyCourse[] = [];
  for (const row of rows) {
    const course = summaries.get(row.course_id);
    if (!course) continue;
    const lessonsTotal = Number(row.lessons_total ?? 0);
    const lessonsCompleted = Number(row.lessons_completed ?? 0);
    const lastLesson =
      row.last_lesson_id !== null && row.last_lesson_title !== null
        ? { id: row.last_lesson_id, title: row.last_lesson_title }
        : null;
    items.push({
      course,
      enrolledAt: row.created_at.toISOString(),
      lessonsTotal,
      lessonsCompleted,
      percent: percentOf(lessonsCompleted, lessonsTotal),
      lastLesson,
      lastLearnedAt: row.last_learned_at?.toISOString() ?? null,
      continueLessonId: lastLesson?.id ?? firstOf.get(row.course_id) ?? null,
    });
  }
  return { items, total: Number(total.n) };
}
