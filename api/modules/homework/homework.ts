/**
 * The learner's side of homework: a lesson's task and whether they may hand in, uploading photos
 * one by one, handing them in as an attempt (coins for the first hand-in, once), and the wall
 * choice. Only enrolled learners hand in, and only while the lesson is open to them (camp lessons
 * unlock by day). Their list of work is in `my-homework.ts`.
 */
import { randomBytes } from "node:crypto";
import {
  HOMEWORK_MAX_ATTEMPTS,
  HOMEWORK_UNSUBMITTED_PHOTO_HOURS,
  type HomeworkDraft,
  type HomeworkPhoto,
  type HomeworkSubmission,
  type LessonHomework,
} from "../../../shared/contracts/homework";
import type { z } from "zod";
import type { submitSchema } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { ownsCourse } from "../enrolments/enrolments";
import { lessonAccess } from "../learning/access";
import { awardLearningCoins } from "../wallet/hooks";
import { homeworkGrants } from "./grants";
import { newPhotoId, processPhoto } from "./photos";
import { covers, staffScope } from "./staff";
import {
  photoView,
  resubmitRule,
  submissionColumns,
  submissionView,
  taskQuery,
  taskView,
  type Db,
  type TaskRow,
} from "./views";

export const HOMEWORK_NOT_FOUND = "作业不存在";
/** Photos uploaded but not yet handed in, per learner and task: enough for retries, not a store. */
export const UNATTACHED_PHOTOS_MAX = 30;

export const newPublicId = () => randomBytes(12).toString("base64url");

/**
 * Why a viewer may not hand in for this task's lesson, or null when they may: learners of the
 * course, and those a registered grant lets in (an activity's participants, decision 044).
 */
async function handInRefusal(ctx: ApiContext, db: Db, userId: number, task: TaskRow): Promise<string | null> {
  if (!(await ownsCourse(db, userId, task.course_id))) {
    if (await homeworkGrants.allow(db, userId, task.lesson_id, ctx.now())) return null;
    return "报名课程后才能提交作业";
  }
  const row = await db
    .selectFrom("lessons as l")
    .innerJoin("courses as c", "c.id", "l.course_id")
    .select(["l.is_trial", "l.unlock_day", "c.price_cents", "c.kind", "c.camp_starts_on"])
    .where("l.id", "=", task.lesson_id)
    .executeTakeFirstOrThrow();
  const access = lessonAccess({
    isTrial: row.is_trial,
    unlockDay: row.unlock_day,
    course: { priceCents: row.price_cents, kind: row.kind, campStartsOn: row.camp_starts_on },
    signedIn: true,
    enrolled: true,
    staff: false,
    now: ctx.now(),
  });
  return access.allowed ? null : access.message;
}

async function taskById(db: Db, taskId: number): Promise<TaskRow> {
  const task = await taskQuery(db).where("t.id", "=", taskId).executeTakeFirst();
  if (!task) throw notFound(HOMEWORK_NOT_FOUND);
  return task;
}

export async function lessonHomework(ctx: ApiContext, viewer: User | null, lessonId: number): Promise<LessonHomework> {
  const db = ctx.database.db;
  const lesson = await db.selectFrom("lessons").select("id").where("id", "=", lessonId).executeTakeFirst();
  if (!lesson) throw notFound("课时不存在");
  const task = await taskQuery(db).where("t.lesson_id", "=", lessonId).executeTakeFirst();
  if (!task) return { task: null, submission: null, canSubmit: { allowed: false, reason: "本课没有作业" } };
  if (!viewer)
    return { task: taskView(task), submission: null, canSubmit: { allowed: false, reason: "登录后才能提交作业" } };
  const refusal = await handInRefusal(ctx, db, viewer.id, task);
  const own = await db
    .selectFrom("homework_submissions")
    .select(["id", "state", "attempts"])
    .where("task_id", "=", task.id)
    .where("user_id", "=", viewer.id)
    .executeTakeFirst();
  if (refusal) {
    return {
      task: taskView(task),
      submission: own ? await submissionView(db, own.id) : null,
      canSubmit: { allowed: false, reason: refusal },
    };
  }
  return {
    task: taskView(task),
    submission: own ? await submissionView(db, own.id) : null,
    canSubmit: own ? resubmitRule(own.state, own.attempts) : { allowed: true, reason: "可以提交作业" },
  };
}

export async function uploadPhoto(
  ctx: ApiContext,
  userId: number,
  taskId: number,
  upload: Buffer,
): Promise<HomeworkPhoto> {
  const db = ctx.database.db;
  const task = await taskById(db, taskId);
  const refusal = await handInRefusal(ctx, db, userId, task);
  if (refusal) throw new ApiError(403, "forbidden", refusal);
  const waiting = await db
    .selectFrom("homework_photos")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("task_id", "=", taskId)
    .where("attempt_id", "is", null)
    .executeTakeFirstOrThrow();
  if (Number(waiting.n) >= UNATTACHED_PHOTOS_MAX)
    throw new ApiError(409, "too_many_photos", "已上传的照片太多了，请先提交作业或刷新页面后再试");
  const photo = await processPhoto(upload);
  const id = newPhotoId();
  await db
    .insertInto("homework_photos")
    .values({
      id,
      user_id: userId,
      task_id: taskId,
      width: photo.width,
      height: photo.height,
      thumb_width: photo.thumbWidth,
      thumb_height: photo.thumbHeight,
      display_bytes: photo.display,
      thumb_bytes: photo.thumb,
      created_at: ctx.now(),
    })
    .execute();
  return photoView({ id, width: photo.width, height: photo.height });
}

/**
 * The learner's draft for a task: their own photos not yet handed in and younger than the upload
 * job's limit, in upload order. Nobody else's photos are ever listed (the user id is in the query).
 */
export async function draftPhotos(ctx: ApiContext, userId: number, taskId: number): Promise<HomeworkDraft> {
  const db = ctx.database.db;
  await taskById(db, taskId);
  const since = new Date(ctx.now().getTime() - HOMEWORK_UNSUBMITTED_PHOTO_HOURS * 3_600_000);
  const rows = await db
    .selectFrom("homework_photos")
    .select(["id", "width", "height"])
    .where("user_id", "=", userId)
    .where("task_id", "=", taskId)
    .where("attempt_id", "is", null)
    .where("created_at", ">=", since)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return { photos: rows.map(photoView) };
}

/** Takes one photo out of the learner's draft (and deletes it); 404 for anything not theirs. */
export async function removeDraftPhoto(ctx: ApiContext, userId: number, taskId: number, photoId: string) {
  const deleted = await ctx.database.db
    .deleteFrom("homework_photos")
    .where("id", "=", photoId)
    .where("user_id", "=", userId)
    .where("task_id", "=", taskId)
    .where("attempt_id", "is", null)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw notFound("照片不存在或已经提交");
  return { removed: true as const };
}

/** Hands in the uploaded photos as the next attempt (the first, or after a return). */
export async function submitHomework(
  ctx: ApiContext,
  userId: number,
  taskId: number,
  input: z.output<typeof submitSchema>,
): Promise<HomeworkSubmission> {
  const now = ctx.now();
  return ctx.database.db.transaction().execute(async (trx) => {
    const task = await taskById(trx, taskId);
    const refusal = await handInRefusal(ctx, trx, userId, task);
    if (refusal) throw new ApiError(403, "forbidden", refusal);
    const photoIds = [...new Set(input.photoIds)];
    if (photoIds.length !== input.photoIds.length) throw new ApiError(400, "invalid_input", "同一张照片不能提交两次");
    if (photoIds.length > task.max_photos)
      throw new ApiError(400, "invalid_input", `这份作业最多提交 ${task.max_photos} 张照片`);

    // The submission row is the lock: two hand-ins at once take turns here.
    await trx
      .insertInto("homework_submissions")
      .values({
        public_id: newPublicId(),
        share_id: newPublicId(),
        task_id: taskId,
        user_id: userId,
        show_on_wall: input.showOnWall,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["task_id", "user_id"]).doNothing())
      .execute();
    const submission = await trx
      .selectFrom("homework_submissions as s")
      .select([...submissionColumns])
      .where("s.task_id", "=", taskId)
      .where("s.user_id", "=", userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const rule = resubmitRule(submission.state, submission.attempts);
    if (!rule.allowed) throw new ApiError(409, "cannot_submit", rule.reason);
    const number = submission.attempts + 1;
    if (number > HOMEWORK_MAX_ATTEMPTS) throw new ApiError(409, "cannot_submit", rule.reason);

    const attempt = await trx
      .insertInto("homework_attempts")
      .values({
        public_id: newPublicId(),
        submission_id: submission.id,
        number,
        note: input.note,
        submitted_at: now,
        drawings: "[]",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Only the learner's own photos for this task that no attempt holds yet.
    for (const [position, photoId] of photoIds.entries()) {
      const attached = await trx
        .updateTable("homework_photos")
        .set({ attempt_id: attempt.id, position })
        .where("id", "=", photoId)
        .where("user_id", "=", userId)
        .where("task_id", "=", taskId)
        .where("attempt_id", "is", null)
        .returning("id")
        .executeTakeFirst();
      if (!attached) throw new ApiError(400, "invalid_input", "照片不存在或已经提交过，请重新上传");
    }
    await trx
      .updateTable("homework_submissions")
      .set({ state: "waiting", level: null, attempts: number, show_on_wall: input.showOnWall, updated_at: now })
      .where("id", "=", submission.id)
      .execute();
    // Coins for handing the work in: once per submission, whatever happens to its attempts.
    await awardLearningCoins(trx, {
      userId,
      rule: "homework_submitted",
      refType: "homework_submission",
      refId: submission.id,
      now,
    });
    return submissionView(trx, submission.id);
  });
}

/** A submission for its owner, the course's teachers and operators; 404 for anyone else. */
export async function visibleSubmission(ctx: ApiContext, viewer: User, publicId: string): Promise<HomeworkSubmission> {
  const db = ctx.database.db;
  const row = await db
    .selectFrom("homework_submissions as s")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .select(["s.id", "s.user_id", "t.course_id"])
    .where("s.public_id", "=", publicId)
    .executeTakeFirst();
  if (!row) throw notFound(HOMEWORK_NOT_FOUND);
  if (row.user_id !== viewer.id) {
    const scope = await staffScope(db, viewer);
    if (!scope || !covers(scope, row.course_id)) throw notFound(HOMEWORK_NOT_FOUND);
  }
  return submissionView(db, row.id);
}

/** The learner's wall choice; taking it off the wall closes the share page at once. */
export async function setWallChoice(
  ctx: ApiContext,
  userId: number,
  publicId: string,
  showOnWall: boolean,
): Promise<HomeworkSubmission> {
  const row = await ctx.database.db
    .updateTable("homework_submissions")
    .set({ show_on_wall: showOnWall, updated_at: ctx.now() })
    .where("public_id", "=", publicId)
    .where("user_id", "=", userId)
    .returning("id")
    .executeTakeFirst();
  if (!row) throw notFound(HOMEWORK_NOT_FOUND);
  return submissionView(ctx.database.db, row.id);
}

/** The bytes of a photo for a viewer allowed to see it, or null (the caller answers 404). */
export async function photoBytes(
  ctx: ApiContext,
  viewer: User | null,
  photoId: string,
  size: "display" | "thumb",
): Promise<{ bytes: Buffer; public: boolean } | null> {
  const db = ctx.database.db;
  const row = await db
    .selectFrom("homework_photos as p")
    .innerJoin("homework_tasks as t", "t.id", "p.task_id")
    .leftJoin("homework_attempts as a", "a.id", "p.attempt_id")
    .leftJoin("homework_submissions as s", "s.id", "a.submission_id")
    .select([
      "p.user_id",
      "t.course_id",
      "a.state as attempt_state",
      "s.show_on_wall",
      "s.level",
      "s.hidden_at",
      size === "display" ? "p.display_bytes as bytes" : "p.thumb_bytes as bytes",
    ])
    .where("p.id", "=", photoId)
    .executeTakeFirst();
  if (!row) return null;
  // Public only while the work is on the wall, and only the photos of the rated attempt.
  const isPublic =
    row.show_on_wall === true &&
    row.level === "excellent" &&
    row.hidden_at === null &&
    row.attempt_state === "reviewed";
  let allowed = isPublic || (viewer !== null && viewer.id === row.user_id);
  if (!allowed && viewer && row.attempt_state !== null) {
    const scope = await staffScope(db, viewer);
    allowed = scope !== null && covers(scope, row.course_id);
  }
  if (!allowed) return null;
  return { bytes: Buffer.from(row.bytes), public: isPublic };
}
