/**
 * Who may watch what (DESIGN §4): trial lessons for everyone, the rest for the course's
 * learners, camp lessons from their unlock day (China time) on; recordings for the session's
 * course learners, or everyone when the session was open. The teacher who gives the course or
 * the session, and operators, may always watch (to check what learners see). Pure functions of
 * their inputs, so the outline, the lesson and the progress report decide alike.
 */
import { addDays, chinaDate } from "../../../shared/china-time";
import type { Access } from "../../../shared/contracts/learning";
import type { CourseKind, LiveState } from "../../db/schema";
import { formatMonthDay } from "../../../shared/format";

export interface LessonAccessInput {
  isTrial: boolean;
  unlockDay: number | null;
  course: { priceCents: number; kind: CourseKind; campStartsOn: string | null };
  signedIn: boolean;
  enrolled: boolean;
  /** The course's own teacher, or an operator. */
  staff: boolean;
  now: Date;
}

const STAFF_MESSAGE = "授课老师和运营人员可以观看全部内容";

/** The course's or session's teacher (linked account), or any operator. */
export function isStaff(user: { id: number; role: string } | null, teacherUserId: number | null): boolean {
  if (!user) return false;
  return user.role === "operator" || (teacherUserId !== null && teacherUserId === user.id);
}

export function lessonAccess(input: LessonAccessInput): Access {
  const { course } = input;
  if (input.isTrial) {
    return { allowed: true, message: input.enrolled ? "已报名，可以学习" : "本课可以免费试看" };
  }
  if (input.staff) return { allowed: true, message: STAFF_MESSAGE };
  if (!input.enrolled) {
    if (course.priceCents === 0) {
      return input.signedIn
        ? { allowed: false, reason: "enrol", message: "本课程免费，报名后即可学习" }
        : { allowed: false, reason: "login", message: "本课程免费，登录并报名后即可学习" };
    }
    return { allowed: false, reason: "purchase", message: "本课为付费内容，购买课程后即可学习" };
  }
  if (course.kind === "camp" && input.unlockDay !== null) {
    if (!course.campStartsOn) {
      return { allowed: false, reason: "camp_locked", message: "训练营尚未开营，开营后按天解锁" };
    }
    const unlockDate = addDays(course.campStartsOn, input.unlockDay - 1);
    if (chinaDate(input.now) < unlockDate) {
      return {
        allowed: false,
        reason: "camp_locked",
        unlockDate,
        message: `训练营第 ${input.unlockDay} 天解锁（${formatMonthDay(unlockDate)}）`,
      };
    }
  }
  return { allowed: true, message: "已报名，可以学习" };
}

/** A few words for the outline beside a locked lesson. */
export function lockLabel(access: Access): string | null {
  if (access.allowed) return null;
  switch (access.reason) {
    case "purchase":
      return "购买后学习";
    case "enrol":
    case "login":
      return "报名后学习";
    case "camp_locked":
      return access.unlockDate ? `${formatMonthDay(access.unlockDate)}解锁` : "开营后解锁";
    default:
      return "暂未开放";
  }
}

export interface ReplayAccessInput {
  state: LiveState;
  hasRecording: boolean;
  isOpen: boolean;
  course: { priceCents: number } | null;
  signedIn: boolean;
  enrolled: boolean;
  staff: boolean;
}

/** null: there is no recording to speak of (not held yet, live now, cancelled). */
export function replayAccess(input: ReplayAccessInput): Access | null {
  if (input.state === "ended" || input.state === "processing" || (input.state === "replay" && !input.hasRecording)) {
    return { allowed: false, reason: "processing", message: "回放生成中，请稍后再来" };
  }
  if (input.state !== "replay") return null;
  if (input.isOpen) return { allowed: true, message: "公开直播的回放，所有人都可以观看" };
  if (input.staff) return { allowed: true, message: STAFF_MESSAGE };
  if (input.enrolled) return { allowed: true, message: "课程学员可以观看回放" };
  if (!input.course) return { allowed: false, reason: "enrol", message: "本场回放仅对受邀学员开放" };
  if (input.course.priceCents === 0) {
    return input.signedIn
      ? { allowed: false, reason: "enrol", message: "本场回放仅对课程学员开放，免费报名课程后即可观看" }
      : { allowed: false, reason: "login", message: "本场回放仅对课程学员开放，登录并免费报名课程后即可观看" };
  }
  return { allowed: false, reason: "purchase", message: "本场回放仅对课程学员开放，购买课程后即可观看" };
}
