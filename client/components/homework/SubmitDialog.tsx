/**
 * 交作业: the learner takes (拍照, on touch devices) or picks (从相册选, several at once), drops or
 * pastes 1–9 photos; each is scaled and re-encoded in the browser (a HEIC the browser cannot draw
 * goes as it is, the server converts it) and uploaded one by one with its own progress bar, can
 * be reordered, removed or retried. Uploaded photos are the draft kept on the server for 24 h:
 * opening the dialog again (after a reload or a dropped connection) shows them. Then a note and
 * the wall choice go with the photos in one idempotent hand-in.
 */
import { type ChangeEvent, type DragEvent, useEffect, useId, useRef, useState } from "react";
import { HOMEWORK_NOTE_MAX, type HomeworkSubmission, type HomeworkTask } from "../../../shared/contracts/homework";
import { FormAlert } from "../form/FormAlert";
import { Modal } from "../../lib/modal";
import { useMutation } from "../../lib/mutation";
import { ModelCharacter } from "./ModelCharacter";
import { acceptPhotos, loadDraft, readyPhotoIds } from "./upload";
import "./homework.css";
import { newId, usePhotoUploads, useTouchFirst, PhotoTile } from "./photo-uploads";

export interface SubmitDialogProps {
  open: boolean;
  onClose: () => void;
  task: HomeworkTask;
  /** The attempt this hand-in will be (1 for the first). */
  attemptNumber: number;
  onSubmitted: (submission: HomeworkSubmission) => void;
}

export function SubmitDialog({ open, onClose, task, attemptNumber, onSubmitted }: SubmitDialogProps) {
  const id = useId();
  const { items, dispatch, remove, clear } = usePhotoUploads(task.id);
  const touchFirst = useTouchFirst();
  const [draftState, setDraftState] = useState<"idle" | "loading" | "failed">("idle");
  const [note, setNote] = useState("");
  const [showOnWall, setShowOnWall] = useState(false);
  const [pickMessage, setPickMessage] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const listRef = useRef<HTMLOListElement | null>(null);
  /** The photo just moved by keyboard: its move button keeps focus (or its other one, at an end). */
  const moved = useRef<{ id: string; by: -1 | 1 } | null>(null);
  const handIn = useMutation({ idempotent: true });
  const max = task.maxPhotos;

  const addFiles = (files: readonly File[]) => {
    if (files.length === 0) return;
    const { accepted, message } = acceptPhotos(files, max - items.length, max);
    setPickMessage(message);
    if (accepted.length > 0) dispatch({ type: "add", files: accepted, makeId: newId });
  };
  // The draft on the server: photos uploaded before a reload or a dropped connection.
  const [draftTry, setDraftTry] = useState(0);
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    setDraftState("loading");
    loadDraft(task.id, abort.signal).then(
      (photos) => {
        setDraftState("idle");
        dispatch({ type: "restore", photos, max, makeId: newId });
      },
      () => {
        if (!abort.signal.aborted) setDraftState("failed");
      },
    );
    return () => abort.abort();
  }, [open, task.id, max, dispatch, draftTry]);

  const addFilesRef = useRef(addFiles);
  useEffect(() => {
    addFilesRef.current = addFiles;
  });

  // Pasting a screenshot or a copied photo anywhere while the dialog is open adds it.
  useEffect(() => {
    if (!open) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData?.files ?? []);
      if (files.length === 0) return;
      event.preventDefault();
      addFilesRef.current(files);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [open]);

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    addFiles(Array.from(event.target.files ?? []));
    event.target.value = "";
  };
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  };

  useEffect(() => {
    const last = moved.current;
    moved.current = null;
    const tile = last ? listRef.current?.querySelector(`[data-upload-id="${last.id}"]`) : null;
    if (!last || !tile) return;
    const same = tile.querySelector<HTMLButtonElement>(`button[data-move="${last.by}"]`);
    const other = tile.querySelector<HTMLButtonElement>(`button[data-move="${-last.by}"]`);
    (same && !same.disabled ? same : other)?.focus();
  }, [items]);

  const photoIds = readyPhotoIds(items);
  const busy = items.some((item) => item.status !== "done" && item.status !== "error");

  async function submit() {
    if (!photoIds) return;
    await handIn.send(`/api/homework/tasks/${task.id}/submissions`, {
      body: { photoIds, note: note.trim(), showOnWall },
      schema: import("../../../shared/contracts/homework").then((m) => m.submissionSchema),
      onSuccess: (submission) => {
        clear();
        setNote("");
        setPickMessage(null);
        onSubmitted(submission);
      },
    });
  }

  const title = attemptNumber > 1 ? `重新提交（第 ${attemptNumber} 次）` : "交作业";
  return (
    <Modal open={open} onClose={onClose} title={title} className="hw-submit">
      <div
        className={`hw-submit__drop${dragging ? " is-dragging" : ""}`}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <section className="hw-submit__task" aria-label="作业要求">
          <p className="hw-submit__task-title">
            {task.lessonTitle} · {task.title}
          </p>
          {task.characters ? (
            <div className="hw-submit__models">
              {Array.from(task.characters).map((character, i) => (
                <ModelCharacter key={i} character={character} size={44} />
              ))}
            </div>
          ) : null}
          <p className="hw-submit__hint">
            拍清楚、拍正，光线均匀；每次 1–{max} 张照片，最多提交 {task.maxAttempts} 次。
          </p>
        </section>

        <div className="hw-submit__picker">
          {touchFirst ? (
            <>
              <input
                id={`${id}-camera`}
                className="hw-submit__file"
                type="file"
                accept="image/*"
                capture="environment"
                onChange={onPick}
                disabled={items.length >= max}
                data-picker="camera"
              />
              <label htmlFor={`${id}-camera`} className="button button--primary hw-submit__pick">
                拍照
              </label>
            </>
          ) : null}
          <input
            ref={fileInput}
            id={`${id}-files`}
            className="hw-submit__file"
            type="file"
            accept="image/*,.heic,.heif"
            multiple
            onChange={onPick}
            disabled={items.length >= max}
            data-picker="album"
          />
          <label htmlFor={`${id}-files`} className="button hw-submit__pick">
            从相册选
          </label>
          <span className="hw-submit__count" aria-live="polite">
            已选 {items.length} / {max} 张{touchFirst ? "" : " · 也可以把照片拖到这里，或直接粘贴"}
          </span>
        </div>
        {draftState === "loading" && items.length === 0 ? (
          <p className="hw-submit__message" role="status">
            正在取回已上传的照片…
          </p>
        ) : null}
        {draftState === "failed" ? (
          <p className="hw-submit__message" role="alert">
            没能取回已上传的照片（网络不通？）
            <button type="button" className="button" onClick={() => setDraftTry((n) => n + 1)}>
              再试一次
            </button>
          </p>
        ) : null}
        {pickMessage ? (
          <p className="hw-submit__message" role="alert">
            {pickMessage}
          </p>
        ) : null}

        {items.length > 0 ? (
          <ol ref={listRef} className="hw-submit__photos" aria-label="要提交的照片（按顺序）">
            {items.map((item, index) => (
              <PhotoTile
                key={item.id}
                item={item}
                index={index}
                count={items.length}
                onMove={(by) => {
                  moved.current = { id: item.id, by };
                  dispatch({ type: "move", id: item.id, by });
                }}
                onRemove={() => remove(item)}
                onRetry={() => dispatch({ type: "retry", id: item.id })}
              />
            ))}
          </ol>
        ) : null}

        <div className="hw-submit__note">
          <label htmlFor={`${id}-note`}>给老师的留言（选填）</label>
          <textarea
            id={`${id}-note`}
            className="form-field__control"
            value={note}
            maxLength={HOMEWORK_NOTE_MAX}
            rows={3}
            onChange={(event) => setNote(event.target.value)}
            aria-describedby={`${id}-note-count`}
            placeholder="哪个字写得不顺手，想请老师特别看看？"
          />
          <span id={`${id}-note-count`} className="hw-submit__counter">
            {note.length} / {HOMEWORK_NOTE_MAX}
          </span>
        </div>

        <label className="hw-submit__wall">
          <input type="checkbox" checked={showOnWall} onChange={(event) => setShowOnWall(event.target.checked)} />
          允许展示在作业墙
          <span className="hw-submit__wall-hint">（获评“优”后展出，只显示你的部分昵称，可随时撤下）</span>
        </label>

        <FormAlert problem={handIn.problem} />
        <div className="hw-submit__actions">
          <button type="button" className="button" onClick={onClose}>
            {busy ? "先关闭，稍后再交" : "取消"}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!photoIds || handIn.busy}
            onClick={() => void submit()}
          >
            {handIn.busy ? "提交中…" : busy ? "照片上传中…" : "提交作业"}
          </button>
        </div>
      </div>
    </Modal>
  );
}
