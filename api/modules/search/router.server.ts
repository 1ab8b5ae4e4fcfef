/** One search over courses, books and stationery. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createSearchRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
