/** The written half of a review: the level, the comment with saved phrases, and returning the work. */
import { useEffect, useId, useState } from "react";
import {
  HOMEWORK_REASON_MAX,
  type Level,
  LEVEL_LABELS,
  LEVELS,
  phrasesSchema,
} from "../../../../shared/contracts/homework";
import { browserApi } from "../../../lib/api";
import { Modal } from "../../../lib/modal";
import { describeProblem } from "../../../lib/problem";

export function LevelPicker({ level, onLevel }: { level: Level | null; onLevel: (l: Level) => void }) {
  return (
    <fieldset className="review-levels">
      <legend>评级</legend>
      {LEVELS.map((l, i) => (
        <label key={l} className={`review-levels__option${level === l ? " is-checked" : ""}`}>
          <input type="radio" name="level" value={l} checked={level === l} onChange={() => onLevel(l)} />
          {LEVEL_LABELS[l]}
          <kbd aria-hidden="true">{i + 1}</kbd>
        </label>
      ))}
    </fieldset>
  );
}

/** The teacher's saved phrases: click to add to the comment; add and remove in a small editor. */
export function Phrases({ onInsert }: { onInsert: (phrase: string) => void }) {
  const [phrases, setPhrases] = useState<string[] | null>(null);
  const [managing, setManaging] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    const ac = new AbortController();
    browserApi("/api/teach/homework/phrases", { signal: ac.signal, schema: phrasesSchema })
      .then((p) => setPhrases(p.phrases))
      .catch((err: unknown) => {
        if (!ac.signal.aborted) setFailed(describeProblem(err).message);
      });
    return () => ac.abort();
  }, []);
  return (
    <div className="review-phrases">
      <div className="review-phrases__head">
        <span>常用评语</span>
        <button type="button" className="text-button" onClick={() => setManaging(true)} disabled={phrases === null}>
          管理
        </button>
      </div>
      {failed ? <p className="review-phrases__empty">常用评语没有读到：{failed}</p> : null}
      {phrases === null && !failed ? <p className="review-phrases__empty">正在读取…</p> : null}
      {phrases?.length === 0 ? <p className="review-phrases__empty">还没有常用评语，点“管理”添加。</p> : null}
      {phrases && phrases.length > 0 ? (
        <ul className="review-phrases__list">
          {phrases.map((p) => (
            <li key={p}>
              <button type="button" className="review-phrase" onClick={() => onInsert(p)} title="加到评语里">
                {p}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {phrases ? (
        <PhraseManager
          open={managing}
          phrases={phrases}
          onClose={() => setManaging(false)}
          onSaved={(p) => {
            setPhrases(p);
            setManaging(false);
          }}
        />
      ) : null}
    </div>
  );
}

function PhraseManager({
  open,
  phrases,
  onClose,
  onSaved,
}: {
  open: boolean;
  phrases: string[];
  onClose: () => void;
  onSaved: (phrases: string[]) => void;
}) {
  const [draft, setDraft] = useState(phrases);
  const [next, setNext] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  useEffect(() => {
    if (open) setDraft(phrases);
  }, [open, phrases]);
  const add = () => {
    const text = next.trim();
    if (!text || draft.includes(text)) return;
    setDraft([...draft, text.slice(0, 200)]);
    setNext("");
  };
  return (
    <Modal open={open} onClose={onClose} title="管理常用评语" className="phrase-dialog">
      <ul className="phrase-dialog__list">
        {draft.map((p, i) => (
          <li key={p}>
            <span>{p}</span>
            <button type="button" className="text-button" onClick={() => setDraft(draft.filter((_, j) => j !== i))}>
              删除<span className="visually-hidden">“{p}”</span>
            </button>
          </li>
        ))}
        {draft.length === 0 ? <li className="review-phrases__empty">没有常用评语</li> : null}
      </ul>
      <div className="phrase-dialog__add">
        <label htmlFor={inputId}>新评语</label>
        <input
          id={inputId}
          value={next}
          maxLength={200}
          onChange={(e) => setNext(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
        <button
          type="button"
          className="button button--small"
          onClick={add}
          disabled={!next.trim() || draft.length >= 50}
        >
          添加
        </button>
      </div>
      {problem ? (
        <p className="login-alert" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="phrase-dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          取消
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setProblem(null);
            browserApi("/api/teach/homework/phrases", {
              method: "PUT",
              body: { phrases: draft },
              schema: phrasesSchema,
            })
              .then((saved) => onSaved(saved.phrases))
              .catch((err: unknown) => setProblem(describeProblem(err).message))
              .finally(() => setBusy(false));
          }}
        >
          {busy ? "保存中…" : "保存"}
        </button>
      </div>
    </Modal>
  );
}

/** 退回重写: the reason the learner will read, then the work goes back with the drawing as it is. */
export function ReturnDialog({
  open,
  onClose,
  onReturn,
}: {
  open: boolean;
  onClose: () => void;
  onReturn: (reason: string) => Promise<string | null>;
}) {
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  return (
    <Modal open={open} onClose={onClose} title="退回重写" className="return-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!reason.trim()) {
            setProblem("请写明退回的原因");
            return;
          }
          setBusy(true);
          void onReturn(reason.trim()).then((failed) => {
            setBusy(false);
            setProblem(failed);
          });
        }}
      >
        <label htmlFor={id}>退回的原因（学员会看到）</label>
        <textarea
          id={id}
          rows={4}
          maxLength={HOMEWORK_REASON_MAX}
          value={reason}
          placeholder="例如：照片太暗看不清笔画，请在光线充足处重新拍摄。"
          onChange={(e) => setReason(e.target.value)}
        />
        <p className="review-count">
          {reason.length} / {HOMEWORK_REASON_MAX}
        </p>
        {problem ? (
          <p className="login-alert" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="phrase-dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            取消
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "退回中…" : "确认退回"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
