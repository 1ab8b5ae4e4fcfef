/** Lessons and the player: access, sources, progress, playback speed, public items, replays. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createLearningRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
