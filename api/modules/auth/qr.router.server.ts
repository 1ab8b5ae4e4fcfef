/** scan-code (QR) login. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createQrRouter(ctx: ApiContext): Router {
  const router = express.Router();
  void ctx;
  return router;
}
