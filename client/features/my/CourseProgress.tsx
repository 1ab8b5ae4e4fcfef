/** A learner's course with its progress: the bar, where they stopped, and the way back in. */
import { Link } from "../../routing/link";
import type { MyCourse } from "../../../shared/contracts/courses";
import "./my-courses.css";
import { formatMonthDayTime } from "../../../shared/format";

export function ProgressBar({ item }: { item: MyCourse }) {
  return (
    <div className="course-progress">
      <progress
        className="course-progress__bar"
        max={100}
        value={item.percent}
        aria-label={`${item.course.title}学习进度`}
      >
        {item.percent}%
      </progress>
      <span className="course-progress__text">
        已学 {item.lessonsCompleted}/{item.lessonsTotal} 课时 · {item.percent}%
      </span>
    </div>
  );
}

export function LastLearned({ item }: { item: MyCourse }) {
  if (!item.lastLesson || !item.lastLearnedAt) return <p className="course-progress__last">还没开始学</p>;
  return (
    <p className="course-progress__last">
      {formatMonthDayTime(item.lastLearnedAt)} 学到「{item.lastLesson.title}」
    </p>
  );
}

export function ContinueLink({ item, small = true }: { item: MyCourse; small?: boolean }) {
  if (item.continueLessonId === null) {
    return (
      <Link className={`button${small ? " button--small" : ""}`} to={`/course/${item.course.id}`}>
        查看课程
      </Link>
    );
  }
  return (
    <Link
      className={`button button--primary${small ? " button--small" : ""}`}
      to={`/video/${item.continueLessonId}`}
      aria-label={`继续学习：${item.course.title}`}
    >
      继续学习
    </Link>
  );
}
