/** The claimed attempt on the canvas beside its written review; saving, returning and giving it back. */
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../../routing/link";
import { z } from "zod";
import {
  type ClaimResult,
  type GridKind,
  HOMEWORK_COMMENT_MAX,
  type Level,
  LEVELS,
  reviewInputSchema,
} from "../../../../shared/contracts/homework";
import { formatCountdown, formatDateTime, formatTime } from "../../../../shared/format";
import {
  canRedo,
  canUndo,
  commit,
  createEditor,
  drawingsToSave,
  type EditorState,
  hasChanges,
  redo,
  undo,
  withGridChanged,
  withoutGrid,
} from "../../../components/homework/editor-state";
import { browserApi } from "../../../lib/api";
import { useCountdown } from "../../../lib/countdown";
import { describeProblem } from "../../../lib/problem";
import { claimAttempt, reviewHref } from "../review-queue";
import { ReviewCanvas } from "./ReviewCanvas";
import { LevelPicker, Phrases, ReturnDialog } from "./ReviewPanel";
import { ReviewToolbar } from "./ReviewToolbar";
import { DEFAULT_PEN, type Pen, shortcutOf, type Tool } from "./tools";

const doneSchema = z.unknown();
const browserClock = () => Date.now();

export function ReviewWorkspace({ claim, onClaim }: { claim: ClaimResult; onClaim: (c: ClaimResult) => void }) {
  const navigate = useNavigate();
  const { submission } = claim;
  const attempt = submission.attempts.find((a) => a.id === claim.attemptId) ?? submission.attempts.at(-1)!;
  const earlier = submission.attempts.filter((a) => a.number < attempt.number);
  const characters = Array.from(submission.task.characters).filter((c) => c.trim());

  const [editor, setEditor] = useState<EditorState>(() => createEditor(attempt.photos.length));
  const [photoIndex, setPhotoIndex] = useState(0);
  const [tool, setTool] = useState<Tool>("pen");
  const [pen, setPen] = useState<Pen>(DEFAULT_PEN);
  const [gridKind, setGridKind] = useState<GridKind>("mi");
  const [character, setCharacter] = useState(characters[0] ?? "");
  const [selectedGrid, setSelectedGrid] = useState<number | null>(null);
  const [spaceHeld, setSpaceHeld] = useState(false);
  const [zoomRequest, setZoomRequest] = useState({ n: 0, factor: 1 });
  const [zoom, setZoom] = useState(1);
  const [level, setLevel] = useState<Level | null>(null);
  const [comment, setComment] = useState("");
  const [returning, setReturning] = useState(false);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const photo = attempt.photos[photoIndex];

  const claimLeft = useCountdown(claim.claimUntil, browserClock);

  const zoomBy = (factor: number) => setZoomRequest((r) => ({ n: r.n + 1, factor }));

  // Changing the model character while a grid is selected changes that grid's character.
  const chooseCharacter = (c: string) => {
    setCharacter(c);
    if (selectedGrid === null) return;
    if (!editor.drawings[photoIndex]?.grids[selectedGrid]) return;
    setEditor(
      commit(
        editor,
        withGridChanged(editor.drawings, photoIndex, selectedGrid, (g) => ({ ...g, character: c })),
      ),
    );
  };

  const save = useCallback(
    async (andNext: boolean) => {
      setProblem(null);
      const input = reviewInputSchema.safeParse({ level, comment, drawings: drawingsToSave(editor) });
      if (!level) {
        setProblem("请先选择评级（优 / 良 / 中 / 需加强）");
        return;
      }
      if (!input.success) {
        setProblem(input.error.issues[0]?.message ?? "请检查评语");
        commentRef.current?.focus();
        return;
      }
      setSaving(true);
      try {
        await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/review`, {
          method: "POST",
          body: input.data,
          schema: doneSchema,
        });
        await goOn(andNext, "已保存批改");
      } catch (err) {
        setProblem(describeProblem(err).message);
      } finally {
        setSaving(false);
      }
    },
    [level, comment, editor, claim.attemptId], // eslint-disable-line react-hooks/exhaustive-deps -- goOn reads only the claim
  );

  async function goOn(andNext: boolean, notice: string) {
    if (andNext && claim.nextAttemptId) {
      try {
        const next = await claimAttempt(claim.nextAttemptId);
        await navigate(reviewHref(next.attemptId), { state: { claim: next } });
        return;
      } catch (err) {
        await navigate("/teach/homework", {
          state: { notice: `${notice}。下一份没能领取：${describeProblem(err).message}` },
        });
        return;
      }
    }
    await navigate("/teach/homework", {
      state: { notice: andNext ? `${notice}，队列里没有等待的作业了` : notice },
    });
  }

  async function returnWork(reason: string): Promise<string | null> {
    try {
      await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/return`, {
        method: "POST",
        body: { reason, drawings: drawingsToSave(editor) },
        schema: doneSchema,
      });
      setReturning(false);
      await goOn(false, "已退回重写");
      return null;
    } catch (err) {
      return describeProblem(err).message;
    }
  }

  async function giveBack() {
    if (hasChanges(editor) && !window.confirm("批注还没有保存，确定放弃这份作业吗？")) return;
    try {
      await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/release`, {
        method: "POST",
        body: {},
        schema: doneSchema,
      });
    } finally {
      await navigate("/teach/homework", { state: { notice: "已放弃这份作业，其他老师可以领取了" } });
    }
  }

  // Keyboard shortcuts (listed in the toolbar's 快捷键 popover); space held pans.
  useEffect(() => {
    const typingIn = (t: EventTarget | null) =>
      t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector("[role=dialog][aria-modal=true]")) return;
      const typing = typingIn(e.target);
      if (e.key === " " && !typing) {
        e.preventDefault();
        setSpaceHeld(true);
        return;
      }
      const action = shortcutOf(e, typing);
      if (!action) return;
      // A focused button's own keys (Enter/Space) are not shortcuts; Backspace in a select neither.
      e.preventDefault();
      switch (action.kind) {
        case "tool":
          setTool(action.tool);
          break;
        case "undo":
          setEditor(undo);
          break;
        case "redo":
          setEditor(redo);
          break;
        case "level":
          setLevel(LEVELS[action.index] ?? null);
          break;
        case "save":
          void save(false);
          break;
        case "zoom":
          zoomBy(action.factor);
          break;
        case "deleteGrid":
          if (selectedGrid !== null) {
            setEditor((ed) => commit(ed, withoutGrid(ed.drawings, photoIndex, selectedGrid)));
            setSelectedGrid(null);
          }
          break;
      }
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === " ") setSpaceHeld(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp);
    };
  }, [save, selectedGrid, photoIndex]);

  // Unsaved marks are not lost to a closed tab without a question.
  useEffect(() => {
    if (!hasChanges(editor)) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [editor]);

  const insertPhrase = (phrase: string) => {
    const el = commentRef.current;
    const at = el ? el.selectionStart : comment.length;
    const end = el ? el.selectionEnd : comment.length;
    const next = `${comment.slice(0, at)}${phrase}${comment.slice(end)}`.slice(0, HOMEWORK_COMMENT_MAX);
    setComment(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + phrase.length, at + phrase.length);
    });
  };

  return (
    <div className="review">
      <header className="review__head">
        <div>
          <p className="review__crumbs">
            <Link to="/teach/homework">批改队列</Link> / {submission.task.courseTitle} · {submission.task.lessonTitle}
          </p>
          <h1 className="review__title">
            {submission.learner} · {submission.task.title}
            <span className="review__attempt">第 {attempt.number} 次提交</span>
          </h1>
          <p className="review__meta">提交于 {formatDateTime(attempt.submittedAt)}</p>
        </div>
        <p className={`review__claim${claimLeft === 0 ? " is-expired" : ""}`} role="status">
          {claimLeft > 0 ? (
            <>
              为你保留至 {formatTime(claim.claimUntil)}（还剩 {formatCountdown(claimLeft)}）
            </>
          ) : (
            <>
              领取已过期，其他老师可能会领取。
              <button
                type="button"
                className="text-button"
                onClick={() => {
                  claimAttempt(claim.attemptId)
                    .then(onClaim)
                    .catch((err: unknown) =>
                      navigate("/teach/homework", { state: { notice: describeProblem(err).message } }),
                    );
                }}
              >
                重新领取
              </button>
            </>
          )}
        </p>
      </header>

      <div className="review__body">
        <section className="review__board" aria-label="批注">
          <ReviewToolbar
            tool={tool}
            onTool={setTool}
            pen={pen}
            onPen={setPen}
            gridKind={gridKind}
            onGridKind={setGridKind}
            characters={characters}
            character={character}
            onCharacter={chooseCharacter}
            canUndo={canUndo(editor)}
            canRedo={canRedo(editor)}
            onUndo={() => setEditor(undo)}
            onRedo={() => setEditor(redo)}
            zoom={zoom}
            onZoom={zoomBy}
          />
          {photo ? (
            <ReviewCanvas
              photo={photo}
              photoIndex={photoIndex}
              alt={`${submission.learner}的作业，第 ${photoIndex + 1} 张`}
              editor={editor}
              onEditor={setEditor}
              tool={tool}
              pen={pen}
              gridKind={gridKind}
              character={character}
              selectedGrid={selectedGrid}
              onSelectGrid={setSelectedGrid}
              panning={spaceHeld}
              zoomRequest={zoomRequest}
              onZoom={setZoom}
            />
          ) : (
            <p className="review-loading">这次提交没有照片。</p>
          )}
          {photo ? (
            <p className="review-touch-hint">
              用笔或一根手指画；两根手指拖动、缩放照片，点“适合”复位。用过笔之后，一根手指只移动照片，手掌碰到也不会留下痕迹。
            </p>
          ) : null}
          {attempt.photos.length > 1 ? (
            <ol className="review-photos" aria-label="照片">
              {attempt.photos.map((p, i) => {
                const d = editor.drawings[i];
                const marked = d ? d.marks.length + d.grids.length : 0;
                return (
                  <li key={p.id}>
                    <button
                      type="button"
                      aria-current={i === photoIndex ? "true" : undefined}
                      onClick={() => {
                        setPhotoIndex(i);
                        setSelectedGrid(null);
                      }}
                    >
                      <img src={p.thumbUrl} alt={`第 ${i + 1} 张`} width={64} height={64} />
                      {marked > 0 ? <span className="review-photos__count">{marked}</span> : null}
                    </button>
                  </li>
                );
              })}
            </ol>
          ) : null}
        </section>

        <aside className="review__side" aria-label="评级与评语">
          <div className="review-task">
            <p className="review-task__chars" lang="zh-CN">
              范字：<span>{submission.task.characters || "—"}</span>
            </p>
            {submission.task.instructions ? <p>{submission.task.instructions}</p> : null}
            {attempt.note ? <p className="review-task__note">学员留言：{attempt.note}</p> : null}
            {earlier.length > 0 ? (
              <details className="review-task__history">
                <summary>之前的 {earlier.length} 次提交</summary>
                <ul>
                  {earlier.map((a) => (
                    <li key={a.id}>
                      第 {a.number} 次 · {a.stateLabel}
                      {a.review?.returnReason
                        ? `：${a.review.returnReason}`
                        : a.review?.levelLabel
                          ? `：${a.review.levelLabel}`
                          : ""}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
          </div>
          <LevelPicker level={level} onLevel={setLevel} />
          <div className="review-comment">
            <label htmlFor="review-comment">评语</label>
            <textarea
              id="review-comment"
              ref={commentRef}
              rows={6}
              maxLength={HOMEWORK_COMMENT_MAX}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              placeholder="写给学员的话：哪里写得好，哪一笔要再练。"
            />
            <p className="review-count">
              {comment.length} / {HOMEWORK_COMMENT_MAX}
            </p>
          </div>
          <Phrases onInsert={insertPhrase} />
          {problem ? (
            <p className="login-alert" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="review-actions">
            <button type="button" className="button button--primary" disabled={saving} onClick={() => void save(true)}>
              {saving ? "保存中…" : "保存并批改下一份"}
            </button>
            <button type="button" className="button" disabled={saving} onClick={() => void save(false)}>
              保存
            </button>
            <button type="button" className="button" onClick={() => setReturning(true)}>
              退回重写
            </button>
            <button type="button" className="text-button" onClick={() => void giveBack()}>
              放弃批改
            </button>
          </div>
        </aside>
      </div>
      <ReturnDialog open={returning} onClose={() => setReturning(false)} onReturn={returnWork} />
    </div>
  );
}
