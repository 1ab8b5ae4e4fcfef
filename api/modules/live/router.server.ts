/** Live lessons: schedule, booking, the room (chat over SSE, check-in, attendance). */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createLiveRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
