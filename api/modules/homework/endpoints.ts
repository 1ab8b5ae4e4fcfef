/**
 * Homework over HTTP (/api/homework for learners and the public wall, /api/teach/homework for
 * teachers and operators). Photos are uploaded as raw image bodies one by one (counted per
 * learner before the bytes are read), handed in with an Idempotency-Key, and served only to
 * those allowed to see them; staff endpoints answer 404 to learners.
 */

import {
  assignInputSchema,
  claimResultSchema,
  draftRemovedSchema,
  draftSchema,
  HOMEWORK_PHOTO_MAX_BYTES,
  HOMEWORK_PHOTO_TYPES,
  lessonHomeworkSchema,
  myHomeworkQuerySchema,
  myHomeworkSchema,
  phrasesSchema,
  queueItemSchema,
  queueQuerySchema,
  queueSchema,
  releaseResultSchema,
  returnInputSchema,
  reviewInputSchema,
  submissionSchema,
  submitSchema,
  uploadedPhotoSchema,
  wallChoiceSchema,
} from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, textParam, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { ApiError } from "../../http";
import { fingerprintOf, idempotentResponder } from "../../idempotency";
import {
  draftPhotos,
  HOMEWORK_NOT_FOUND,
  lessonHomework,
  removeDraftPhoto,
  setWallChoice,
  submitHomework,
  uploadPhoto,
  visibleSubmission,
} from "./homework";
import { myHomework } from "./my-homework";
import { PHOTO_ID, photoUploadReader, unsupportedPhoto } from "./photos";
import { phrasesOf, savePhrases } from "./phrases";
import { assignAttempt, claimAttempt, releaseAttempt, teacherQueue } from "./review";
import { returnAttempt, reviewAttempt } from "./verdicts";
import { keyParam, taskId } from "./params";
import { homeworkWallEndpoints } from "./wall.endpoints";

/** Uploads per learner per hour: a class's worth of retries, not a photo store. */
export const HOMEWORK_UPLOADS_PER_HOUR = 60;

const MAX_MB = HOMEWORK_PHOTO_MAX_BYTES / 1024 / 1024;

export function homeworkEndpoints(ctx: ApiContext): Endpoint[] {
  const idempotent = idempotentResponder(ctx.database);

  const readPhoto = photoUploadReader(ctx, {
    key: (userId) => `homework:upload:user:${userId}`,
    perHour: HOMEWORK_UPLOADS_PER_HOUR,
  });

  return [
    defineEndpoint({
      method: "get",
      path: "/homework/lessons/{lessonId}",
      summary: "课时的作业：题目、要求、范字，当前学员的提交（每次提交与批改）以及能否提交",
      tag: "homework",
      auth: false,
      params: { lessonId: idParam("课时 id", HOMEWORK_NOT_FOUND) },
      output: lessonHomeworkSchema,
      handler: async (req, res, { auth, params }) => {
        res.json(await lessonHomework(ctx, auth?.user ?? null, params.lessonId));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/homework/tasks/{taskId}/photos",
      summary: `上传一张作业照片（原始图片字节，JPEG/PNG/WebP/HEIC，HEIC 在服务器转为 JPEG；不超过 ${MAX_MB} MB；需 Idempotency-Key；按学员限频；去除 EXIF 等元数据）`,
      tag: "homework",
      auth: true,
      params: { taskId },
      raw: { binary: HOMEWORK_PHOTO_TYPES, maxBytes: HOMEWORK_PHOTO_MAX_BYTES },
      output: uploadedPhotoSchema,
      before: readPhoto,
      handler: async (req, res, { auth: { user }, params }) => {
        refuseWhileFrozen(user, "提交作业");
        const taskId = params.taskId;
        if (!Buffer.isBuffer(req.body)) throw unsupportedPhoto();
        const upload: Buffer = req.body;
        if (upload.length === 0) throw new ApiError(400, "invalid_input", "请选择一张照片");
        await idempotent(
          req,
          res,
          user.id,
          "POST /homework/photos",
          { taskId, bytes: fingerprintOf(upload.toString("base64")) },
          () => uploadPhoto(ctx, user.id, taskId, upload),
          201,
        );
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/tasks/{taskId}/draft",
      summary: "本人已上传、尚未提交的作业照片（草稿，保留 24 小时；刷新或断网后仍在），按上传先后",
      tag: "homework",
      auth: true,
      params: { taskId },
      output: draftSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.setHeader("Cache-Control", "private, no-store");
        res.json(await draftPhotos(ctx, user.id, params.taskId));
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/homework/tasks/{taskId}/draft/{photoId}",
      summary: "从草稿中移除一张尚未提交的照片（照片随之删除；别人的照片 404）",
      tag: "homework",
      auth: true,
      params: { photoId: textParam(PHOTO_ID, "照片 id", "照片不存在或已经提交"), taskId },
      output: draftRemovedSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await removeDraftPhoto(ctx, user.id, params.taskId, params.photoId));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/homework/tasks/{taskId}/submissions",
      summary: "提交作业（已上传的 1–9 张照片与留言；需 Idempotency-Key；首次提交得金币；退回后可重新提交，最多 3 次）",
      tag: "homework",
      auth: true,
      params: { taskId },
      input: submitSchema,
      output: submissionSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        refuseWhileFrozen(user, "提交作业");
        const taskId = params.taskId;
        await idempotent(
          req,
          res,
          user.id,
          "POST /homework/submissions",
          { taskId, ...input },
          () => submitHomework(ctx, user.id, taskId, input),
          201,
        );
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/mine",
      summary: "我的作业：按状态、课程筛选，最近更新在前（游标分页），各状态数量",
      tag: "homework",
      auth: true,
      query: myHomeworkQuerySchema,
      output: myHomeworkSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await myHomework(ctx, user.id, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/submissions/{id}",
      summary: "一份作业的全部提交与批改（本人、该课程的老师和运营可见，其他人 404）",
      tag: "homework",
      auth: true,
      params: { id: keyParam("作业提交 id") },
      output: submissionSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await visibleSubmission(ctx, user, params.id));
      },
    }),
    defineEndpoint({
      method: "patch",
      path: "/homework/submissions/{id}",
      summary: "是否愿意展示到作业墙（撤下后分享页失效 410）",
      tag: "homework",
      auth: true,
      params: { id: keyParam("作业提交 id") },
      input: wallChoiceSchema,
      output: submissionSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await setWallChoice(ctx, user.id, params.id, input.showOnWall));
      },
    }),
    ...homeworkWallEndpoints(ctx),
  ];
}

export function teachHomeworkEndpoints(ctx: ApiContext): Endpoint[] {
  const attemptParam = { id: keyParam("提交（第几次提交）id") };
  return [
    defineEndpoint({
      method: "get",
      path: "/teach/homework/queue",
      summary: "老师的批改队列：待批改（最早在前）、我领取的、今天我批改的；统计；运营看全部课程",
      tag: "teach",
      auth: true,
      role: "teacher",
      query: queueQuerySchema,
      output: queueSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await teacherQueue(ctx, user, query));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/teach/homework/attempts/{id}/claim",
      summary: "领取一份待批改作业（锁定 30 分钟，同一时间只有一位老师持有）",
      tag: "teach",
      auth: true,
      role: "teacher",
      params: attemptParam,
      output: claimResultSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await claimAttempt(ctx, user, params.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/teach/homework/attempts/{id}/release",
      summary: "放弃领取",
      tag: "teach",
      auth: true,
      role: "teacher",
      params: attemptParam,
      output: releaseResultSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await releaseAttempt(ctx, user, params.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/teach/homework/attempts/{id}/review",
      summary: "批改：评级、评语、批注（须持有领取；获评优秀的作业得金币，通知学员）",
      tag: "teach",
      auth: true,
      role: "teacher",
      params: attemptParam,
      input: reviewInputSchema,
      output: submissionSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await reviewAttempt(ctx, user, params.id, input));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/teach/homework/attempts/{id}/return",
      summary: "退回重写：原因与批注（须持有领取；通知学员，可再提交，最多 3 次）",
      tag: "teach",
      auth: true,
      role: "teacher",
      params: attemptParam,
      input: returnInputSchema,
      output: submissionSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await returnAttempt(ctx, user, params.id, input));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/teach/homework/attempts/{id}/assign",
      summary: "运营：把一份待批改作业分配给该课程的某位老师",
      tag: "teach",
      auth: true,
      role: "teacher",
      params: attemptParam,
      input: assignInputSchema,
      output: queueItemSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await assignAttempt(ctx, user, params.id, input.teacherId));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/teach/homework/phrases",
      summary: "老师常用评语",
      tag: "teach",
      auth: true,
      role: "teacher",
      output: phrasesSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await phrasesOf(ctx, user));
      },
    }),
    defineEndpoint({
      method: "put",
      path: "/teach/homework/phrases",
      summary: "保存老师常用评语（整份替换，最多 50 条）",
      tag: "teach",
      auth: true,
      role: "teacher",
      input: phrasesSchema,
      output: phrasesSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.json(await savePhrases(ctx, user, input));
      },
    }),
  ];
}
