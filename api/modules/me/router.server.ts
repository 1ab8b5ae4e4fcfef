/** the personal centre: profile, avatar, security, devices, sessions, deletion. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createMeRouter(ctx: ApiContext): Router {
  const router = express.Router();
  void ctx;
  return router;
}
