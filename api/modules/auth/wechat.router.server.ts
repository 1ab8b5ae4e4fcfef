/** WeChat website login and messenger binding. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createWechatRouter(ctx: ApiContext): Router {
  const router = express.Router();
  void ctx;
  return router;
}
