/**
 * Books and stationery: lists, details, SKUs and stock. Everything here is public catalogue
 * data, cached for a minute by browsers and shared caches.
 */
import express, { type Router } from "express";
import { bookListQuerySchema, commodityListQuerySchema } from "../../../shared/contracts/shop";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context";
import { handler, notFound, parseInput, publicJson } from "../../http";
import { bookDetail, bookOverview, listBooks } from "./books";
import { commodityDetail, listCommodities } from "./commodities";

/** A database id from the path, or null when it cannot be one (then the item does not exist). */
export function idParam(value: unknown): number | null {
  return typeof value === "string" && paramRules.id.safeParse(value).success ? Number(value) : null;
}

export function createShopRouter(ctx: ApiContext): Router {
  const router = express.Router();
  const origin = ctx.settings.publicOrigin;

  /** One listed item by the id in the path; `missing` when the id cannot be one or nothing is listed under it. */
  const publicItem = (path: string, find: (id: number) => Promise<object | null>, missing: string) =>
    router.get(
      path,
      handler(async (req, res) => {
        const id = idParam(req.params.id);
        const item = id === null ? null : await find(id);
        if (!item) throw notFound(missing);
        publicJson(res, item);
      }),
    );

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

  publicItem("/books/:id", (id) => bookDetail(ctx.database, id, origin), "这本书不存在或已下架");

  router.get(
    "/commodities",
    handler(async (req, res) => {
      publicJson(res, await listCommodities(ctx.database, parseInput(commodityListQuerySchema, req.query)));
    }),
  );

  publicItem("/commodities/:id", (id) => commodityDetail(ctx.database, id, origin), "这件商品不存在或已下架");

  return router;
}
