/**
 * Courses as staff change them: the course itself, its teacher, status and cover (its chapters and
 * lessons are in course-contents.ts). Every change is written with its audit entry in one transaction; the catalogue
 * triggers (migration 010) tell every node to drop the public pages and answers it kept.
 */
import { sql } from "kysely";
import type {
  AdminChapter,
  AdminCourse,
  CourseCreate,
  CoursePatch,
  LessonInput,
  TaskFields,
} from "../../../shared/contracts/admin-catalogue";
import { type coursePatchSchema, type courseCreateSchema } from "../../../shared/contracts/admin-catalogue";
import type { z } from "zod";
import type { PublishStatus } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { conflict, type Db } from "./common";

type CourseInput = z.output<typeof courseCreateSchema>;
type CourseChange = z.output<typeof coursePatchSchema>;
export type { CourseCreate, CoursePatch, LessonInput, TaskFields };

const COURSE_COLUMNS = {
  title: "title",
  subtitle: "subtitle",
  category: "category",
  kind: "kind",
  level: "level",
  teacherId: "teacher_id",
  priceCents: "price_cents",
  originalPriceCents: "original_price_cents",
  coverChar: "cover_char",
  summary: "summary",
  introduction: "introduction",
} as const;

const badTeacher = () => new ApiError(400, "invalid_input", "授课老师不存在");

async function teacherUser(db: Db, teacherId: number): Promise<{ user_id: number | null }> {
  const teacher = await db.selectFrom("teachers").select("user_id").where("id", "=", teacherId).executeTakeFirst();
  if (!teacher) throw badTeacher();
  return teacher;
}

/** The course's teacher account (if the profile has one) reviews and edits it. */
async function linkTeacher(db: Db, courseId: number, teacherId: number, previousTeacherId?: number): Promise<void> {
  const next = await teacherUser(db, teacherId);
  if (previousTeacherId !== undefined && previousTeacherId !== teacherId) {
    const previous = await teacherUser(db, previousTeacherId);
    if (previous.user_id !== null && previous.user_id !== next.user_id) {
      await db
        .deleteFrom("course_teachers")
        .where("course_id", "=", courseId)
        .where("user_id", "=", previous.user_id)
        .execute();
    }
  }
  if (next.user_id !== null) {
    await db
      .insertInto("course_teachers")
      .values({ course_id: courseId, user_id: next.user_id })
      .onConflict((oc) => oc.columns(["course_id", "user_id"]).doNothing())
      .execute();
  }
}

/** The fields of a course row that an input names, as columns. */
function columnsOf(input: CourseChange): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COURSE_COLUMNS)) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) out[column] = value;
  }
  return out;
}

export async function createCourse(db: Db, actorId: number, input: CourseInput, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await teacherUser(trx, input.teacherId);
    const row = await trx
      .insertInto("courses")
      .values({
        title: input.title,
        subtitle: input.subtitle,
        category: input.category,
        kind: input.kind,
        level: input.level,
        teacher_id: input.teacherId,
        price_cents: input.priceCents,
        original_price_cents: input.originalPriceCents,
        cover_char: input.coverChar,
        summary: input.summary,
        introduction: input.introduction,
        outcomes: "[]",
        status: "draft",
        published_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await linkTeacher(trx, row.id, input.teacherId);
    await recordAudit(trx, {
      actorId,
      action: "course.create",
      targetType: "course",
      targetId: row.id,
      after: { ...input, status: "draft" },
    });
    return row.id;
  });
}

export async function updateCourse(
  db: Db,
  actorId: number,
  courseId: number,
  input: CourseChange,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("courses")
      .selectAll()
      .where("id", "=", courseId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound();
    const price = input.priceCents ?? before.price_cents;
    const original = input.originalPriceCents ?? before.original_price_cents;
    if (original < price) throw new ApiError(400, "invalid_input", "划线价不能低于售价");
    const changes = columnsOf(input);
    const beforeFields: Record<string, unknown> = {};
    const afterFields: Record<string, unknown> = {};
    for (const [key, column] of Object.entries(COURSE_COLUMNS)) {
      if (!(column in changes)) continue;
      const old = before[column as keyof typeof before];
      if (old === changes[column]) continue;
      beforeFields[key] = old;
      afterFields[key] = changes[column];
    }
    if (Object.keys(afterFields).length === 0) return;
    await trx
      .updateTable("courses")
      .set({ ...changes, updated_at: now })
      .where("id", "=", courseId)
      .execute();
    if (input.teacherId !== undefined) await linkTeacher(trx, courseId, input.teacherId, before.teacher_id);
    await recordAudit(trx, {
      actorId,
      action: "course.update",
      targetType: "course",
      targetId: courseId,
      before: beforeFields,
      after: afterFields,
    });
  });
}

export async function setCourseStatus(
  db: Db,
  actorId: number,
  courseId: number,
  status: PublishStatus,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const course = await trx
      .selectFrom("courses")
      .select(["status", "kind"])
      .where("id", "=", courseId)
      .forUpdate()
      .executeTakeFirst();
    if (!course) throw notFound();
    if (course.status === status) return;
    if (status === "published" && course.kind !== "live") {
      const lesson = await trx.selectFrom("lessons").select("id").where("course_id", "=", courseId).executeTakeFirst();
      if (!lesson) throw conflict("至少要有一节课时才能上架", "no_lessons");
    }
    await trx
      .updateTable("courses")
      .set({ status, updated_at: now, ...(status === "published" ? { published_at: now } : {}) })
      .where("id", "=", courseId)
      .execute();
    await recordAudit(trx, {
      actorId,
      action: status === "published" ? "course.publish" : "course.unpublish",
      targetType: "course",
      targetId: courseId,
      before: { status: course.status },
      after: { status },
    });
  });
}

export async function setCourseCover(db: Db, actorId: number, courseId: number, url: string): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("courses")
      .select("cover_image")
      .where("id", "=", courseId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound();
    await trx.updateTable("courses").set({ cover_image: url }).where("id", "=", courseId).execute();
    await recordAudit(trx, {
      actorId,
      action: "course.cover",
      targetType: "course",
      targetId: courseId,
      before: { coverImage: before.cover_image },
      after: { coverImage: url },
    });
    return before.cover_image;
  });
}

/** The course with every chapter, lesson and task, in order (404 when there is none). */
export async function loadCourse(db: Db, courseId: number): Promise<AdminCourse> {
  const course = await db
    .selectFrom("courses as c")
    .innerJoin("teachers as t", "t.id", "c.teacher_id")
    .selectAll("c")
    .select("t.name as teacher_name")
    .where("c.id", "=", courseId)
    .executeTakeFirst();
  if (!course) throw notFound();
  const [chapters, lessons] = await Promise.all([
    db
      .selectFrom("chapters")
      .select(["id", "position", "title"])
      .where("course_id", "=", courseId)
      .orderBy("position")
      .execute(),
    db
      .selectFrom("lessons as l")
      .leftJoin("homework_tasks as h", "h.lesson_id", "l.id")
      .select([
        "l.id",
        "l.chapter_id",
        "l.position",
        "l.title",
        "l.summary",
        "l.video_key",
        "l.video_url",
        "l.duration_seconds",
        "l.is_trial",
        "h.id as task_id",
        "h.title as task_title",
        "h.instructions",
        "h.characters",
        "h.script",
        "h.max_photos",
        (eb) =>
          eb
            .selectFrom("homework_submissions as s")
            .select(sql<number>`count(*)::int`.as("n"))
            .whereRef("s.task_id", "=", "h.id")
            .as("submissions"),
      ])
      .where("l.course_id", "=", courseId)
      .orderBy("l.position")
      .orderBy("l.id")
      .execute(),
  ]);
  const byChapter = new Map<number, AdminChapter>(
    chapters.map((c) => [c.id, { id: c.id, position: c.position, title: c.title, lessons: [] }]),
  );
  for (const l of lessons) {
    byChapter.get(l.chapter_id)?.lessons.push({
      id: l.id,
      chapterId: l.chapter_id,
      position: l.position,
      title: l.title,
      summary: l.summary,
      videoKey: l.video_key,
      videoUrl: l.video_url,
      durationSeconds: l.duration_seconds,
      isTrial: l.is_trial,
      task:
        l.task_id !== null && l.script !== null
          ? {
              id: l.task_id,
              title: l.task_title ?? "",
              instructions: l.instructions ?? "",
              characters: l.characters ?? "",
              script: l.script,
              maxPhotos: l.max_photos ?? 9,
              submissions: Number(l.submissions ?? 0),
            }
          : null,
    });
  }
  return {
    id: course.id,
    title: course.title,
    subtitle: course.subtitle,
    category: course.category,
    kind: course.kind,
    level: course.level,
    teacherId: course.teacher_id,
    teacherName: course.teacher_name,
    priceCents: course.price_cents,
    originalPriceCents: course.original_price_cents,
    coverChar: course.cover_char,
    coverImage: course.cover_image,
    summary: course.summary,
    introduction: course.introduction,
    status: course.status,
    updatedAt: course.updated_at.toISOString(),
    chapters: [...byChapter.values()],
  };
}

export async function touchCourse(db: Db, courseId: number, now: Date): Promise<void> {
  await db.updateTable("courses").set({ updated_at: now }).where("id", "=", courseId).execute();
}

/** Locks the course row (so concurrent changes of its order queue up) or 404. */
export async function lockCourse(db: Db, courseId: number): Promise<void> {
  const row = await db.selectFrom("courses").select("id").where("id", "=", courseId).forUpdate().executeTakeFirst();
  if (!row) throw notFound();
}
