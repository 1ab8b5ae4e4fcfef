/**
 * The course outline as this visitor sees it: chapters and lessons, with the personal locks and
 * progress laid over the public ones.
 */
import { Link } from "../../routing/link";
import { type CourseDetail, type CourseViewer, lockText, type OutlineLesson } from "../../../shared/contracts/courses";
import "./course.css";
import { formatMonthDay, formatDuration, formatClock } from "../../../shared/format";

/** The outline as this visitor sees it: the personal locks and progress over the public ones. */
function personalise(course: CourseDetail, viewer: CourseViewer | null) {
  const mine = new Map(viewer?.lessons.map((l) => [l.id, l]));
  return course.chapters.map((chapter) => ({
    ...chapter,
    lessons: chapter.lessons.map((lesson) => {
      const own = mine.get(lesson.id);
      return {
        ...lesson,
        locked: own ? own.locked : lesson.locked,
        lockReason: own ? own.lockReason : lesson.lockReason,
        progressPercent: own?.progressPercent ?? 0,
        completed: own?.completed ?? false,
      };
    }),
  }));
}

type ShownLesson = OutlineLesson & { progressPercent: number; completed: boolean };

function LessonRow({ lesson, number, paid }: { lesson: ShownLesson; number: number; paid: boolean }) {
  let state: string | null = null;
  if (lesson.locked) state = lockText(lesson);
  else if (lesson.completed) state = "已学完";
  else if (lesson.progressPercent > 0) state = `已学 ${lesson.progressPercent}%`;
  return (
    <li className={`outline-lesson${lesson.locked ? " is-locked" : ""}${lesson.completed ? " is-done" : ""}`}>
      <Link className="outline-lesson__link" to={`/video/${lesson.id}`}>
        <span className="outline-lesson__number">{String(number).padStart(2, "0")}</span>
        <span className="outline-lesson__title">{lesson.title}</span>
        {lesson.isTrial && paid ? <span className="outline-tag outline-tag--trial">试看</span> : null}
        {lesson.unlockDay !== null && lesson.lockReason !== "camp" ? (
          <span className="outline-lesson__day">
            第 {lesson.unlockDay} 天{lesson.unlockDate ? ` · ${formatMonthDay(lesson.unlockDate)}` : ""}
          </span>
        ) : null}
        {state ? (
          <span className={`outline-lesson__state${lesson.locked ? " outline-lesson__state--locked" : ""}`}>
            {lesson.locked ? (
              <>
                <span className="lock-mark" aria-hidden="true" />
                <span className="visually-hidden">未解锁：</span>
              </>
            ) : null}
            {state}
          </span>
        ) : null}
        <span className="outline-lesson__duration">{formatClock(lesson.durationSeconds)}</span>
      </Link>
    </li>
  );
}

export function Outline({ course, viewer }: { course: CourseDetail; viewer: CourseViewer | null }) {
  const chapters = personalise(course, viewer);
  const total = chapters.reduce((n, c) => n + c.lessons.length, 0);
  const seconds = chapters.flatMap((c) => c.lessons).reduce((n, l) => n + l.durationSeconds, 0);
  let number = 0;
  return (
    <section className="course-section" aria-labelledby="course-outline">
      <h2 className="section-title" id="course-outline">
        课程目录
      </h2>
      <p className="section-lead">
        共 {chapters.length} 章 {total} 课时，时长 {formatDuration(seconds)}
        {viewer?.enrolled ? ` · 已学完 ${viewer.lessonsCompleted} 课时` : ""}
        {course.kind === "camp" && course.campStartsOn
          ? ` · ${formatMonthDay(course.campStartsOn)}开营，每天解锁一课`
          : ""}
      </p>
      {chapters.length ? (
        <ol className="card course-outline">
          {chapters.map((chapter) => (
            <li key={chapter.id} className="course-outline__chapter">
              <h3 className="course-outline__title">{chapter.title}</h3>
              <ol className="course-outline__lessons">
                {chapter.lessons.map((lesson) => (
                  <LessonRow key={lesson.id} lesson={lesson} number={++number} paid={course.priceCents > 0} />
                ))}
              </ol>
            </li>
          ))}
        </ol>
      ) : (
        <p className="course-outline__empty">课时正在录制中，上线后会出现在这里。</p>
      )}
    </section>
  );
}
