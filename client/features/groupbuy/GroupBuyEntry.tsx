/**
 * Group buying on the course page: the 拼团购买 button and its dialog (start a group at the
 * group price, or join one of the course's open groups).
 */
import type { CourseDetail } from "../../../shared/contracts/courses";

export function GroupBuyEntry(_props: { course: CourseDetail }) {
  return null;
}
