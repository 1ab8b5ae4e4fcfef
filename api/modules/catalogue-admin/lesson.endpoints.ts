/** The operator's course contents (/api/admin/…): chapters, lessons, lesson videos and homework tasks. */
import { rm } from "node:fs/promises";
import type { RequestHandler } from "express";
import {
  adminCourseSchema,
  chapterInputSchema,
  encoderStatusSchema,
  lessonInputSchema,
  lessonPatchSchema,
  type LessonVideoJob,
  lessonVideoJobSchema,
  NO_ENCODER_MESSAGE,
  taskFieldsSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { ApiError } from "../../http";
import { type Db, operatorOnly } from "./common";
import {
  addChapter,
  addLesson,
  deleteChapter,
  deleteLesson,
  deleteTask,
  lessonCourse,
  putTask,
  renameChapter,
  updateLesson,
} from "./course-contents";
import { loadCourse } from "./courses";
import { encoderStatus, findEncoder, videoSettingsOf } from "./encoder";
import { probeVideo, VIDEO_LIMITS, videoTooLongMessage } from "./ffmpeg";
import { kickVideoWorker } from "./video";
import {
  enqueueVideo,
  hasOpenJob,
  latestVideoJob,
  LESSON_VIDEO_TYPES,
  NOT_A_VIDEO_MESSAGE,
  receiveVideo,
  videoBusy,
} from "./video-upload";

const courseIdParam = { id: idParam("课程编号") };
const chapterIdParam = { id: idParam("章节编号") };
const lessonIdParam = { id: idParam("课时编号") };

const closeAfterAnswer: RequestHandler = (_req, res, next) => {
  res.setHeader("Connection", "close");
  next();
};

/** DELETE of a part of a course (a chapter, a lesson, a task): answered with the course as it now is. */
function removal(
  ctx: ApiContext,
  path: string,
  summary: string,
  params: typeof lessonIdParam,
  remove: (db: Db, actorId: number, id: number, now: Date) => Promise<number>,
): Endpoint {
  return defineEndpoint({
    ...operatorOnly,
    method: "delete",
    path,
    summary,
    params,
    output: adminCourseSchema,
    handler: async (_req, res, { auth: { user }, params: { id } }) => {
      const courseId = await remove(ctx.database.db, user.id, id, ctx.now());
      res.json(await loadCourse(ctx.database.db, courseId));
    },
  });
}

export function adminLessonEndpoints(ctx: ApiContext): Endpoint[] {
  return [...chapterEndpoints(ctx), ...lessonEndpoints(ctx), ...videoEndpoints(ctx), ...taskEndpoints(ctx)];
}

/** Chapters: add to a course, rename, delete. */
function chapterEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const courseJson = (id: number) => loadCourse(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/courses/{id}/chapters",
      summary: "新增章节（排在最后）",
      params: courseIdParam,
      input: chapterInputSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        await addChapter(db(), user.id, id, input.title, ctx.now());
        res.status(201).json(await courseJson(id));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "patch",
      path: "/admin/chapters/{id}",
      summary: "修改章节名称",
      params: chapterIdParam,
      input: chapterInputSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params }) => {
        const courseId = await renameChapter(db(), user.id, params.id, input.title, ctx.now());
        res.json(await courseJson(courseId));
      },
    }),
    removal(ctx, "/admin/chapters/{id}", "删除空章节", chapterIdParam, deleteChapter),
  ];
}

/** Lessons: add to a chapter, change, delete. */
function lessonEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const courseJson = (id: number) => loadCourse(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/chapters/{id}/lessons",
      summary: "新增课时（示例视频或本站视频地址、时长、试看）",
      params: chapterIdParam,
      input: lessonInputSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params }) => {
        const { courseId } = await addLesson(db(), user.id, params.id, input, ctx.now());
        res.status(201).json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "patch",
      path: "/admin/lessons/{id}",
      summary: "修改课时（名称、讲义、视频、时长、试看）",
      params: lessonIdParam,
      input: lessonPatchSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params }) => {
        const courseId = await updateLesson(db(), user.id, params.id, input, ctx.now());
        res.json(await courseJson(courseId));
      },
    }),
    removal(ctx, "/admin/lessons/{id}", "删除课时（没有学员学习记录或作业时）", lessonIdParam, deleteLesson),
  ];
}

/** Lesson videos: whether files can be uploaded, an upload, its transcoding state. */
function videoEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/media/encoder",
      summary: "能否上传视频文件（服务器是否装有转码器）",
      output: encoderStatusSchema,
      handler: (_req, res) => {
        res.json(encoderStatus(ctx.settings.video));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/lessons/{id}/video",
      summary: `上传课时视频文件（原始字节，≤ VIDEO_UPLOAD_MAX_MB，最长 ${VIDEO_LIMITS.maxSeconds / 3600} 小时）：按文件内容判断容器（MP4/MOV、WebM/MKV、AVI、MPEG/TS，其他 415），检查后在后台转为 HLS，答复转码任务（202）；没有转码器时拒绝（503 no_encoder），没有视频画面或太长时 422`,
      params: lessonIdParam,
      raw: { binary: LESSON_VIDEO_TYPES, maxBytes: 2 * 1024 ** 3 },
      output: lessonVideoJobSchema,
      // Every answer closes the connection: a refusal (no session, wrong role, no encoder…) comes
      // before the file is read, and the unread rest must not be taken for the next request.
      before: [closeAfterAnswer],
      handler: async (req, res, { auth: { user }, params: { id: lessonId } }) => {
        await lessonCourse(db(), lessonId);
        const settings = videoSettingsOf(ctx.settings.video);
        const encoder = findEncoder(settings);
        if (!encoder) throw new ApiError(503, "no_encoder", NO_ENCODER_MESSAGE);
        if (await hasOpenJob(db(), lessonId)) throw videoBusy();
        const { file, bytes, demuxer } = await receiveVideo(req, ctx.settings.dataDir, settings.uploadMaxBytes);
        const probe = await probeVideo(encoder.ffprobe, file, demuxer);
        if (!probe || probe.durationSeconds > VIDEO_LIMITS.maxSeconds) {
          await rm(file, { force: true });
          if (probe) throw new ApiError(422, "video_too_long", videoTooLongMessage(VIDEO_LIMITS));
          throw new ApiError(422, "not_a_video", NOT_A_VIDEO_MESSAGE);
        }
        try {
          await enqueueVideo(db(), {
            lessonId,
            actorId: user.id,
            sourcePath: file,
            bytes,
            durationSeconds: probe.durationSeconds,
          });
        } catch (err) {
          await rm(file, { force: true });
          throw err;
        }
        kickVideoWorker(ctx);
        res.status(202).json({
          job: await latestVideoJob(db(), lessonId),
        } satisfies LessonVideoJob);
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/lessons/{id}/video",
      summary: "课时最近一次视频上传的转码状态（排队、转码中及进度、已转码及播放地址、失败及原因）",
      params: lessonIdParam,
      output: lessonVideoJobSchema,
      handler: async (_req, res, { params: { id: lessonId } }) => {
        await lessonCourse(db(), lessonId);
        res.setHeader("Cache-Control", "no-store");
        res.json({
          job: await latestVideoJob(db(), lessonId),
        } satisfies LessonVideoJob);
      },
    }),
  ];
}

/** A lesson’s homework task: set, delete. */
function taskEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const courseJson = (id: number) => loadCourse(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "put",
      path: "/admin/lessons/{id}/task",
      summary: "设置课时作业（新建或修改）",
      params: lessonIdParam,
      input: taskFieldsSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params }) => {
        const { courseId } = await putTask(db(), user.id, params.id, input);
        res.json(await courseJson(courseId));
      },
    }),
    removal(ctx, "/admin/lessons/{id}/task", "删除课时作业（还没有学员交作业时）", lessonIdParam, deleteTask),
  ];
}
