/** One search over courses, books and stationery: GET /api/search?q=&kind=&page=. */
import express, { type Router } from "express";
import { searchQuerySchema } from "../../../shared/contracts/search";
import type { ApiContext } from "../../context";
import { handler, parseInput } from "../../http";
import { search } from "./search";

export function createSearchRouter(ctx: ApiContext): Router {
  const router = express.Router();
  router.get(
    "/",
    handler(async (req, res) => {
      const query = parseInput(searchQuerySchema, req.query);
      const result = await search(ctx.database, query);
      // Catalogue data only, the same for everyone.
      res.setHeader("Cache-Control", "public, max-age=60");
      res.json(result);
    }),
  );
  return router;
}
