/** email and code login, registration, retrieve account, device binding, complete info. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createAccountFlowsRouter(ctx: ApiContext): Router {
  const router = express.Router();
  void ctx;
  return router;
}
