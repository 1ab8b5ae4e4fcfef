/** Activities (/activitys/{token}) and trial-class sign-ups (/experience). */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createActivitiesRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
