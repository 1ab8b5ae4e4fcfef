/**
 * The photos of a hand-in: picked, compressed and uploaded one at a time, each shown as a tile.
 */
import { useEffect, useReducer, useRef, useState } from "react";
import { describeProblem } from "../../lib/problem";
import {
  compressPhoto,
  isHeicFile,
  nextToUpload,
  removeFromDraft,
  tooLarge,
  type UploadItem,
  uploadPhoto,
  uploadReducer,
  uploadStatusText,
} from "./upload";
import "./homework.css";

export const newId = () => crypto.randomUUID();

/** Picks, compresses and uploads photos one at a time; the list is the dialog's state. */
export function usePhotoUploads(taskId: number) {
  const [items, dispatch] = useReducer(uploadReducer, []);
  const working = useRef<string | null>(null);
  const abortCurrent = useRef<(() => void) | null>(null);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const item = nextToUpload(items);
    if (!item || working.current) return;
    working.current = item.id;
    void (async () => {
      try {
        let blob = item.blob;
        let preview = item.preview;
        if (!blob) {
          const file = item.file;
          if (!file) return;
          dispatch({ type: "compressing", id: item.id });
          try {
            blob = await compressPhoto(file);
            preview = URL.createObjectURL(blob);
            previews.current.add(preview);
          } catch {
            // Only Safari draws HEIC; elsewhere the photo goes as it is and the server converts it.
            if (!isHeicFile(file)) {
              dispatch({ type: "failed", id: item.id, error: "这张照片无法读取，请换一张" });
              return;
            }
            blob = file.type ? file : new Blob([file], { type: "image/heic" });
            preview = null;
          }
          if (tooLarge(blob)) {
            dispatch({ type: "failed", id: item.id, error: "照片太大，请换一张" });
            return;
          }
        }
        dispatch({ type: "compressed", id: item.id, blob, preview });
        const upload = uploadPhoto(taskId, blob, item.key, (progress) =>
          dispatch({ type: "progress", id: item.id, progress }),
        );
        abortCurrent.current = upload.abort;
        const photo = await upload.done;
        dispatch({ type: "uploaded", id: item.id, photo });
      } catch (err) {
        if (err instanceof DOMException && err.name === "AbortError") return;
        dispatch({ type: "failed", id: item.id, error: `上传失败：${describeProblem(err).message}` });
      } finally {
        working.current = null;
        abortCurrent.current = null;
      }
    })();
  }, [items, taskId]);

  useEffect(() => {
    const urls = previews.current;
    return () => {
      abortCurrent.current?.();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const remove = (item: UploadItem) => {
    if (working.current === item.id) abortCurrent.current?.();
    // Out of the draft on the server too, so a reload does not bring it back.
    if (item.photo) void removeFromDraft(taskId, item.photo.id).catch(() => undefined);
    if (item.preview?.startsWith("blob:")) {
      URL.revokeObjectURL(item.preview);
      previews.current.delete(item.preview);
    }
    dispatch({ type: "remove", id: item.id });
  };
  const clear = () => {
    for (const url of previews.current) URL.revokeObjectURL(url);
    previews.current.clear();
    dispatch({ type: "clear" });
  };
  return { items, dispatch, remove, clear };
}

/** Camera capture is offered where there is a camera to hold: touch-first devices. */
export function useTouchFirst(): boolean {
  const [touch, setTouch] = useState(false);
  useEffect(() => {
    setTouch(window.matchMedia?.("(pointer: coarse)").matches ?? false);
  }, []);
  return touch;
}

export function PhotoTile({
  item,
  index,
  count,
  onMove,
  onRemove,
  onRetry,
}: {
  item: UploadItem;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onRetry: () => void;
}) {
  const n = index + 1;
  return (
    <li className={`hw-upload hw-upload--${item.status}`} data-status={item.status} data-upload-id={item.id}>
      <div className="hw-upload__thumb">
        {item.preview ? <img src={item.preview} alt={`第 ${n} 张照片`} /> : <span aria-hidden="true">{n}</span>}
      </div>
      <progress
        className="hw-upload__bar"
        max={1}
        value={item.status === "done" ? 1 : item.progress}
        aria-label={`第 ${n} 张照片的上传进度`}
      />
      <p className="hw-upload__status" role={item.status === "error" ? "alert" : undefined}>
        {uploadStatusText(item)}
      </p>
      <div className="hw-upload__actions">
        <button
          type="button"
          data-move="-1"
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`第 ${n} 张往前移`}
        >
          ←
        </button>
        <button
          type="button"
          data-move="1"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`第 ${n} 张往后移`}
        >
          →
        </button>
        {item.status === "error" ? (
          <button type="button" onClick={onRetry} aria-label={`重新上传第 ${n} 张`}>
            重试
          </button>
        ) : null}
        <button type="button" onClick={onRemove} aria-label={`删除第 ${n} 张`}>
          删除
        </button>
      </div>
    </li>
  );
}
