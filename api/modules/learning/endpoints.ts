/** Lessons and the player: access, sources, progress, playback speed, public items, replays. */
import express, { type Response, type Router } from "express";
import { progressInputSchema, replayListQuerySchema, speedInputSchema } from "../../../shared/contracts/learning";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context";
import { forbidden, handler, notFound, parseInput } from "../../http";
import { enforce } from "../../rate-limit";
import { authOf, requireAuth } from "../auth/guard";
import { lessonForAccess, lessonView } from "./lessons";
import { recordLessonProgress, recordReplayProgress, rememberSpeed } from "./progress";
import { publicItems, publicItemView } from "./public-items";
import { replayForAccess, replayList, replayView } from "./replays";

/** A database id from the path, or null (then the thing does not exist: 404). */
function idOf(value: unknown): number | null {
  return paramRules.id.safeParse(value).success ? Number(value) : null;
}

/** The same for everyone: shared caches may keep it a minute. */
function publicCache(res: Response) {
  res.setHeader("Cache-Control", "public, max-age=60");
}

/** Anonymous answers are the same for everyone; a signed-in viewer's stay private (the default). */
function cacheForViewer(res: Response, signedIn: boolean) {
  res.vary("Cookie");
  if (!signedIn) publicCache(res);
}

export function createLearningRouter(ctx: ApiContext): Router {
  const router = express.Router();
  const { db } = ctx.database;

  // A player reports every 15 s, and on pause, end and leaving: 60 a minute is plenty for several tabs.
  const limitReports = (userId: number) =>
    enforce(
      ctx.database,
      [{ key: `learning:report:${userId}`, max: 60, windowSeconds: 60, message: "学习进度保存得太频繁，请稍后再试" }],
      ctx.now(),
    );

  router.get(
    "/lessons/:id",
    handler(async (req, res) => {
      const id = idOf(req.params.id);
      const user = authOf(res)?.user ?? null;
      const view = id === null ? null : await lessonView(db, id, user, ctx.now());
      if (!view) throw notFound("课时不存在");
      cacheForViewer(res, user !== null);
      res.json(view);
    }),
  );

  router.put(
    "/lessons/:id/progress",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const id = idOf(req.params.id);
      const input = parseInput(progressInputSchema, req.body);
      const now = ctx.now();
      const lesson = id === null ? null : await lessonForAccess(db, id, user, now);
      if (!lesson) throw notFound("课时不存在");
      if (!lesson.access.allowed) throw forbidden(lesson.access.message);
      await limitReports(user.id);
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
    }),
  );

  router.put(
    "/speed",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { speed } = parseInput(speedInputSchema, req.body);
      await enforce(
        ctx.database,
        [{ key: `learning:speed:${user.id}`, max: 30, windowSeconds: 60, message: "倍速切换得太频繁，请稍后再试" }],
        ctx.now(),
      );
      await rememberSpeed(ctx.database, user.id, speed);
      res.json({ speed });
    }),
  );

  router.get(
    "/public-items",
    handler(async (_req, res) => {
      const items = await publicItems(db);
      publicCache(res);
      res.json({ items });
    }),
  );

  router.get(
    "/public-items/:id",
    handler(async (req, res) => {
      const id = idOf(req.params.id);
      const user = authOf(res)?.user ?? null;
      const view = id === null ? null : await publicItemView(db, id, user);
      if (!view) throw notFound("公开课不存在");
      cacheForViewer(res, user !== null);
      res.json(view);
    }),
  );

  router.get(
    "/replays",
    handler(async (req, res) => {
      const { page } = parseInput(replayListQuerySchema, req.query);
      const list = await replayList(db, page, ctx.now());
      publicCache(res);
      res.json(list);
    }),
  );

  router.get(
    "/replays/:id",
    handler(async (req, res) => {
      const id = idOf(req.params.id);
      const user = authOf(res)?.user ?? null;
      const view = id === null ? null : await replayView(db, id, user, ctx.now());
      if (!view) throw notFound("回放不存在");
      cacheForViewer(res, user !== null);
      res.json(view);
    }),
  );

  router.put(
    "/replays/:id/progress",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const id = idOf(req.params.id);
      const input = parseInput(progressInputSchema, req.body);
      const now = ctx.now();
      const replay = id === null ? null : await replayForAccess(db, id, user, now);
      if (!replay) throw notFound("回放不存在");
      if (!replay.access.allowed) throw forbidden(replay.access.message);
      await limitReports(user.id);
      const result = await recordReplayProgress(
        ctx.database,
        { userId: user.id, liveId: replay.id, durationSeconds: replay.durationSeconds },
        input,
        now,
      );
      res.json(result);
    }),
  );

  return router;
}
