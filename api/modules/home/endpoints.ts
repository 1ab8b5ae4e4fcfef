/** The home page in one call: banners, featured and new courses, live, books, stationery, teachers. */
import express, { type Router } from "express";
import type { Home } from "../../../shared/contracts/home";
import type { ApiContext } from "../../context";
import { handler, publicJson } from "../../http";
import { homePage } from "./home";

export function createHomeRouter(ctx: ApiContext): Router {
  const router = express.Router();
  router.get(
    "/",
    handler(async (_req, res) => {
      const home: Home = await homePage(ctx);
      publicJson(res, home);
    }),
  );
  return router;
}
