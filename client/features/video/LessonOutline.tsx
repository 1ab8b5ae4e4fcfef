/** The course outline beside the player: chapters, lessons with trial/lock marks and progress. */
import { useEffect, useRef } from "react";
import { Link } from "../../routing/link";
import { type OutlineChapter } from "../../../shared/contracts/learning";
import { formatClock } from "../../../shared/format";

export interface LessonProgressView {
  percent: number;
  completed: boolean;
}

export function LessonOutline({
  outline,
  currentId,
  enrolled,
  signedIn,
  progressOf,
}: {
  outline: OutlineChapter[];
  currentId: number;
  enrolled: boolean;
  signedIn: boolean;
  progressOf: (lessonId: number) => LessonProgressView | null;
}) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const lessons = outline.flatMap((ch) => ch.lessons);
  const completed = lessons.filter((l) => progressOf(l.id)?.completed).length;

  // The current lesson in view inside the list (the page itself does not move).
  useEffect(() => {
    const body = bodyRef.current;
    const item = body?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!body || !item) return;
    const top = item.offsetTop - body.offsetTop;
    if (top < body.scrollTop || top + item.offsetHeight > body.scrollTop + body.clientHeight) {
      body.scrollTop = Math.max(0, top - body.clientHeight / 3);
    }
  }, [currentId]);

  const numberOf = new Map(lessons.map((l, i) => [l.id, i + 1]));
  return (
    <aside className="card player-side lesson-outline" aria-label="课程目录">
      <div className="player-side__head">
        <h2 className="player-side__title">课程目录</h2>
        <span className="player-side__note">
          共 {lessons.length} 课{signedIn ? ` · 已学完 ${completed} 课` : ""}
        </span>
      </div>
      <div className="player-side__body" ref={bodyRef}>
        {lessons.length === 0 ? <p className="lesson-outline__empty">本课程还没有课时。</p> : null}
        {outline.map((chapter) => (
          <section key={chapter.id} className="lesson-outline__chapter" aria-label={chapter.title}>
            <h3 className="lesson-outline__chapter-title">{chapter.title}</h3>
            <ol className="lesson-outline__lessons">
              {chapter.lessons.map((lesson) => {
                const progress = progressOf(lesson.id);
                const current = lesson.id === currentId;
                return (
                  <li key={lesson.id}>
                    <Link
                      to={`/video/${lesson.id}`}
                      className={`lesson-outline__lesson${current ? " is-current" : ""}${lesson.locked ? " is-locked" : ""}`}
                      aria-current={current ? "page" : undefined}
                    >
                      <span className="lesson-outline__number">{String(numberOf.get(lesson.id)).padStart(2, "0")}</span>
                      <span className="lesson-outline__main">
                        <span className="lesson-outline__title">{lesson.title}</span>
                        <span className="lesson-outline__meta">
                          {lesson.isTrial && !enrolled ? <span className="lesson-outline__tag">试看</span> : null}
                          {lesson.locked ? (
                            <span className="lesson-outline__lock">
                              <span className="lesson-outline__lock-icon" aria-hidden="true" />
                              {lesson.lockLabel}
                            </span>
                          ) : null}
                          <span>{formatClock(lesson.durationSeconds)}</span>
                          {progress && !lesson.locked ? (
                            <span className={`lesson-outline__state${progress.completed ? " is-done" : ""}`}>
                              {progress.completed
                                ? "已学完"
                                : progress.percent > 0
                                  ? `已学 ${progress.percent}%`
                                  : "未学"}
                            </span>
                          ) : null}
                        </span>
                        {progress && progress.percent > 0 ? (
                          <span
                            className="lesson-outline__bar"
                            role="progressbar"
                            aria-label={`${lesson.title}学习进度`}
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={progress.percent}
                          >
                            <span style={{ width: `${progress.percent}%` }} />
                          </span>
                        ) : null}
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ol>
          </section>
        ))}
      </div>
    </aside>
  );
}
