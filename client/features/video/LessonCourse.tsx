import { courseCategoryName } from "../../../shared/catalogue";
import { categoryTones } from "../../../shared/contracts/catalogue";
import type { LessonView } from "../../../shared/contracts/learning";
import { coverOf, coverSizes } from "../../../shared/media";
import { priceLabel } from "../../../shared/money";
import { LazyImage } from "../../lib/lazy-image";
import { Link } from "../../routing/link";

/** The lesson's course at the foot of the lesson page: its cover, teacher and price. */
export function LessonCourseCard({ course, enrolled }: { course: LessonView["course"]; enrolled: boolean }) {
  const categoryName = courseCategoryName(course.category);
  return (
    <Link className="card lesson-course" to={`/course/${course.id}`}>
      <LazyImage
        className="lesson-course__cover"
        src={coverOf(course, categoryTones[course.category], "landscape")}
        alt={`${course.title}封面`}
        width={coverSizes.landscape.width}
        height={coverSizes.landscape.height}
      />
      <span className="lesson-course__text">
        <span className="lesson-course__title">{course.title}</span>
        <span className="lesson-course__meta">
          {categoryName ? `${categoryName} · ` : ""}
          {course.teacherName}老师 · {priceLabel(course.priceCents)}
        </span>
        <span className="lesson-course__more">{enrolled ? "查看课程" : "查看课程详情"} ›</span>
      </span>
    </Link>
  );
}
