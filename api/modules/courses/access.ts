/**
 * The outline's lock markers, decided by the one access rule of the lesson player
 * (api/modules/learning/access.ts), so the course page and the player never disagree.
 */
import type { LockReason } from "../../../shared/contracts/courses";
import type { CourseKind } from "../../db/schema";
import { addDays } from "../../../shared/china-time";
import { lessonAccess } from "../learning/access";

/** The date a camp lesson opens ('YYYY-MM-DD'), or null when the camp has no start date yet. */
export function campUnlockDate(campStartsOn: string | null, unlockDay: number | null): string | null {
  if (!campStartsOn || unlockDay === null) return null;
  return addDays(campStartsOn, unlockDay - 1);
}

export interface LockCourse {
  price_cents: number;
  kind: CourseKind;
  camp_starts_on: string | null;
}

export interface LockLesson {
  is_trial: boolean;
  unlock_day: number | null;
}

export function lessonLock(
  course: LockCourse,
  lesson: LockLesson,
  viewer: { signedIn: boolean; enrolled: boolean; staff: boolean },
  now: Date,
): { locked: boolean; reason: LockReason | null } {
  const access = lessonAccess({
    isTrial: lesson.is_trial,
    unlockDay: lesson.unlock_day,
    course: { priceCents: course.price_cents, kind: course.kind, campStartsOn: course.camp_starts_on },
    ...viewer,
    now,
  });
  if (access.allowed) return { locked: false, reason: null };
  if (access.reason === "camp_locked") return { locked: true, reason: "camp" };
  return { locked: true, reason: access.reason === "purchase" ? "purchase" : "enrol" };
}
