/**
 * The teacher's queue of waiting attempts, and who holds one: claims, releases, an operator's
 * assignment.
 *
 * A claim locks an attempt for one teacher for HOMEWORK_CLAIM_MINUTES: claiming is a single
 * guarded UPDATE (free, mine already, or expired), so however many teachers press at once exactly
 * one holds it. Reviewing and returning a held attempt is in `verdicts.ts`. A claim, a release
 * and an assignment are each recorded in the audit log with the change.
 */
import type { z } from "zod";
import { chinaDay } from "../../../shared/china-time";
import {
  HOMEWORK_CLAIM_MINUTES,
  type ClaimResult,
  type Queue,
  type QueueItem,
} from "../../../shared/contracts/homework";
import type { queueQuerySchema } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { cursorAt, pastCursor, readCursor } from "../../db/keyset";
import type { User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { HOMEWORK_NOT_FOUND } from "./homework";
import { covers, requireStaff, type StaffScope } from "./staff";
import { submissionView, thumbUrl, type Db } from "./views";

const CLAIM_MS = HOMEWORK_CLAIM_MINUTES * 60_000;
const PAGE = 30;

function queueRows(db: Db, scope: StaffScope) {
  let q = db
    .selectFrom("homework_attempts as a")
    .innerJoin("homework_submissions as s", "s.id", "a.submission_id")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("lessons as l", "l.id", "t.lesson_id")
    .innerJoin("users as learner", "learner.id", "s.user_id")
    .leftJoin("users as holder", "holder.id", "a.claimed_by")
    .leftJoin("users as assignee", "assignee.id", "a.assigned_to")
    .select([
      "a.id",
      "a.public_id",
      "a.number",
      "a.state",
      "a.submitted_at",
      "a.claimed_by",
      "a.claim_until",
      "a.reviewed_at",
      "s.public_id as submission_public_id",
      "learner.nickname as learner",
      "t.course_id",
      "c.title as course_title",
      "t.lesson_id",
      "l.title as lesson_title",
      "t.title as task_title",
      "holder.nickname as holder",
      "assignee.nickname as assignee",
    ])
    .select((eb) => [
      eb
        .selectFrom("homework_photos as p")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("p.attempt_id", "=", "a.id")
        .as("photos"),
      eb
        .selectFrom("homework_photos as p")
        .select("p.id")
        .whereRef("p.attempt_id", "=", "a.id")
        .orderBy("p.position")
        .limit(1)
        .as("first_photo"),
    ]);
  if (!scope.operator) q = q.where("t.course_id", "in", scope.courseIds.length ? scope.courseIds : [-1]);
  return q;
}

type QueueRow = Awaited<ReturnType<ReturnType<typeof queueRows>["execute"]>>[number];

function queueItem(row: QueueRow, scope: StaffScope, now: Date): QueueItem {
  const claimLive =
    row.claimed_by !== null && row.claim_until !== null && row.claim_until > now && row.state === "waiting";
  return {
    attemptId: row.public_id,
    submissionId: row.submission_public_id,
    learner: row.learner,
    courseId: row.course_id,
    courseTitle: row.course_title,
    lessonId: row.lesson_id,
    lessonTitle: row.lesson_title,
    taskTitle: row.task_title,
    number: row.number,
    photos: Number(row.photos ?? 0),
    thumbUrl: row.first_photo ? thumbUrl(row.first_photo) : "",
    submittedAt: row.submitted_at.toISOString(),
    waitingMinutes: Math.max(0, Math.floor(((row.reviewed_at ?? now).getTime() - row.submitted_at.getTime()) / 60_000)),
    claimedBy: claimLive ? row.holder : null,
    claimedByMe: claimLive && row.claimed_by === scope.userId,
    claimUntil: claimLive ? row.claim_until!.toISOString() : null,
    state: row.state,
    assignedTo: row.assignee,
  };
}

/** The teachers an operator can give work to: every account on a course's teacher list, with its courses. */
async function assignableTeachers(db: ApiContext["database"]["db"]): Promise<Queue["teachers"]> {
  const rows = await db
    .selectFrom("course_teachers as ct")
    .innerJoin("users as u", "u.id", "ct.user_id")
    .select(["u.id", "u.nickname", "ct.course_id"])
    .orderBy("u.id")
    .orderBy("ct.course_id")
    .execute();
  const byId = new Map<number, Queue["teachers"][number]>();
  for (const r of rows) {
    const t = byId.get(r.id) ?? { id: r.id, nickname: r.nickname, courseIds: [] };
    t.courseIds.push(r.course_id);
    byId.set(r.id, t);
  }
  return [...byId.values()];
}

export async function teacherQueue(
  ctx: ApiContext,
  user: User,
  query: z.output<typeof queueQuerySchema>,
): Promise<Queue> {
  const db = ctx.database.db;
  const scope = await requireStaff(db, user);
  const now = ctx.now();
  const today = chinaDay(now).start;
  if (query.courseId !== undefined && !covers(scope, query.courseId)) throw notFound();
  let q = queueRows(db, scope);
  if (query.courseId) q = q.where("t.course_id", "=", query.courseId);
  if (query.lessonId) q = q.where("t.lesson_id", "=", query.lessonId);
  const cursor = readCursor(query.cursor);
  let rows: QueueRow[];
  if (query.view === "done") {
    rows = await q
      .where("a.reviewed_by", "=", user.id)
      .where("a.reviewed_at", ">=", today)
      .orderBy("a.reviewed_at", "desc")
      .orderBy("a.id", "desc")
      .limit(100)
      .execute();
  } else {
    if (query.view === "mine")
      q = q.where((eb) =>
        eb.or([
          eb.and([eb("a.claimed_by", "=", user.id), eb("a.claim_until", ">", now)]),
          eb("a.assigned_to", "=", user.id),
        ]),
      );
    if (cursor) q = q.where((eb) => pastCursor(eb, "a.submitted_at", "a.id", cursor, "asc"));
    rows = await q
      .where("a.state", "=", "waiting")
      .orderBy("a.submitted_at")
      .orderBy("a.id")
      .limit(PAGE + 1)
      .execute();
  }
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);

  let waiting = db
    .selectFrom("homework_attempts as a")
    .innerJoin("homework_submissions as s", "s.id", "a.submission_id")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .where("a.state", "=", "waiting");
  if (!scope.operator) waiting = waiting.where("t.course_id", "in", scope.courseIds.length ? scope.courseIds : [-1]);
  if (query.courseId) waiting = waiting.where("t.course_id", "=", query.courseId);
  if (query.lessonId) waiting = waiting.where("t.lesson_id", "=", query.lessonId);
  const waits = await waiting.select("a.submitted_at").execute();
  const minutes = waits.map((w) => (now.getTime() - w.submitted_at.getTime()) / 60_000).sort((a, b) => a - b);
  const middle = Math.floor(minutes.length / 2);
  const median = minutes.length
    ? Math.round(minutes.length % 2 ? minutes[middle]! : (minutes[middle - 1]! + minutes[middle]!) / 2)
    : null;
  const done = await db
    .selectFrom("homework_attempts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("reviewed_by", "=", user.id)
    .where("reviewed_at", ">=", today)
    .executeTakeFirstOrThrow();

  let courses = db.selectFrom("courses").select(["id", "title"]).orderBy("id");
  if (scope.operator) courses = courses.where("id", "in", db.selectFrom("homework_tasks").select("course_id"));
  else courses = courses.where("id", "in", scope.courseIds.length ? scope.courseIds : [-1]);
  // Only lessons that have a task: the others can have no work in the queue.
  let lessons = db
    .selectFrom("homework_tasks as t")
    .innerJoin("lessons as l", "l.id", "t.lesson_id")
    .innerJoin("chapters as ch", "ch.id", "l.chapter_id")
    .select(["l.id", "l.title", "t.course_id as courseId"])
    .orderBy("t.course_id")
    .orderBy("ch.position")
    .orderBy("l.position");
  if (!scope.operator) lessons = lessons.where("t.course_id", "in", scope.courseIds.length ? scope.courseIds : [-1]);

  return {
    items: page.map((r) => queueItem(r, scope, now)),
    nextCursor: query.view !== "done" && rows.length > PAGE && last ? cursorAt(last.submitted_at, last.id) : null,
    stats: { waiting: waits.length, doneToday: Number(done.n), medianWaitMinutes: median },
    courses: await courses.execute(),
    lessons: await lessons.execute(),
    operator: scope.operator,
    teachers: scope.operator ? await assignableTeachers(db) : [],
  };
}

/** The attempt by its public id, within the caller's scope (404 otherwise). */
export async function attemptInScope(db: Db, scope: StaffScope, publicId: string) {
  const row = await db
    .selectFrom("homework_attempts as a")
    .innerJoin("homework_submissions as s", "s.id", "a.submission_id")
    .innerJoin("homework_tasks as t", "t.id", "s.task_id")
    .select([
      "a.id",
      "a.number",
      "a.state",
      "a.claimed_by",
      "a.claim_until",
      "a.assigned_to",
      "a.submission_id",
      "s.user_id",
      "t.course_id",
      "t.title as task_title",
    ])
    .where("a.public_id", "=", publicId)
    .executeTakeFirst();
  if (!row || !covers(scope, row.course_id)) throw notFound(HOMEWORK_NOT_FOUND);
  return row;
}

/** The next attempt the caller could claim after this one ("save and next"), oldest first. */
async function nextFree(db: Db, scope: StaffScope, exceptId: number, now: Date): Promise<string | null> {
  const next = await queueRows(db, scope)
    .where("a.state", "=", "waiting")
    .where("a.id", "<>", exceptId)
    .where((eb) =>
      eb.or([eb("a.claimed_by", "is", null), eb("a.claimed_by", "=", scope.userId), eb("a.claim_until", "<=", now)]),
    )
    .where((eb) => eb.or([eb("a.assigned_to", "is", null), eb("a.assigned_to", "=", scope.userId)]))
    .orderBy("a.submitted_at")
    .orderBy("a.id")
    .limit(1)
    .executeTakeFirst();
  return next?.public_id ?? null;
}

export const alreadyDone = () => new ApiError(409, "already_reviewed", "这份作业已经批改过了");
export const heldByOther = () => new ApiError(409, "claimed_by_other", "这份作业正在由其他老师批改");

export async function claimAttempt(ctx: ApiContext, user: User, publicId: string): Promise<ClaimResult> {
  const db = ctx.database.db;
  const scope = await requireStaff(db, user);
  const attempt = await attemptInScope(db, scope, publicId);
  const now = ctx.now();
  const until = new Date(now.getTime() + CLAIM_MS);
  const claimed = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("homework_attempts")
      .set({ claimed_by: user.id, claim_until: until })
      .where("id", "=", attempt.id)
      .where("state", "=", "waiting")
      .where((eb) =>
        eb.or([eb("claimed_by", "is", null), eb("claimed_by", "=", user.id), eb("claim_until", "<=", now)]),
      )
      .where((eb) => eb.or([eb("assigned_to", "is", null), eb("assigned_to", "=", user.id)]))
      .returning("claim_until")
      .executeTakeFirst();
    if (row)
      await recordAudit(trx, {
        actorId: user.id,
        action: "homework.claim",
        targetType: "homework_attempt",
        targetId: publicId,
        after: { number: attempt.number, claimUntil: until.toISOString() },
      });
    return row;
  });
  if (!claimed) {
    if (attempt.state !== "waiting") throw alreadyDone();
    if (attempt.assigned_to !== null && attempt.assigned_to !== user.id)
      throw new ApiError(409, "assigned_to_other", "这份作业已分配给其他老师");
    throw heldByOther();
  }
  return {
    submission: await submissionView(db, attempt.submission_id),
    attemptId: publicId,
    claimUntil: until.toISOString(),
    nextAttemptId: await nextFree(db, scope, attempt.id, now),
  };
}

export async function releaseAttempt(ctx: ApiContext, user: User, publicId: string): Promise<{ released: boolean }> {
  const db = ctx.database.db;
  const scope = await requireStaff(db, user);
  const attempt = await attemptInScope(db, scope, publicId);
  const released = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("homework_attempts")
      .set({ claimed_by: null, claim_until: null })
      .where("id", "=", attempt.id)
      .where("state", "=", "waiting")
      .where("claimed_by", "=", user.id)
      .returning("id")
      .executeTakeFirst();
    if (row)
      await recordAudit(trx, {
        actorId: user.id,
        action: "homework.release",
        targetType: "homework_attempt",
        targetId: publicId,
        before: { number: attempt.number, claimedBy: user.id },
      });
    return row;
  });
  return { released: released !== undefined };
}

/** An operator gives a waiting attempt to one teacher of its course: only they may claim it now. */
export async function assignAttempt(
  ctx: ApiContext,
  user: User,
  publicId: string,
  teacherId: number,
): Promise<QueueItem> {
  const db = ctx.database.db;
  const scope = await requireStaff(db, user);
  if (!scope.operator) throw notFound();
  const attempt = await attemptInScope(db, scope, publicId);
  const teaches = await db
    .selectFrom("course_teachers as ct")
    .innerJoin("users as u", "u.id", "ct.user_id")
    .select("u.id")
    .where("ct.course_id", "=", attempt.course_id)
    .where("ct.user_id", "=", teacherId)
    .where("u.role", "=", "teacher")
    .executeTakeFirst();
  if (!teaches) throw new ApiError(400, "invalid_input", "这位老师不教这门课");
  const now = ctx.now();
  const assigned = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("homework_attempts")
      .set({ assigned_to: teacherId, claimed_by: teacherId, claim_until: new Date(now.getTime() + CLAIM_MS) })
      .where("id", "=", attempt.id)
      .where("state", "=", "waiting")
      .returning("id")
      .executeTakeFirst();
    if (row)
      await recordAudit(trx, {
        actorId: user.id,
        action: "homework.assign",
        targetType: "homework_attempt",
        targetId: publicId,
        before: { number: attempt.number, assignedTo: attempt.assigned_to, claimedBy: attempt.claimed_by },
        after: { assignedTo: teacherId },
      });
    return row;
  });
  if (!assigned) throw alreadyDone();
  const row = await queueRows(db, scope).where("a.id", "=", attempt.id).executeTakeFirstOrThrow();
  return queueItem(row, scope, now);
}
