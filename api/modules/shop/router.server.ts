/**
 * Books and stationery: lists, details, SKUs and stock. Everything here is public catalogue
 * data, cached for a minute by browsers and shared caches.
 */
import express, { type Response, type Router } from "express";
import { bookListQuerySchema, commodityListQuerySchema } from "../../../shared/contracts/shop";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context.server";
import { handler, notFound, parseInput } from "../../http.server";
import { bookDetail, bookOverview, listBooks } from "./books.server";
import { commodityDetail, listCommodities } from "./commodities.server";

export const CATALOGUE_CACHE = "public, max-age=60";

function publicJson(res: Response, body: unknown) {
  res.setHeader("Cache-Control", CATALOGUE_CACHE);
  res.json(body);
}

/** A database id from the path, or null when it cannot be one (then the item does not exist). */
export function idParam(value: unknown): number | null {
  return typeof value === "string" && paramRules.id.safeParse(value).success ? Number(value) : null;
}

export function createShopRouter(ctx: ApiContext): Router {
  const router = express.Router();
  const origin = ctx.settings.publicOrigin;

  router.get(
    "/books",
    handler(async (req, res) => {
      publicJson(res, await listBooks(ctx.database, parseInput(bookListQuerySchema, req.query)));
    }),
  );

  router.get(
    "/books/overview",
    handler(async (_req, res) => {
      publicJson(res, await bookOverview(ctx.database));
    }),
  );

  router.get(
    "/books/:id",
    handler(async (req, res) => {
      const id = idParam(req.params.id);
      const book = id === null ? null : await bookDetail(ctx.database, id, origin);
      if (!book) throw notFound("这本书不存在或已下架");
      publicJson(res, book);
    }),
  );

  router.get(
    "/commodities",
    handler(async (req, res) => {
      publicJson(res, await listCommodities(ctx.database, parseInput(commodityListQuerySchema, req.query)));
    }),
  );

  router.get(
    "/commodities/:id",
    handler(async (req, res) => {
      const id = idParam(req.params.id);
      const commodity = id === null ? null : await commodityDetail(ctx.database, id, origin);
      if (!commodity) throw notFound("这件商品不存在或已下架");
      publicJson(res, commodity);
    }),
  );

  return router;
}
