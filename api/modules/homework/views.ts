/**
 * Homework rows as the contract shows them: a task, a submission with every attempt, its photos
 * and reviews. One place builds them, so the learner's page, the teacher's review and the share
 * page never disagree.
 */
import type { Kysely, Transaction } from "kysely";
import {
  ATTEMPT_STATE_LABELS,
  drawingSchema,
  HOMEWORK_MAX_ATTEMPTS,
  LEVEL_LABELS,
  type Drawing,
  type HomeworkAttempt,
  type HomeworkPhoto,
  type HomeworkReview,
  type HomeworkSubmission,
  type HomeworkTask,
} from "../../../shared/contracts/homework";
import type { DB, HomeworkLevel, HomeworkState } from "../../db/schema";

export type Db = Kysely<DB> | Transaction<DB>;

export const photoUrl = (id: string) => `/api/homework/photos/${id}/display`;
export const thumbUrl = (id: string) => `/api/homework/photos/${id}/thumb`;
export const posterUrl = (shareId: string) => `/api/homework/share/${shareId}/poster.jpg`;
export const squareUrl = (shareId: string) => `/api/homework/share/${shareId}/square.jpg`;

export function photoView(row: { id: string; width: number; height: number }): HomeworkPhoto {
  return { id: row.id, width: row.width, height: row.height, url: photoUrl(row.id), thumbUrl: thumbUrl(row.id) };
}

export interface TaskRow {
  id: number;
  course_id: number;
  course_title: string;
  lesson_id: number;
  lesson_title: string;
  title: string;
  instructions: string;
  characters: string;
  script: HomeworkTask["script"];
  max_photos: number;
}

export function taskQuery(db: Db) {
  return db
    .selectFrom("homework_tasks as t")
    .innerJoin("courses as c", "c.id", "t.course_id")
    .innerJoin("lessons as l", "l.id", "t.lesson_id")
    .select([
      "t.id",
      "t.course_id",
      "c.title as course_title",
      "t.lesson_id",
      "l.title as lesson_title",
      "t.title",
      "t.instructions",
      "t.characters",
      "t.script",
      "t.max_photos",
    ]);
}

export function taskView(row: TaskRow): HomeworkTask {
  return {
    id: row.id,
    courseId: row.course_id,
    courseTitle: row.course_title,
    lessonId: row.lesson_id,
    lessonTitle: row.lesson_title,
    title: row.title,
    instructions: row.instructions,
    characters: row.characters,
    script: row.script,
    maxPhotos: row.max_photos,
    maxAttempts: HOMEWORK_MAX_ATTEMPTS,
  };
}

export const levelLabel = (level: HomeworkLevel | null) => (level ? LEVEL_LABELS[level] : null);

/** Whether the learner may hand in again, in plain words. */
export function resubmitRule(state: HomeworkState, attempts: number): { allowed: boolean; reason: string } {
  if (attempts === 0) return { allowed: true, reason: "可以提交作业" };
  if (state === "waiting") return { allowed: false, reason: "作业已提交，正在等待老师批改" };
  if (state === "reviewed") return { allowed: false, reason: "老师已批改这份作业" };
  if (attempts >= HOMEWORK_MAX_ATTEMPTS)
    return { allowed: false, reason: `已提交 ${HOMEWORK_MAX_ATTEMPTS} 次，不能再提交这份作业` };
  return { allowed: true, reason: "老师退回了作业，请按意见修改后重新提交" };
}

/** Stored drawings are ours, but read through the schema anyway: a bad row never reaches a page. */
function drawingsOf(value: unknown): Drawing[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? (JSON.parse(value) as unknown[]) : [];
  return list.flatMap((d) => {
    const parsed = drawingSchema.safeParse(d);
    return parsed.success ? [parsed.data] : [];
  });
}

export interface SubmissionRow {
  id: number;
  public_id: string;
  share_id: string;
  task_id: number;
  user_id: number;
  state: HomeworkState;
  level: HomeworkLevel | null;
  attempts: number;
  show_on_wall: boolean;
  hidden_at: Date | null;
}

export const submissionColumns = [
  "s.id",
  "s.public_id",
  "s.share_id",
  "s.task_id",
  "s.user_id",
  "s.state",
  "s.level",
  "s.attempts",
  "s.show_on_wall",
  "s.hidden_at",
] as const;

/** On the wall: opted in, rated excellent, not hidden by an operator. */
export const onWall = (s: Pick<SubmissionRow, "show_on_wall" | "level" | "hidden_at">) =>
  s.show_on_wall && s.level === "excellent" && s.hidden_at === null;

export async function attemptsOf(db: Db, submissionId: number): Promise<HomeworkAttempt[]> {
  const attempts = await db
    .selectFrom("homework_attempts as a")
    .leftJoin("users as r", "r.id", "a.reviewed_by")
    .select([
      "a.id",
      "a.public_id",
      "a.number",
      "a.state",
      "a.note",
      "a.submitted_at",
      "a.level",
      "a.comment",
      "a.return_reason",
      "a.drawings",
      "a.reviewed_at",
      "r.nickname as reviewer",
    ])
    .where("a.submission_id", "=", submissionId)
    .orderBy("a.number")
    .execute();
  const photos = attempts.length
    ? await db
        .selectFrom("homework_photos")
        .select(["id", "attempt_id", "width", "height"])
        .where(
          "attempt_id",
          "in",
          attempts.map((a) => a.id),
        )
        .orderBy("position")
        .execute()
    : [];
  return attempts.map((a) => {
    const review: HomeworkReview | null =
      a.state === "waiting" || !a.reviewed_at
        ? null
        : {
            level: a.level,
            levelLabel: levelLabel(a.level),
            comment: a.comment,
            returnReason: a.return_reason,
            drawings: drawingsOf(a.drawings),
            teacher: a.reviewer ?? "老师",
            reviewedAt: a.reviewed_at.toISOString(),
          };
    return {
      id: a.public_id,
      number: a.number,
      state: a.state,
      stateLabel: ATTEMPT_STATE_LABELS[a.state],
      photos: photos.filter((p) => p.attempt_id === a.id).map(photoView),
      note: a.note,
      submittedAt: a.submitted_at.toISOString(),
      review,
    };
  });
}

/** The whole submission by its row id (the caller has decided the viewer may see it). */
export async function submissionView(db: Db, submissionId: number): Promise<HomeworkSubmission> {
  const s = await db
    .selectFrom("homework_submissions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([...submissionColumns, "u.nickname"])
    .where("s.id", "=", submissionId)
    .executeTakeFirstOrThrow();
  const task = await taskQuery(db).where("t.id", "=", s.task_id).executeTakeFirstOrThrow();
  const visible = onWall(s);
  return {
    id: s.public_id,
    task: taskView(task),
    learner: s.nickname,
    state: s.state,
    stateLabel: ATTEMPT_STATE_LABELS[s.state],
    showOnWall: s.show_on_wall,
    shareId: visible ? s.share_id : null,
    attempts: await attemptsOf(db, s.id),
    resubmit: resubmitRule(s.state, s.attempts),
  };
}
