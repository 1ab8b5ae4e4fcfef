/** A lesson as the player shows it: the lesson, its course outline, access, sources and resume point. */
import type { Kysely } from "kysely";
import { type LessonView, type OutlineChapter, resumePosition } from "../../../shared/contracts/learning";
import { lessonSources } from "../../../shared/media";
import type { DB, User } from "../../db/schema";
import { isStaff, type LessonAccessInput, lessonAccess, lockLabel } from "./access";

export interface LessonForAccess {
  id: number;
  courseId: number;
  durationSeconds: number;
  access: ReturnType<typeof lessonAccess>;
  enrolled: boolean;
}

/** The lesson, its course and the viewer's enrolment in one query; null when it is not to be seen. */
async function lessonRow(db: Kysely<DB>, lessonId: number, user: Pick<User, "id" | "role"> | null) {
  const userId = user?.id ?? null;
  const row = await db
    .selectFrom("lessons as l")
    .innerJoin("chapters as ch", "ch.id", "l.chapter_id")
    .innerJoin("courses as c", "c.id", "l.course_id")
    .innerJoin("teachers as t", "t.id", "c.teacher_id")
    .leftJoin("enrolments as e", (join) => join.onRef("e.course_id", "=", "c.id").on("e.user_id", "=", userId ?? 0))
    .select([
      "l.id",
      "l.title",
      "l.summary",
      "l.video_key",
      "l.video_url",
      "l.duration_seconds",
      "l.is_trial",
      "l.unlock_day",
      "ch.id as chapter_id",
      "ch.title as chapter_title",
      "c.id as course_id",
      "c.title as course_title",
      "c.category",
      "c.kind",
      "c.price_cents",
      "c.original_price_cents",
      "c.cover_char",
      "c.camp_starts_on",
      "c.status",
      "c.published_at",
      "t.name as teacher_name",
      "t.user_id as teacher_user_id",
      "e.user_id as enrolled_user",
    ])
    .where("l.id", "=", lessonId)
    .executeTakeFirst();
  if (!row) return null;
  const enrolled = userId !== null && row.enrolled_user === userId;
  const staff = isStaff(user, row.teacher_user_id);
  // Drafts are for staff only; an archived course stays open to the learners who have it.
  if (!staff && (row.status === "draft" || (row.status === "archived" && !enrolled))) return null;
  return { ...row, enrolled, staff };
}

function accessInput(
  row: { is_trial: boolean; unlock_day: number | null; price_cents: number; kind: LessonAccessInput["course"]["kind"] },
  campStartsOn: string | null,
  viewer: { signedIn: boolean; enrolled: boolean; staff: boolean },
  now: Date,
): LessonAccessInput {
  return {
    isTrial: row.is_trial,
    unlockDay: row.unlock_day,
    course: { priceCents: row.price_cents, kind: row.kind, campStartsOn },
    signedIn: viewer.signedIn,
    enrolled: viewer.enrolled,
    staff: viewer.staff,
    now,
  };
}

export async function lessonForAccess(
  db: Kysely<DB>,
  lessonId: number,
  user: User,
  now: Date,
): Promise<LessonForAccess | null> {
  const row = await lessonRow(db, lessonId, user);
  if (!row) return null;
  const viewer = { signedIn: true, enrolled: row.enrolled, staff: row.staff };
  return {
    id: row.id,
    courseId: row.course_id,
    durationSeconds: row.duration_seconds,
    enrolled: row.enrolled,
    access: lessonAccess(accessInput(row, row.camp_starts_on, viewer, now)),
  };
}

export function percentOf(watched: number, duration: number): number {
  return duration > 0 ? Math.min(100, Math.round((watched / duration) * 100)) : 0;
}

export async function lessonView(
  db: Kysely<DB>,
  lessonId: number,
  user: User | null,
  now: Date,
): Promise<LessonView | null> {
  const row = await lessonRow(db, lessonId, user);
  if (!row) return null;
  const viewer = { signedIn: user !== null, enrolled: row.enrolled, staff: row.staff };

  const [chapters, lessons, progressRows] = await Promise.all([
    db
      .selectFrom("chapters")
      .select(["id", "title"])
      .where("course_id", "=", row.course_id)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("lessons as l")
      .innerJoin("chapters as ch", "ch.id", "l.chapter_id")
      .select(["l.id", "l.chapter_id", "l.title", "l.duration_seconds", "l.is_trial", "l.unlock_day"])
      .where("l.course_id", "=", row.course_id)
      .orderBy("ch.position")
      .orderBy("l.position")
      .orderBy("l.id")
      .execute(),
    // Only a signed-in viewer has progress: an anonymous page reads no personal table.
    user
      ? db
          .selectFrom("lesson_progress as p")
          .innerJoin("lessons as l", "l.id", "p.lesson_id")
          .select(["p.lesson_id", "p.position_seconds", "p.watched_seconds", "p.completed_at", "p.updated_at"])
          .where("p.user_id", "=", user.id)
          .where("l.course_id", "=", row.course_id)
          .execute()
      : [],
  ]);
  const progressOf = new Map(progressRows.map((p) => [p.lesson_id, p]));

  const outline: OutlineChapter[] = chapters.map((ch) => ({ id: ch.id, title: ch.title, lessons: [] }));
  const byChapter = new Map(outline.map((ch) => [ch.id, ch]));
  for (const l of lessons) {
    const access = lessonAccess(
      accessInput({ ...l, price_cents: row.price_cents, kind: row.kind }, row.camp_starts_on, viewer, now),
    );
    const progress = progressOf.get(l.id);
    byChapter.get(l.chapter_id)?.lessons.push({
      id: l.id,
      title: l.title,
      durationSeconds: l.duration_seconds,
      isTrial: l.is_trial,
      locked: !access.allowed,
      lockLabel: lockLabel(access),
      progress: user
        ? {
            percent: progress
              ? progress.completed_at
                ? 100
                : percentOf(progress.watched_seconds, l.duration_seconds)
              : 0,
            completed: progress !== undefined && progress.completed_at !== null,
          }
        : null,
    });
  }

  const order = lessons.map((l) => l.id);
  const at = order.indexOf(row.id);
  const current = progressOf.get(row.id);
  const access = lessonAccess(accessInput(row, row.camp_starts_on, viewer, now));

  return {
    lesson: {
      id: row.id,
      title: row.title,
      summary: row.summary,
      durationSeconds: row.duration_seconds,
      isTrial: row.is_trial,
      number: at + 1,
      chapter: { id: row.chapter_id, title: row.chapter_title },
    },
    course: {
      id: row.course_id,
      title: row.course_title,
      category: row.category,
      kind: row.kind,
      priceCents: row.price_cents,
      originalPriceCents: row.original_price_cents,
      coverChar: row.cover_char,
      teacherName: row.teacher_name,
      publishedAt: row.published_at.toISOString(),
    },
    outline,
    prevLessonId: at > 0 ? (order[at - 1] ?? null) : null,
    nextLessonId: at >= 0 && at < order.length - 1 ? (order[at + 1] ?? null) : null,
    viewer: { signedIn: viewer.signedIn, enrolled: viewer.enrolled },
    access,
    // The addresses of the video only ever go to a viewer who may watch it.
    sources: access.allowed ? lessonSources(row.video_key, row.video_url) : null,
    resume:
      user && access.allowed
        ? {
            position: current ? resumePosition(current.position_seconds, row.duration_seconds) : 0,
            savedAt: current ? current.updated_at.toISOString() : null,
            speed: user.playback_speed_x100 / 100,
          }
        : null,
  };
}
