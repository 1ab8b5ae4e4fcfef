import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import type { LessonView } from "../../../shared/contracts/learning";
import { Link } from "../../routing/link";
import { findLesson } from "./find-lesson";

const AUTO_ADVANCE_SECONDS = 5;

/** When a lesson ends: go on to the next one (in 5 s unless cancelled), or say the course is done. */
export function LessonEnd({ view, onReplay }: { view: LessonView; onReplay: () => void }) {
  const navigate = useNavigate();
  const next = findLesson(view, view.nextLessonId);
  const [left, setLeft] = useState<number | null>(next && !next.locked ? AUTO_ADVANCE_SECONDS : null);

  useEffect(() => {
    if (left === null || !next) return;
    if (left <= 0) {
      void navigate(`/video/${next.id}`, { state: { autoplay: true } });
      return;
    }
    const timer = window.setTimeout(() => setLeft(left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left, next, navigate]);

  if (!next) {
    return (
      <>
        <p className="player__overlay-title">恭喜，已经学到最后一课了</p>
        <p>把这门课学过的字再写一遍，交一份作业给老师看看吧。</p>
        <div className="lesson-end__actions">
          <button type="button" className="button" onClick={onReplay}>
            重新播放
          </button>
          <Link className="button button--primary" to={`/course/${view.course.id}`}>
            回到课程
          </Link>
        </div>
      </>
    );
  }
  if (next.locked) {
    return (
      <>
        <p className="player__overlay-title">本课已播放完</p>
        <p>
          下一课「{next.title}」：{next.lockLabel ?? "暂未开放"}
        </p>
        <div className="lesson-end__actions">
          <button type="button" className="button" onClick={onReplay}>
            重新播放
          </button>
          <Link className="button button--primary" to={`/course/${view.course.id}`}>
            查看课程
          </Link>
        </div>
      </>
    );
  }
  return (
    <>
      <p className="player__overlay-title">本课已播放完</p>
      <p>
        下一课：{next.title}
        {left !== null ? <span className="lesson-end__count">（{left} 秒后自动播放）</span> : null}
      </p>
      <div className="lesson-end__actions">
        {left !== null ? (
          <button type="button" className="button" onClick={() => setLeft(null)}>
            取消自动播放
          </button>
        ) : (
          <button type="button" className="button" onClick={onReplay}>
            重新播放
          </button>
        )}
        <Link className="button button--primary" to={`/video/${next.id}`} state={{ autoplay: true }}>
          播放下一课
        </Link>
      </div>
    </>
  );
}
