/** Lessons and the player: access, sources, progress, playback speed, public items, replays. */
import type { Response } from "express";
import {
  lessonViewSchema,
  progressInputSchema,
  progressResultSchema,
  publicItemListSchema,
  publicItemViewSchema,
  replayListQuerySchema,
  replayListSchema,
  replayViewSchema,
  speedInputSchema,
  speedResultSchema,
} from "../../../shared/contracts/learning";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { forbidden, notFound } from "../../http";
import { enforce } from "../../rate-limit";
import { lessonForAccess, lessonView } from "./lessons";
import { recordLessonProgress, recordReplayProgress, rememberSpeed } from "./progress";
import { publicItems, publicItemView } from "./public-items";
import { replayForAccess, replayList, replayView } from "./replays";

/** The same for everyone: shared caches may keep it a minute. */
function publicCache(res: Response) {
  res.setHeader("Cache-Control", "public, max-age=60");
}

/** Anonymous answers are the same for everyone; a signed-in viewer's stay private (the default). */
function cacheForViewer(res: Response, signedIn: boolean) {
  res.vary("Cookie");
  if (!signedIn) publicCache(res);
}

const lessonId = { id: idParam("课时编号", "课时不存在") };
const replayId = { id: idParam("直播编号", "回放不存在") };

// A player reports every 15 s, and on pause, end and leaving: 60 a minute is plenty for several tabs.
const limitReports = (ctx: ApiContext, userId: number) =>
  enforce(
    ctx.database,
    [{ key: `learning:report:${userId}`, max: 60, windowSeconds: 60, message: "学习进度保存得太频繁，请稍后再试" }],
    ctx.now(),
  );

export function learningEndpoints(ctx: ApiContext): Endpoint[] {
  return [...lessonEndpoints(ctx), ...publicItemEndpoints(ctx), ...replayEndpoints(ctx)];
}

/** Lessons: a lesson with what the viewer may watch, progress reports, the playback speed. */
function lessonEndpoints(ctx: ApiContext): Endpoint[] {
  const { db } = ctx.database;

  return [
    defineEndpoint({
      method: "get",
      path: "/learning/lessons/{id}",
      summary: "课时：课程目录、观看权限、视频地址（仅限可观看时）、续播位置与倍速（登录时）",
      tag: "learning",
      auth: false,
      params: lessonId,
      output: lessonViewSchema,
      handler: async (req, res, { auth, params }) => {
        const user = auth?.user ?? null;
        const view = await lessonView(db, params.id, user, ctx.now());
        if (!view) throw notFound("课时不存在");
        cacheForViewer(res, user !== null);
        res.json(view);
      },
    }),
    defineEndpoint({
      method: "put",
      path: "/learning/lessons/{id}/progress",
      summary: "上报课时学习进度（累计观看秒数封顶为视频时长，看完 90% 或播放到结尾记为学完）",
      tag: "learning",
      auth: true,
      params: lessonId,
      input: progressInputSchema,
      output: progressResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const now = ctx.now();
        const lesson = await lessonForAccess(db, params.id, user, now);
        if (!lesson) throw notFound("课时不存在");
        if (!lesson.access.allowed) throw forbidden(lesson.access.message);
        await limitReports(ctx, user.id);
        const result = await recordLessonProgress(
          ctx.database,
          {
            userId: user.id,
            lessonId: lesson.id,
            courseId: lesson.courseId,
            durationSeconds: lesson.durationSeconds,
            enrolled: lesson.enrolled,
          },
          input,
          now,
        );
        res.json(result);
      },
    }),
    defineEndpoint({
      method: "put",
      path: "/learning/speed",
      summary: "记住播放倍速（0.75–2，步长 0.25）",
      tag: "learning",
      auth: true,
      input: speedInputSchema,
      output: speedResultSchema,
      handler: async (_req, res, { auth: { user }, input: { speed } }) => {
        await enforce(
          ctx.database,
          [{ key: `learning:speed:${user.id}`, max: 30, windowSeconds: 60, message: "倍速切换得太频繁，请稍后再试" }],
          ctx.now(),
        );
        await rememberSpeed(ctx.database, user.id, speed);
        res.json({ speed });
      },
    }),
  ];
}

/** Public lessons: the list and one with its video. */
function publicItemEndpoints(ctx: ApiContext): Endpoint[] {
  const { db } = ctx.database;
  return [
    defineEndpoint({
      method: "get",
      path: "/learning/public-items",
      summary: "免费公开课列表",
      tag: "learning",
      auth: false,
      output: publicItemListSchema,
      handler: async (_req, res) => {
        const items = await publicItems(db);
        publicCache(res);
        res.json({ items });
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/learning/public-items/{id}",
      summary: "一节公开课及其视频地址",
      tag: "learning",
      auth: false,
      params: { id: idParam("公开课编号", "公开课不存在") },
      output: publicItemViewSchema,
      handler: async (req, res, { auth, params }) => {
        const user = auth?.user ?? null;
        const view = await publicItemView(db, params.id, user);
        if (!view) throw notFound("公开课不存在");
        cacheForViewer(res, user !== null);
        res.json(view);
      },
    }),
  ];
}

/** Live replays: the list, one replay, progress reports. */
function replayEndpoints(ctx: ApiContext): Endpoint[] {
  const { db } = ctx.database;

  return [
    defineEndpoint({
      method: "get",
      path: "/learning/replays",
      summary: "直播回放列表（最新在前，每页 12 条，?page=）",
      tag: "learning",
      auth: false,
      query: replayListQuerySchema,
      output: replayListSchema,
      handler: async (_req, res, { query: { page } }) => {
        const list = await replayList(db, page, ctx.now());
        publicCache(res);
        res.json(list);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/learning/replays/{id}",
      summary: "一场直播的回放：章节标记、观看权限、视频地址（仅限可观看时）",
      tag: "learning",
      auth: false,
      params: replayId,
      output: replayViewSchema,
      handler: async (req, res, { auth, params }) => {
        const user = auth?.user ?? null;
        const view = await replayView(db, params.id, user, ctx.now());
        if (!view) throw notFound("回放不存在");
        cacheForViewer(res, user !== null);
        res.json(view);
      },
    }),
    defineEndpoint({
      method: "put",
      path: "/learning/replays/{id}/progress",
      summary: "上报回放观看进度",
      tag: "learning",
      auth: true,
      params: replayId,
      input: progressInputSchema,
      output: progressResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const now = ctx.now();
        const replay = await replayForAccess(db, params.id, user, now);
        if (!replay) throw notFound("回放不存在");
        if (!replay.access.allowed) throw forbidden(replay.access.message);
        await limitReports(ctx, user.id);
        const result = await recordReplayProgress(
          ctx.database,
          { userId: user.id, liveId: replay.id, durationSeconds: replay.durationSeconds },
          input,
          now,
        );
        res.json(result);
      },
    }),
  ];
}
