/** The home page in one call: banners, featured and new courses, live, books, stationery, teachers. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createHomeRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
