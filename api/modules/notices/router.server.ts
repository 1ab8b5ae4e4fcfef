/** notices. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createNoticesRouter(ctx: ApiContext): Router {
  const router = express.Router();
  void ctx;
  return router;
}
