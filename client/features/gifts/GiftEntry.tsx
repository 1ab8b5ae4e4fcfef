/**
 * Gifts on the course page: the 赠送好友 button with the gift dialog, and the giveaway dialog a
 * claim link (`/course/{id}?gift={code}`) opens for the recipient.
 */
import type { CourseDetail, CourseViewer } from "../../../shared/contracts/courses";

export function GiftEntry(_props: { course: CourseDetail }) {
  return null;
}

export function GiveawayFromLink(_props: { course: CourseDetail; viewer: CourseViewer | null }) {
  return null;
}
