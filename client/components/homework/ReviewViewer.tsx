/**
 * One piece of homework as its learner sees it: the attempts (one at a time, or side by side),
 * each photo with the teacher's drawing (on/off) and a 田 / 米 / 九宫 grid, the learner's
 * characters beside the model ones, and the review: level seal, comment, teacher and times.
 * On a phone the photos are a swipeable, pinch-zoomable stage with thumbnails (`PhotoStage`).
 */
import { useEffect, useId, useState } from "react";
import { Link } from "../../routing/link";
import {
  GRID_KINDS,
  GRID_LABELS,
  type GridKind,
  type HomeworkAttempt,
  type HomeworkSubmission,
} from "../../../shared/contracts/homework";
import { formatDateTime } from "../../../shared/format";
import { browserApi } from "../../lib/api";
import { describeProblem } from "../../lib/problem";
import { CharacterPair } from "./CharacterPair";
import { HomeworkPhoto } from "./HomeworkPhoto";
import { LevelSeal } from "./LevelSeal";
import { PhotoStage } from "./PhotoStage";
import { ModelCharacter } from "./ModelCharacter";
import { teacherName } from "./teacher-name";
import "./homework.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const homeworkContract = () => import("../../../shared/contracts/homework");

interface ViewOptions {
  showMarks: boolean;
  gridKind: GridKind | null;
}

function ReviewNote({ attempt }: { attempt: HomeworkAttempt }) {
  const review = attempt.review;
  if (!review) {
    return <p className="hw-review__waiting">老师还没有批改，批改后会通知你。</p>;
  }
  return (
    <div className="hw-review__note">
      {review.level ? <LevelSeal level={review.level} /> : null}
      <div className="hw-review__words">
        {attempt.state === "returned" && review.returnReason ? (
          <p className="hw-review__reason">
            <strong>退回原因：</strong>
            {review.returnReason}
          </p>
        ) : null}
        {review.comment ? <p className="hw-review__comment">{review.comment}</p> : null}
        <p className="hw-review__by">
          {teacherName(review.teacher)} · {formatDateTime(review.reviewedAt)}
        </p>
      </div>
    </div>
  );
}

/** True on a phone-sized screen (the site's phone breakpoint), after hydration. */
function usePhoneScreen(): boolean {
  const [phone, setPhone] = useState(false);
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia("(max-width: 480px)");
    const update = () => setPhone(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return phone;
}

function AttemptView({
  attempt,
  characters,
  options,
  compact,
  phone = false,
}: {
  attempt: HomeworkAttempt;
  characters: string;
  options: ViewOptions;
  compact: boolean;
  phone?: boolean;
}) {
  const drawings = attempt.review?.drawings ?? [];
  const columns = Math.min(Math.max(Array.from(characters).length, 2), 4);
  const placed = drawings.flatMap((d) => {
    const photo = attempt.photos[d.photo];
    return photo ? d.grids.map((grid) => ({ photo, grid })) : [];
  });
  return (
    <section className="hw-attempt" aria-label={`第 ${attempt.number} 次提交`}>
      <header className="hw-attempt__head">
        <span className={`hw-state hw-state--${attempt.state}`}>{attempt.stateLabel}</span>
        <span>
          第 {attempt.number} 次 · {formatDateTime(attempt.submittedAt)} 提交
        </span>
      </header>
      {attempt.note ? <p className="hw-attempt__note">我的留言：{attempt.note}</p> : null}
      {phone && !compact ? (
        <PhotoStage
          key={attempt.id}
          photos={attempt.photos}
          altOf={(i) => `第 ${attempt.number} 次提交的第 ${i + 1} 张照片`}
          drawingOf={(i) => drawings.find((d) => d.photo === i) ?? null}
          showMarks={options.showMarks}
          gridKind={options.gridKind}
          fallbackColumns={columns}
        />
      ) : (
        <div className={`hw-attempt__photos${compact ? " is-compact" : ""}`}>
          {attempt.photos.map((photo, i) => (
            <HomeworkPhoto
              key={photo.id}
              photo={photo}
              alt={`第 ${attempt.number} 次提交的第 ${i + 1} 张照片`}
              drawing={drawings.find((d) => d.photo === i) ?? null}
              showMarks={options.showMarks}
              gridKind={options.gridKind}
              fallbackColumns={columns}
            />
          ))}
        </div>
      )}
      {!compact && placed.length > 0 ? (
        <div className="hw-attempt__pairs" role="group" aria-label="范字对照">
          {placed.map(({ photo, grid }, i) => (
            <CharacterPair key={i} photo={photo} grid={grid} kind={options.gridKind ?? undefined} />
          ))}
        </div>
      ) : !compact && characters ? (
        <div className="hw-attempt__models" role="group" aria-label="范字">
          {Array.from(characters).map((c, i) => (
            <ModelCharacter key={i} character={c} kind={options.gridKind ?? "mi"} size={72} />
          ))}
        </div>
      ) : null}
      <ReviewNote attempt={attempt} />
    </section>
  );
}

/** The learner's choice to show the work on the wall, with its share page once it is there. */
function WallChoice({ submission }: { submission: HomeworkSubmission }) {
  const [current, setCurrent] = useState(submission);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function choose(showOnWall: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      setCurrent(
        await browserApi(`/api/homework/submissions/${current.id}`, {
          method: "PATCH",
          body: { showOnWall },
          schema: homeworkContract().then((m) => m.submissionSchema),
        }),
      );
    } catch (err) {
      setProblem(describeProblem(err).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="hw-viewer__wall">
      {current.shareId ? (
        <>
          <span>这份作业已展出在作业墙。</span>
          <Link to={`/homework/share?id=${encodeURIComponent(current.shareId)}`}>查看分享页</Link>
          <button type="button" className="button button--small" disabled={busy} onClick={() => void choose(false)}>
            从作业墙撤下
          </button>
        </>
      ) : (
        <label>
          <input
            type="checkbox"
            checked={current.showOnWall}
            disabled={busy}
            onChange={(e) => void choose(e.target.checked)}
          />
          允许展示在作业墙（获评“优”后展出）
        </label>
      )}
      {problem ? <span role="alert">{problem}</span> : null}
    </div>
  );
}

export interface ReviewViewerProps {
  submission: HomeworkSubmission;
  /** Opens the submit dialog for the next attempt; the button shows when the work may be handed in again. */
  onResubmit?: () => void;
  /** The viewer is the learner: show the wall choice (展示 / 撤下). */
  ownerControls?: boolean;
}

export function ReviewViewer({ submission, onResubmit, ownerControls = false }: ReviewViewerProps) {
  const id = useId();
  const attempts = submission.attempts;
  const [index, setIndex] = useState(Math.max(0, attempts.length - 1));
  const [sideBySide, setSideBySide] = useState(false);
  const [options, setOptions] = useState<ViewOptions>({ showMarks: true, gridKind: null });
  const current = attempts[index] ?? attempts.at(-1);
  const characters = submission.task.characters;
  const phone = usePhoneScreen();

  return (
    <div className="hw-viewer">
      <p className="hw-viewer__task">
        {submission.task.courseTitle} · {submission.task.lessonTitle} · {submission.task.title}
      </p>
      <div className="hw-viewer__tools" role="group" aria-label="查看方式">
        <label>
          <input
            type="checkbox"
            checked={options.showMarks}
            onChange={(e) => setOptions({ ...options, showMarks: e.target.checked })}
          />
          显示老师批注
        </label>
        <fieldset className="hw-viewer__grids">
          <legend>格子</legend>
          {[null, ...GRID_KINDS].map((kind) => (
            <label key={kind ?? "none"}>
              <input
                type="radio"
                name={`${id}-grid`}
                checked={options.gridKind === kind}
                onChange={() => setOptions({ ...options, gridKind: kind })}
              />
              {kind ? GRID_LABELS[kind] : "不显示"}
            </label>
          ))}
        </fieldset>
        {attempts.length > 1 ? (
          <label>
            <input type="checkbox" checked={sideBySide} onChange={(e) => setSideBySide(e.target.checked)} />
            各次并排对比
          </label>
        ) : null}
      </div>

      {attempts.length > 1 && !sideBySide ? (
        <div className="hw-viewer__tabs" role="group" aria-label="提交次数">
          {attempts.map((attempt, i) => (
            <button
              key={attempt.id}
              type="button"
              className={`hw-viewer__tab${i === index ? " is-active" : ""}`}
              aria-pressed={i === index}
              onClick={() => setIndex(i)}
            >
              第 {attempt.number} 次 · {attempt.stateLabel}
            </button>
          ))}
        </div>
      ) : null}

      {sideBySide ? (
        <div className="hw-viewer__side" style={{ gridTemplateColumns: `repeat(${attempts.length}, minmax(0, 1fr))` }}>
          {attempts.map((attempt) => (
            <AttemptView key={attempt.id} attempt={attempt} characters={characters} options={options} compact />
          ))}
        </div>
      ) : current ? (
        <AttemptView attempt={current} characters={characters} options={options} compact={false} phone={phone} />
      ) : null}

      {ownerControls ? <WallChoice submission={submission} /> : null}

      {submission.state === "returned" || onResubmit ? (
        <div className="hw-viewer__foot">
          {submission.resubmit.allowed && onResubmit ? (
            <button type="button" className="button button--primary" onClick={onResubmit}>
              重新提交
            </button>
          ) : submission.state === "returned" ? (
            <p className="hw-viewer__why">{submission.resubmit.reason}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
