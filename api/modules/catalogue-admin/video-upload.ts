/**
 * A lesson video's way in (docs/decisions/043-video-transcoding.md): the upload streamed to disk
 * and judged by its first bytes, the queued job, and the state of the latest one. The worker that
 * transcodes it is in video.ts.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Request } from "express";
import type { VideoJob } from "../../../shared/contracts/admin-catalogue";
import { uploadedVideoSources } from "../../../shared/media";
import { ApiError, notFound } from "../../http";
import { recordAudit } from "../audit/record";
import { type Db } from "./common";
import { sniffVideoContainer, UNSUPPORTED_VIDEO_MESSAGE, VIDEO_HEAD_BYTES } from "./video-container";
import { removeQuietly } from "./video";

/**
 * The types documented for the upload. A browser's word is only a hint: the bytes decide
 * (`video-container.ts`), so a file sent without a type, or as application/octet-stream, is judged
 * the same way.
 */
export const LESSON_VIDEO_TYPES = [
  "video/mp4",
  "video/quicktime",
  "video/webm",
  "video/x-matroska",
  "video/x-msvideo",
  "video/mpeg",
  "video/mp2t",
  "application/octet-stream",
] as const;

export const NOT_A_VIDEO_MESSAGE = "这个文件不是可以播放的视频（没有找到视频画面），请换一个文件上传。";
const incomingRoot = (dataDir: string) => path.join(dataDir, "uploads", "incoming");

/**
 * Streams the request body to a new file under DATA_DIR/uploads/incoming, at most `maxBytes`
 * (413 beyond, the part written deleted). Answers the file's path, size and container: bytes
 * of no video container are refused (415) and deleted.
 */
export async function receiveVideo(req: Request, dataDir: string, maxBytes: number) {
  const tooLarge = () => new ApiError(413, "too_large", `视频文件太大：不能超过 ${Math.floor(maxBytes / 2 ** 20)} MB`);
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  await mkdir(incomingRoot(dataDir), { recursive: true });
  const file = path.join(incomingRoot(dataDir), `${randomUUID()}.upload`);
  let bytes = 0;
  const head: Buffer[] = [];
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (bytes < VIDEO_HEAD_BYTES) head.push(chunk.subarray(0, VIDEO_HEAD_BYTES - bytes));
      bytes += chunk.length;
      if (bytes > maxBytes) done(tooLarge());
      else done(null, chunk);
    },
  });
  try {
    await pipeline(req, counter, createWriteStream(file, { flags: "wx", mode: 0o600 }));
  } catch (err) {
    await removeQuietly(file);
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, "upload_interrupted", "视频上传中断，请重新上传");
  }
  if (bytes === 0) {
    await removeQuietly(file);
    throw new ApiError(400, "invalid_input", "请选择一个视频文件");
  }
  const demuxer = sniffVideoContainer(Buffer.concat(head));
  if (!demuxer) {
    await removeQuietly(file);
    throw new ApiError(415, "unsupported_media_type", UNSUPPORTED_VIDEO_MESSAGE);
  }
  return { file, bytes, demuxer };
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === "23505";

export const videoBusy = () => new ApiError(409, "video_busy", "这节课的视频正在转码，请等转码结束后再上传新文件");

/** Queues the upload for transcoding (one open job per lesson), with its audit entry. */
export async function enqueueVideo(
  db: Db,
  input: { lessonId: number; actorId: number; sourcePath: string; bytes: number; durationSeconds: number },
): Promise<number> {
  try {
    return await db.transaction().execute(async (trx) => {
      const lesson = await trx
        .selectFrom("lessons")
        .select(["id", "course_id", "video_key", "video_url"])
        .where("id", "=", input.lessonId)
        .forUpdate()
        .executeTakeFirst();
      if (!lesson) throw notFound();
      const job = await trx
        .insertInto("video_jobs")
        .values({
          lesson_id: input.lessonId,
          source_path: input.sourcePath,
          output_dir: `${input.lessonId}-${randomBytes(8).toString("hex")}`,
          duration_seconds: input.durationSeconds,
          created_by: input.actorId,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actorId: input.actorId,
        action: "lesson.video.upload",
        targetType: "lesson",
        targetId: input.lessonId,
        before: { videoKey: lesson.video_key, videoUrl: lesson.video_url },
        after: { jobId: job.id, bytes: input.bytes, durationSeconds: Math.round(input.durationSeconds) },
      });
      return job.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw videoBusy();
    throw err;
  }
}

export async function hasOpenJob(db: Db, lessonId: number): Promise<boolean> {
  const row = await db
    .selectFrom("video_jobs")
    .select("id")
    .where("lesson_id", "=", lessonId)
    .where("state", "in", ["queued", "running"])
    .executeTakeFirst();
  return Boolean(row);
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function latestVideoJob(db: Db, lessonId: number): Promise<VideoJob | null> {
  const row = await db
    .selectFrom("video_jobs")
    .select(["id", "lesson_id", "state", "progress", "message", "output_dir", "created_at", "finished_at"])
    .where("lesson_id", "=", lessonId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { hls, mp4, poster } = uploadedVideoSources(row.output_dir);
  return {
    id: row.id,
    lessonId: row.lesson_id,
    state: row.state,
    progress: row.progress,
    message: row.message,
    createdAt: iso(row.created_at)!,
    finishedAt: iso(row.finished_at),
    sources: row.state === "done" ? { hls, mp4, poster } : null,
  };
}
