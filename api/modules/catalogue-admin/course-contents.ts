/**
 * A course's contents as staff change them: chapters, lessons (with their order and video) and
 * homework tasks. Every change is written with its audit entry in one transaction and touches
 * the course, so the catalogue triggers (migration 010) drop the pages that show it.
 */
import { sql } from "kysely";
import type { CourseOrder, VideoSource } from "../../../shared/contracts/admin-catalogue";
import {
  type lessonInputSchema,
  type lessonPatchSchema,
  type taskFieldsSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { z } from "zod";
import { parseLessonCardKey, uploadedVideoFolder } from "../../../shared/media";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { conflict, type Db } from "./common";
import { lockCourse, touchCourse } from "./courses";

type LessonFields = z.output<typeof lessonInputSchema>;
type LessonChange = z.output<typeof lessonPatchSchema>;
type TaskInput = z.output<typeof taskFieldsSchema>;

export async function addChapter(db: Db, actorId: number, courseId: number, title: string, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockCourse(trx, courseId);
    const last = await trx
      .selectFrom("chapters")
      .select(sql<number>`coalesce(max(position), 0)::int`.as("p"))
      .where("course_id", "=", courseId)
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto("chapters")
      .values({ course_id: courseId, title, position: Number(last.p) + 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await touchCourse(trx, courseId, now);
    await recordAudit(trx, {
      actorId,
      action: "chapter.create",
      targetType: "chapter",
      targetId: row.id,
      after: { courseId, title },
    });
    return row.id;
  });
}

async function chapterCourse(db: Db, chapterId: number): Promise<{ course_id: number; title: string }> {
  const row = await db
    .selectFrom("chapters")
    .select(["course_id", "title"])
    .where("id", "=", chapterId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function renameChapter(db: Db, actorId: number, chapterId: number, title: string, now: Date) {
  return db.transaction().execute(async (trx) => {
    const before = await chapterCourse(trx, chapterId);
    await trx.updateTable("chapters").set({ title }).where("id", "=", chapterId).execute();
    await touchCourse(trx, before.course_id, now);
    await recordAudit(trx, {
      actorId,
      action: "chapter.update",
      targetType: "chapter",
      targetId: chapterId,
      before: { title: before.title },
      after: { title },
    });
    return before.course_id;
  });
}

export async function deleteChapter(db: Db, actorId: number, chapterId: number, now: Date) {
  return db.transaction().execute(async (trx) => {
    const before = await chapterCourse(trx, chapterId);
    await lockCourse(trx, before.course_id);
    const lesson = await trx.selectFrom("lessons").select("id").where("chapter_id", "=", chapterId).executeTakeFirst();
    if (lesson) throw conflict("请先删除或移走本章的课时", "chapter_not_empty");
    await trx.deleteFrom("chapters").where("id", "=", chapterId).execute();
    await touchCourse(trx, before.course_id, now);
    await recordAudit(trx, {
      actorId,
      action: "chapter.delete",
      targetType: "chapter",
      targetId: chapterId,
      before: { courseId: before.course_id, title: before.title },
    });
    return before.course_id;
  });
}

/**
 * Applies a whole new order: every chapter of the course once, each lesson of the course once
 * (a lesson may change chapter). Anything else is a stale view of the course: 409.
 */
export async function reorderCourse(db: Db, actorId: number, courseId: number, order: CourseOrder, now: Date) {
  await db.transaction().execute(async (trx) => {
    await lockCourse(trx, courseId);
    const [chapters, lessons] = await Promise.all([
      trx
        .selectFrom("chapters")
        .select(["id", "position"])
        .where("course_id", "=", courseId)
        .orderBy("position")
        .execute(),
      trx
        .selectFrom("lessons")
        .select(["id", "chapter_id", "position"])
        .where("course_id", "=", courseId)
        .orderBy("position")
        .execute(),
    ]);
    const stale = () => conflict("课程目录已被别人修改，请刷新后再排序", "stale_order");
    const chapterIds = order.chapters.map((c) => c.id);
    const lessonIds = order.chapters.flatMap((c) => c.lessonIds);
    const same = (a: number[], b: number[]) =>
      a.length === b.length && new Set(a).size === a.length && a.every((id) => b.includes(id));
    if (
      !same(
        chapterIds,
        chapters.map((c) => c.id),
      )
    )
      throw stale();
    if (
      !same(
        lessonIds,
        lessons.map((l) => l.id),
      )
    )
      throw stale();
    const before = chapters.map((c) => ({
      id: c.id,
      lessonIds: lessons.filter((l) => l.chapter_id === c.id).map((l) => l.id),
    }));
    // Out of the way first: (course, position) of chapters and (chapter, position) of lessons are unique.
    await trx
      .updateTable("chapters")
      .set({ position: sql<number>`-id` })
      .where("course_id", "=", courseId)
      .execute();
    await trx
      .updateTable("lessons")
      .set({ position: sql<number>`-id` })
      .where("course_id", "=", courseId)
      .execute();
    for (const [index, chapter] of order.chapters.entries()) {
      await trx
        .updateTable("chapters")
        .set({ position: index + 1 })
        .where("id", "=", chapter.id)
        .execute();
      for (const [lessonIndex, lessonId] of chapter.lessonIds.entries()) {
        await trx
          .updateTable("lessons")
          .set({ chapter_id: chapter.id, position: lessonIndex + 1 })
          .where("id", "=", lessonId)
          .execute();
      }
    }
    await touchCourse(trx, courseId, now);
    await recordAudit(trx, {
      actorId,
      action: "course.reorder",
      targetType: "course",
      targetId: courseId,
      before: { chapters: before },
      after: { chapters: order.chapters },
    });
  });
}

// ---- lessons -------------------------------------------------------------------------------------

/**
 * A lesson's video columns. A demo lesson's own clip (its title card) may be kept but not given
 * to another lesson: its card shows that lesson's title. The playlist of an upload transcoded here
 * keeps its MP4 and poster (the editor sends it back as is).
 */
function videoColumns(video: VideoSource, currentKey?: string): { video_key: string; video_url: string | null } {
  if ("key" in video && parseLessonCardKey(video.key) && video.key !== currentKey)
    throw new ApiError(400, "invalid_input", "请选择示例视频", [{ path: "video.key", message: "请选择示例视频" }]);
  if ("key" in video) return { video_key: video.key, video_url: null };
  return { video_key: uploadedVideoFolder(video.url) ? "upload" : "url", video_url: video.url };
}

export async function addLesson(db: Db, actorId: number, chapterId: number, input: LessonFields, now: Date) {
  return db.transaction().execute(async (trx) => {
    const chapter = await chapterCourse(trx, chapterId);
    await lockCourse(trx, chapter.course_id);
    const last = await trx
      .selectFrom("lessons")
      .select(sql<number>`coalesce(max(position), 0)::int`.as("p"))
      .where("chapter_id", "=", chapterId)
      .executeTakeFirstOrThrow();
    const position = Number(last.p) + 1;
    const row = await trx
      .insertInto("lessons")
      .values({
        course_id: chapter.course_id,
        chapter_id: chapterId,
        position,
        title: input.title,
        summary: input.summary,
        ...videoColumns(input.video),
        duration_seconds: input.durationSeconds,
        is_trial: input.isTrial,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await touchCourse(trx, chapter.course_id, now);
    await recordAudit(trx, {
      actorId,
      action: "lesson.create",
      targetType: "lesson",
      targetId: row.id,
      after: { courseId: chapter.course_id, chapterId, ...input },
    });
    return { lessonId: row.id, courseId: chapter.course_id };
  });
}

export async function lessonCourse(db: Db, lessonId: number) {
  const row = await db
    .selectFrom("lessons")
    .select(["course_id", "title", "summary", "video_key", "video_url", "duration_seconds", "is_trial"])
    .where("id", "=", lessonId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateLesson(db: Db, actorId: number, lessonId: number, input: LessonChange, now: Date) {
  return db.transaction().execute(async (trx) => {
    const before = await lessonCourse(trx, lessonId);
    const set: Record<string, unknown> = {};
    if (input.title !== undefined) set.title = input.title;
    if (input.summary !== undefined) set.summary = input.summary;
    if (input.durationSeconds !== undefined) set.duration_seconds = input.durationSeconds;
    if (input.isTrial !== undefined) set.is_trial = input.isTrial;
    if (input.video !== undefined) Object.assign(set, videoColumns(input.video, before.video_key));
    await trx.updateTable("lessons").set(set).where("id", "=", lessonId).execute();
    await touchCourse(trx, before.course_id, now);
    const beforeFields: Record<string, unknown> = {};
    for (const key of Object.keys(set)) beforeFields[key] = before[key as keyof typeof before];
    await recordAudit(trx, {
      actorId,
      action: "lesson.update",
      targetType: "lesson",
      targetId: lessonId,
      before: beforeFields,
      after: set,
    });
    return before.course_id;
  });
}

export async function deleteLesson(db: Db, actorId: number, lessonId: number, now: Date) {
  return db.transaction().execute(async (trx) => {
    const before = await lessonCourse(trx, lessonId);
    await lockCourse(trx, before.course_id);
    const [progress, work] = await Promise.all([
      trx.selectFrom("lesson_progress").select("user_id").where("lesson_id", "=", lessonId).executeTakeFirst(),
      trx
        .selectFrom("homework_submissions as s")
        .innerJoin("homework_tasks as t", "t.id", "s.task_id")
        .select("s.id")
        .where("t.lesson_id", "=", lessonId)
        .executeTakeFirst(),
    ]);
    if (progress || work) throw conflict("已有学员学习或交作业的课时不能删除，可以改名或替换视频", "lesson_in_use");
    await trx.deleteFrom("lessons").where("id", "=", lessonId).execute();
    await touchCourse(trx, before.course_id, now);
    await recordAudit(trx, {
      actorId,
      action: "lesson.delete",
      targetType: "lesson",
      targetId: lessonId,
      before: { courseId: before.course_id, title: before.title },
    });
    return before.course_id;
  });
}

/** The lesson's notes only (what a teacher may change in their own lessons). */
export async function updateLessonNotes(db: Db, actorId: number, lessonId: number, summary: string, now: Date) {
  return updateLesson(db, actorId, lessonId, { summary }, now);
}

// ---- homework tasks ------------------------------------------------------------------------------

/** Creates or replaces the lesson's task (decision 024: one task per lesson). */
export async function putTask(db: Db, actorId: number, lessonId: number, input: TaskInput) {
  return db.transaction().execute(async (trx) => {
    const lesson = await lessonCourse(trx, lessonId);
    const before = await trx
      .selectFrom("homework_tasks")
      .select(["id", "title", "instructions", "characters", "script", "max_photos"])
      .where("lesson_id", "=", lessonId)
      .forUpdate()
      .executeTakeFirst();
    const values = {
      title: input.title,
      instructions: input.instructions,
      characters: input.characters,
      script: input.script,
      max_photos: input.maxPhotos,
    };
    let taskId: number;
    if (before) {
      await trx.updateTable("homework_tasks").set(values).where("id", "=", before.id).execute();
      taskId = before.id;
    } else {
      const row = await trx
        .insertInto("homework_tasks")
        .values({ course_id: lesson.course_id, lesson_id: lessonId, ...values })
        .returning("id")
        .executeTakeFirstOrThrow();
      taskId = row.id;
    }
    await recordAudit(trx, {
      actorId,
      action: before ? "homework_task.update" : "homework_task.create",
      targetType: "homework_task",
      targetId: taskId,
      before: before ? { ...before, lessonId } : undefined,
      after: { lessonId, ...input },
    });
    return { taskId, courseId: lesson.course_id };
  });
}

export async function deleteTask(db: Db, actorId: number, lessonId: number) {
  return db.transaction().execute(async (trx) => {
    const lesson = await lessonCourse(trx, lessonId);
    const task = await trx
      .selectFrom("homework_tasks")
      .select(["id", "title"])
      .where("lesson_id", "=", lessonId)
      .forUpdate()
      .executeTakeFirst();
    if (!task) throw notFound("这节课没有作业");
    const work = await trx
      .selectFrom("homework_submissions")
      .select("id")
      .where("task_id", "=", task.id)
      .executeTakeFirst();
    if (work) throw conflict("已有学员交了这份作业，不能删除，可以修改要求", "task_in_use");
    await trx.deleteFrom("homework_tasks").where("id", "=", task.id).execute();
    await recordAudit(trx, {
      actorId,
      action: "homework_task.delete",
      targetType: "homework_task",
      targetId: task.id,
      before: { lessonId, title: task.title },
    });
    return lesson.course_id;
  });
}
