/**
 * Lesson videos uploaded by operators (docs/decisions/043-video-transcoding.md, 070): the file is
 * streamed to disk under DATA_DIR (never held whole in memory), judged a video container by its
 * first bytes, checked with ffprobe, and queued as a `video_jobs` row. A background worker on any
 * node takes a queued row with a guarded update (FOR UPDATE SKIP LOCKED, then a lease it renews
 * while ffmpeg runs), transcodes it in the job's own folder to an MP4 (H.264 + AAC), HLS (6 s
 * segments, VOD playlist) and a JPEG poster within the limits of `ffmpeg.ts`, moves the folder
 * where it is served and points the lesson at the new files. A node shutting down kills its
 * ffmpeg; the job is taken again once its lease has expired.
 */
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { uploadedVideoSources } from "../../../shared/media";
import type { ApiContext } from "../../context";
import type { VideoJobState } from "../../db/schema";
import { defaultNode, type JobDefinition, runJobTick } from "../../jobs/registry";
import { type Encoder, findEncoder, videoSettingsOf } from "./encoder";
import {
  runBudgetMs,
  runFfmpeg,
  transcodeSteps,
  VIDEO_LIMITS,
  type VideoLimits,
  videoTimedOutMessage,
  videoTooLargeMessage,
  videoTooLongMessage,
} from "./ffmpeg";
import { sniffVideoContainer, UNSUPPORTED_VIDEO_MESSAGE, VIDEO_HEAD_BYTES, type VideoDemuxer } from "./video-container";

export const VIDEO_JOB_EVERY_MS = 5000;
/** How long a worker owns a job without renewing it (it renews every VIDEO_HEARTBEAT_MS). */
export const VIDEO_LEASE_SECONDS = 60;
const VIDEO_HEARTBEAT_MS = 1500;
/** Leases that ran out this many times (the node died mid-way each time): the job fails. */
export const VIDEO_MAX_ATTEMPTS = 3;
export const VIDEO_FAILED_MESSAGE = "视频转码失败：文件可能已损坏，或编码格式不受支持。请换一个文件重新上传。";
export const VIDEO_INTERRUPTED_MESSAGE = "视频转码多次中断（服务器重启或故障），请重新上传。";

/** Where transcoded lesson videos are kept (served at /media/lessons/). */
export const lessonVideoRoot = (dataDir: string) => path.join(dataDir, "uploads", "lessons");
/** Each job's working folder (ffmpeg's cwd and output), moved into the lessons folder when done. */
export const videoWorkRoot = (dataDir: string) => path.join(dataDir, "uploads", "transcoding");

export const removeQuietly = (target: string) => rm(target, { recursive: true, force: true }).catch(() => {});

/** The container of a stored upload, judged again by its first bytes when its job runs. */
async function containerOf(file: string): Promise<VideoDemuxer | null> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(VIDEO_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, VIDEO_HEAD_BYTES, 0);
    return sniffVideoContainer(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
// ---- the worker ------------------------------------------------------------------------------------

export interface ClaimedVideoJob {
  id: number;
  lesson_id: number;
  source_path: string;
  output_dir: string;
  duration_seconds: number;
  attempts: number;
}

/**
 * Takes the oldest queued job, or a running one whose lease has expired, for `node`. The row is
 * picked with FOR UPDATE SKIP LOCKED and taken by an update that checks its state again, so two
 * nodes never take the same job. Jobs whose lease ran out VIDEO_MAX_ATTEMPTS times fail first.
 */
export async function claimVideoJob(ctx: ApiContext, node: string): Promise<ClaimedVideoJob | undefined> {
  const { db } = ctx.database;
  const gaveUp = await sql<{ source_path: string }>`
    update video_jobs
       set state = 'failed', message = ${VIDEO_INTERRUPTED_MESSAGE}, lease_owner = null,
           lease_expires_at = null, finished_at = now(), updated_at = now()
     where state = 'running' and lease_expires_at < now() and attempts >= ${VIDEO_MAX_ATTEMPTS}
    returning source_path`.execute(db);
  for (const row of gaveUp.rows) await removeQuietly(row.source_path);

  const taken = await sql<ClaimedVideoJob>`
    update video_jobs
       set state = 'running', attempts = attempts + 1, progress = 0, lease_owner = ${node},
           lease_expires_at = now() + make_interval(secs => ${VIDEO_LEASE_SECONDS}),
           started_at = coalesce(started_at, now()), updated_at = now()
     where id = (
             select id from video_jobs
              where state = 'queued' or (state = 'running' and lease_expires_at < now())
              order by id
              limit 1
                for update skip locked)
       and (state = 'queued' or (state = 'running' and lease_expires_at < now()))
    returning id, lesson_id, source_path, output_dir, duration_seconds, attempts`.execute(db);
  const job = taken.rows[0];
  return job ? { ...job, duration_seconds: Number(job.duration_seconds) } : undefined;
}

/** Records progress and extends the lease; false when this node no longer holds the job. */
async function renewLease(ctx: ApiContext, jobId: number, node: string, progress: number): Promise<boolean> {
  const result = await ctx.database.db
    .updateTable("video_jobs")
    .set({
      progress,
      lease_expires_at: sql<Date>`now() + make_interval(secs => ${VIDEO_LEASE_SECONDS})`,
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", jobId)
    .where("state", "=", "running")
    .where("lease_owner", "=", node)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

type Outcome = "done" | "failed" | "abandoned";

/**
 * Transcodes one claimed job in its own working folder, within `limits`; the folder becomes the
 * lesson's (moved where it is served) and the lesson points at it when everything succeeded.
 * A run past a limit fails the job with the reason, and its files go.
 */
export async function transcodeVideoJob(
  ctx: ApiContext,
  encoder: Encoder,
  job: ClaimedVideoJob,
  node: string,
  shutdown: AbortSignal,
  limits: VideoLimits = VIDEO_LIMITS,
): Promise<Outcome> {
  const { dataDir } = ctx.settings;
  const work = path.join(videoWorkRoot(dataDir), job.output_dir);
  const out = path.join(lessonVideoRoot(dataDir), job.output_dir);
  const lost = new AbortController();
  const signal = AbortSignal.any([shutdown, lost.signal]);
  let progress = 0;
  const heartbeat = setInterval(() => {
    renewLease(ctx, job.id, node, progress)
      .then((held) => {
        if (!held) lost.abort();
      })
      .catch((err: unknown) => ctx.logger.warn({ err, videoJob: job.id }, "video job lease not renewed"));
  }, VIDEO_HEARTBEAT_MS);
  heartbeat.unref();
  const fail = async (message: string, details: object = {}) => {
    ctx.logger.error({ videoJob: job.id, ...details }, "video transcoding failed");
    await failJob(ctx, job, node, message);
    await removeQuietly(work);
    return "failed" as const;
  };
  try {
    // A previous attempt's half-written files go first.
    await removeQuietly(work);
    if (job.duration_seconds > limits.maxSeconds) return await fail(videoTooLongMessage(limits));
    const demuxer = await containerOf(job.source_path).catch(() => null);
    if (!demuxer) return await fail(UNSUPPORTED_VIDEO_MESSAGE);
    await mkdir(work, { recursive: true });
    const budgetMs = runBudgetMs(limits, job.duration_seconds);
    const deadline = Date.now() + budgetMs;
    const steps = transcodeSteps(
      { file: job.source_path, demuxer, durationSeconds: job.duration_seconds },
      work,
      limits,
    );
    for (const [index, step] of steps.entries()) {
      const run = await runFfmpeg(
        encoder.ffmpeg,
        step.args,
        { cwd: work, signal, timeoutMs: deadline - Date.now(), graceMs: limits.killGraceMs },
        (seconds) => {
          const share = Math.min(1, Math.max(0, seconds / job.duration_seconds));
          progress = Math.floor(step.from + share * (step.to - step.from));
        },
      );
      if (run.aborted) {
        // Shutting down or lease lost: left as it is, to be taken again once the lease expires.
        ctx.logger.info({ videoJob: job.id, lost: lost.signal.aborted }, "video transcoding stopped");
        return "abandoned";
      }
      if (run.timedOut) return await fail(videoTimedOutMessage(budgetMs), { stderr: run.stderr });
      if (run.code !== 0) return await fail(VIDEO_FAILED_MESSAGE, { code: run.code, stderr: run.stderr });
      if (index === 0) {
        // ffmpeg ends quietly at -t and -fs: a video that reached either is refused, not cut short.
        if (run.seconds >= limits.maxSeconds) return await fail(videoTooLongMessage(limits));
        if ((await stat(step.output)).size >= limits.maxOutputBytes) return await fail(videoTooLargeMessage(limits));
      }
      progress = step.to;
    }
    clearInterval(heartbeat);
    await removeQuietly(out);
    await mkdir(lessonVideoRoot(dataDir), { recursive: true });
    await rename(work, out);
    return await completeJob(ctx, job, node);
  } catch (err) {
    ctx.logger.error({ err, videoJob: job.id }, "video transcoding failed");
    await failJob(ctx, job, node, VIDEO_FAILED_MESSAGE).catch(() => {});
    await removeQuietly(work);
    return "failed";
  } finally {
    clearInterval(heartbeat);
  }
}

async function failJob(ctx: ApiContext, job: ClaimedVideoJob, node: string, message: string) {
  const result = await ctx.database.db
    .updateTable("video_jobs")
    .set({
      state: "failed" satisfies VideoJobState,
      message,
      lease_owner: null,
      lease_expires_at: null,
      finished_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", job.id)
    .where("lease_owner", "=", node)
    .where("state", "=", "running")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) await removeQuietly(job.source_path);
}

/** Marks the job done and points its lesson at the new files; earlier uploads nobody plays go. */
async function completeJob(ctx: ApiContext, job: ClaimedVideoJob, node: string): Promise<Outcome> {
  const { db } = ctx.database;
  const hls = uploadedVideoSources(job.output_dir).hls;
  const stale = await db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable("video_jobs")
      .set({
        state: "done",
        progress: 100,
        message: null,
        lease_owner: null,
        lease_expires_at: null,
        finished_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      })
      .where("id", "=", job.id)
      .where("lease_owner", "=", node)
      .where("state", "=", "running")
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return null;
    const lesson = await trx
      .updateTable("lessons")
      .set({ video_key: "upload", video_url: hls, duration_seconds: Math.max(1, Math.round(job.duration_seconds)) })
      .where("id", "=", job.lesson_id)
      .returning("course_id")
      .executeTakeFirst();
    if (lesson)
      await trx.updateTable("courses").set({ updated_at: ctx.now() }).where("id", "=", lesson.course_id).execute();
    // Folders of this lesson's earlier uploads that no lesson plays any more.
    const earlier = await trx
      .selectFrom("video_jobs")
      .select("output_dir")
      .where("lesson_id", "=", job.lesson_id)
      .where("id", "<>", job.id)
      .where("state", "in", ["done", "failed"])
      .execute();
    const stale: string[] = [];
    for (const { output_dir } of earlier) {
      const inUse = await trx
        .selectFrom("lessons")
        .select("id")
        .where("video_url", "=", uploadedVideoSources(output_dir).hls)
        .executeTakeFirst();
      if (!inUse) stale.push(output_dir);
    }
    return stale;
  });
  if (stale === null) return "abandoned";
  const root = lessonVideoRoot(ctx.settings.dataDir);
  for (const folder of stale) await removeQuietly(path.join(root, folder));
  await removeQuietly(job.source_path);
  ctx.logger.info({ videoJob: job.id, lesson: job.lesson_id }, "lesson video transcoded");
  return "done";
}

/** Per process: aborted when the process shuts down (ffmpeg is killed, the job left to its lease). */
const shutdowns = new WeakMap<ApiContext, AbortController>();
function shutdownOf(ctx: ApiContext): AbortController {
  let controller = shutdowns.get(ctx);
  if (!controller) shutdowns.set(ctx, (controller = new AbortController()));
  return controller;
}

/** Kills this process's ffmpeg runs and takes no more jobs (the composition root calls it on shutdown). */
export function stopVideoWork(ctx: ApiContext): void {
  shutdownOf(ctx).abort();
}

/** Takes and transcodes jobs until none is waiting (or the process shuts down). */
export async function runVideoWorker(
  ctx: ApiContext,
  options: { node?: string; limits?: VideoLimits } = {},
): Promise<number> {
  const shutdown = shutdownOf(ctx).signal;
  const encoder = findEncoder(videoSettingsOf(ctx.settings.video));
  if (!encoder) return 0;
  const node = options.node ?? defaultNode();
  let handled = 0;
  while (!shutdown.aborted) {
    const job = await claimVideoJob(ctx, node);
    if (!job) break;
    handled += 1;
    await transcodeVideoJob(ctx, encoder, job, node, shutdown, options.limits);
  }
  return handled;
}

export const videoTranscodeJob: JobDefinition = {
  name: "video-transcode",
  everyMs: VIDEO_JOB_EVERY_MS,
  run: (ctx) => runVideoWorker(ctx),
};

/** Starts this node's worker at once after an upload instead of at the next period. */
export function kickVideoWorker(ctx: ApiContext): void {
  void runJobTick(ctx, videoTranscodeJob).catch((err: unknown) =>
    ctx.logger.error({ err }, "video worker could not start"),
  );
}
