/** The home page in one call: banners, featured and new courses, live, books, stationery, teachers. */
import express, { type Router } from "express";
import type { Home } from "../../../shared/contracts/home";
import type { ApiContext } from "../../context.server";
import { handler } from "../../http.server";
import { PUBLIC_CACHE } from "../courses/router.server";
import { homePage } from "./home.server";

export function createHomeRouter(ctx: ApiContext): Router {
  const router = express.Router();
  router.get(
    "/",
    handler(async (_req, res) => {
      const home: Home = await homePage(ctx);
      res.setHeader("Cache-Control", PUBLIC_CACHE);
      res.json(home);
    }),
  );
  return router;
}
