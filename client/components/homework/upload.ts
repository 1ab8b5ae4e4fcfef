/**
 * Getting homework photos to the server: which files are accepted, scaling and re-encoding in
 * the browser before upload, the upload itself with progress, and the list of photos in the
 * submit dialog as a reducer. Each photo keeps one Idempotency-Key for its whole life in the
 * list, so a retried upload the server already stored comes back as the same photo.
 */
import { AjaxError } from "../../../shared/ajax";
import {
  HOMEWORK_PHOTO_MAX_BYTES,
  HOMEWORK_PHOTO_TYPES,
  HOMEWORK_UNSUPPORTED_TYPE,
  HOMEWORK_UPLOAD_LONG_SIDE,
  type HomeworkPhoto,
} from "../../../shared/contracts/homework";
import { ajaxErrorMessage } from "../../../shared/errors";

export const UPLOAD_JPEG_QUALITY = 0.85;

/** The size to scale to: the long side at most `longSide`, the aspect kept, never enlarged. */
export function fitLongSide(
  width: number,
  height: number,
  longSide: number = HOMEWORK_UPLOAD_LONG_SIDE,
): { width: number; height: number } {
  const long = Math.max(width, height);
  if (long <= longSide || long === 0) return { width, height };
  const scale = longSide / long;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** JPEG, PNG, WebP and HEIC/HEIF; everything else is refused before any work is done. */
export function isSupportedPhoto(file: Pick<File, "type" | "name">): boolean {
  if ((HOMEWORK_PHOTO_TYPES as readonly string[]).includes(file.type)) return true;
  // Some systems leave the type empty (or vague); trust only these extensions then.
  return (
    (file.type === "" || file.type === "application/octet-stream") && /\.(jpe?g|png|webp|heic|heif)$/i.test(file.name)
  );
}

/** An iPhone photo (HEIC/HEIF): most browsers cannot draw it, so the server converts it. */
export function isHeicFile(file: Pick<File, "type" | "name">): boolean {
  return /^image\/hei[cf](-sequence)?$/.test(file.type) || /\.(heic|heif)$/i.test(file.name);
}

/** Splits picked, dropped or pasted files into the ones to upload and a message for the rest. */
export function acceptPhotos(
  files: readonly File[],
  room: number,
  max: number,
): { accepted: File[]; message: string | null } {
  const supported = files.filter(isSupportedPhoto);
  const messages: string[] = [];
  if (supported.length < files.length) messages.push(HOMEWORK_UNSUPPORTED_TYPE);
  const accepted = supported.slice(0, Math.max(0, room));
  if (accepted.length < supported.length)
    messages.push(`每次最多交 ${max} 张照片，多出的 ${supported.length - accepted.length} 张没有加入`);
  return { accepted, message: messages.length > 0 ? messages.join("；") : null };
}

/**
 * Scales a photo to the upload size and re-encodes it as JPEG, turned upright by its EXIF
 * orientation. Re-encoding also drops the photo's metadata (place, device) before it leaves.
 */
export async function compressPhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    const size = fitLongSide(bitmap.width, bitmap.height);
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("canvas unavailable");
    // A transparent PNG becomes JPEG on white paper, not on black.
    context.fillStyle = "#fff";
    context.fillRect(0, 0, size.width, size.height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", UPLOAD_JPEG_QUALITY));
    if (!blob) throw new Error("encoding failed");
    return blob;
  } finally {
    bitmap.close();
  }
}

/** Uploads one photo with XMLHttpRequest, for its upload progress (0–1). */
export function uploadPhoto(
  taskId: number,
  body: Blob,
  idempotencyKey: string,
  onProgress: (fraction: number) => void,
): { done: Promise<HomeworkPhoto>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<HomeworkPhoto>((resolve, reject) => {
    xhr.open("POST", `/api/homework/tasks/${taskId}/photos`);
    xhr.setRequestHeader("Content-Type", body.type || "image/jpeg");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Idempotency-Key", idempotencyKey);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = async () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = xhr.responseText;
      }
      if (xhr.status >= 400) {
        reject(new AjaxError(xhr.status, ajaxErrorMessage(xhr.status), parsed));
        return;
      }
      // The contract loads with the first upload (decision 030).
      const { photoSchema } = await import("../../../shared/contracts/homework").catch(() => ({ photoSchema: null }));
      const photo = photoSchema?.safeParse(parsed) ?? { success: false as const };
      if (photo.success) resolve(photo.data);
      else reject(new AjaxError(502, ajaxErrorMessage(502), parsed));
    };
    xhr.onerror = () => reject(new TypeError("network error"));
    xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
    xhr.send(body);
  });
  return { done, abort: () => xhr.abort() };
}

// ---- The list of photos in the submit dialog ----

export type UploadStatus = "queued" | "compressing" | "uploading" | "done" | "error";

export interface UploadItem {
  id: string;
  name: string;
  /** The picked file; null for a photo restored from the server's draft. */
  file: File | null;
  /** The compressed photo, once made (kept for a retry). */
  blob: Blob | null;
  /** An object URL of the compressed photo for the thumbnail. */
  preview: string | null;
  /** One key per photo for its whole life in the list: a retry never stores it twice. */
  key: string;
  status: UploadStatus;
  progress: number;
  photo: HomeworkPhoto | null;
  error: string | null;
}

export type UploadAction =
  | { type: "add"; files: readonly File[]; makeId: () => string }
  | { type: "restore"; photos: readonly HomeworkPhoto[]; max: number; makeId: () => string }
  | { type: "compressing"; id: string }
  | { type: "compressed"; id: string; blob: Blob; preview: string | null }
  | { type: "progress"; id: string; progress: number }
  | { type: "uploaded"; id: string; photo: HomeworkPhoto }
  | { type: "failed"; id: string; error: string }
  | { type: "retry"; id: string }
  | { type: "remove"; id: string }
  | { type: "move"; id: string; by: -1 | 1 }
  | { type: "clear" };

export function uploadReducer(items: readonly UploadItem[], action: UploadAction): readonly UploadItem[] {
  const patch = (id: string, change: Partial<UploadItem>) =>
    items.map((item) => (item.id === id ? { ...item, ...change } : item));
  switch (action.type) {
    case "add":
      return [
        ...items,
        ...action.files.map((file): UploadItem => ({
          id: action.makeId(),
          name: file.name,
          file,
          blob: null,
          preview: null,
          key: action.makeId(),
          status: "queued",
          progress: 0,
          photo: null,
          error: null,
        })),
      ];
    case "restore": {
      // The draft kept on the server (a reload, a dropped connection): its photos come first,
      // already uploaded, each once.
      const known = new Set(items.map((item) => item.photo?.id).filter(Boolean));
      const room = Math.max(0, action.max - items.length);
      const restored = action.photos
        .filter((photo) => !known.has(photo.id))
        .slice(0, room)
        .map((photo): UploadItem => ({
          id: action.makeId(),
          name: photo.id,
          file: null,
          blob: null,
          preview: photo.thumbUrl,
          key: action.makeId(),
          status: "done",
          progress: 1,
          photo,
          error: null,
        }));
      return restored.length > 0 ? [...restored, ...items] : items;
    }
    case "compressing":
      return patch(action.id, { status: "compressing", error: null });
    case "compressed":
      return patch(action.id, { blob: action.blob, preview: action.preview, status: "uploading", progress: 0 });
    case "progress":
      return patch(action.id, { progress: Math.min(1, Math.max(0, action.progress)) });
    case "uploaded":
      // The same photo may have come back with the draft meanwhile: it is listed once.
      return patch(action.id, {
        status: "done",
        progress: 1,
        photo: action.photo,
        error: null,
        preview: items.find((item) => item.id === action.id)?.preview ?? action.photo.thumbUrl,
      }).filter((item) => item.id === action.id || item.photo?.id !== action.photo.id);
    case "failed":
      return patch(action.id, { status: "error", error: action.error });
    case "retry":
      // The key and the compressed photo stay: the server recognises the same upload.
      return patch(action.id, { status: "queued", progress: 0, error: null });
    case "remove":
      return items.filter((item) => item.id !== action.id);
    case "move": {
      const from = items.findIndex((item) => item.id === action.id);
      const to = from + action.by;
      if (from < 0 || to < 0 || to >= items.length) return items;
      const next = [...items];
      const [moved] = next.splice(from, 1);
      if (moved) next.splice(to, 0, moved);
      return next;
    }
    case "clear":
      return [];
  }
}

/** The next photo to work on: one at a time, in list order. */
export function nextToUpload(items: readonly UploadItem[]): UploadItem | null {
  if (items.some((item) => item.status === "compressing" || item.status === "uploading")) return null;
  return items.find((item) => item.status === "queued") ?? null;
}

/** The uploaded photos in the learner's order, when every photo in the list is uploaded. */
export function readyPhotoIds(items: readonly UploadItem[]): string[] | null {
  if (items.length === 0 || items.some((item) => item.status !== "done" || !item.photo)) return null;
  return items.map((item) => item.photo?.id ?? "");
}

export function uploadStatusText(item: UploadItem): string {
  switch (item.status) {
    case "queued":
      return "等待上传";
    case "compressing":
      return "正在压缩…";
    case "uploading":
      return `上传中 ${Math.round(item.progress * 100)}%`;
    case "done":
      return "已上传";
    case "error":
      return item.error ?? "上传失败";
  }
}

/** The learner's draft for a task: the photos already on the server, not yet handed in. */
export async function loadDraft(taskId: number, signal?: AbortSignal): Promise<HomeworkPhoto[]> {
  const res = await fetch(`/api/homework/tasks/${taskId}/draft`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
    signal,
  });
  if (!res.ok) throw new AjaxError(res.status, ajaxErrorMessage(res.status), null);
  const { draftSchema } = await import("../../../shared/contracts/homework");
  return draftSchema.parse(await res.json()).photos;
}

/** Takes an uploaded photo out of the draft on the server (a photo already gone is fine). */
export async function removeFromDraft(taskId: number, photoId: string): Promise<void> {
  const res = await fetch(`/api/homework/tasks/${taskId}/draft/${encodeURIComponent(photoId)}`, {
    method: "DELETE",
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  if (!res.ok && res.status !== 404) throw new AjaxError(res.status, ajaxErrorMessage(res.status), null);
}

/** Whether a compressed photo is still too large for the server. */
export function tooLarge(blob: Blob): boolean {
  return blob.size > HOMEWORK_PHOTO_MAX_BYTES;
}
