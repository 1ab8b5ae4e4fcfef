/** One search over courses, books, stationery, live sessions, public lessons, playback and activities: GET /api/search?q=&kind=&page=. */
import { searchQuerySchema, searchResultSchema } from "../../../shared/contracts/search";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { search } from "./search";

export function searchEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/search",
      summary:
        "搜索课程、书籍、文房、直播、公开课、回放和活动（?q= 1–40 字，kind=all|course|book|commodity|live|lesson|playback|activity，page），附各类数量",
      tag: "search",
      auth: false,
      query: searchQuerySchema,
      output: searchResultSchema,
      handler: async (_req, res, { query }) => {
        const result = await search(ctx.database, query);
        // Catalogue data only, the same for everyone.
        res.setHeader("Cache-Control", "public, max-age=60");
        res.json(result);
      },
    }),
  ];
}
