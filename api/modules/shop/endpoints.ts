/**
 * Books and stationery: lists, details, SKUs and stock. Everything here is public catalogue
 * data, cached for a minute by browsers and shared caches.
 */
import type { z } from "zod";
import {
  bookDetailSchema,
  bookListQuerySchema,
  bookListSchema,
  bookOverviewSchema,
  commodityDetailSchema,
  commodityListQuerySchema,
  commodityListSchema,
} from "../../../shared/contracts/shop";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { notFound, publicJson } from "../../http";
import { bookDetail, bookOverview, listBooks } from "./books";
import { commodityDetail, listCommodities } from "./commodities";

export function shopEndpoints(ctx: ApiContext): Endpoint[] {
  const origin = ctx.settings.publicOrigin;

  /** One listed item by the id in the path; `missing` when the id cannot be one or nothing is listed under it. */
  const publicItem = (item: {
    path: string;
    summary: string;
    description: string;
    output: z.ZodType;
    find: (id: number) => Promise<object | null>;
    missing: string;
  }) =>
    defineEndpoint({
      method: "get",
      path: item.path,
      summary: item.summary,
      tag: "shop",
      auth: false,
      params: { id: idParam(item.description, item.missing) },
      output: item.output,
      handler: async (req, res, { params }) => {
        const found = await item.find(params.id);
        if (!found) throw notFound(item.missing);
        publicJson(res, found);
      },
    });

  return [
    defineEndpoint({
      method: "get",
      path: "/shop/books",
      summary: "书籍列表（?tab= 分类，sort=newest|popular|price_asc|price_desc，page，pageSize ≤ 48），附各分类数量",
      tag: "shop",
      auth: false,
      query: bookListQuerySchema,
      output: bookListSchema,
      handler: async (_req, res, { query }) => {
        publicJson(res, await listBooks(ctx.database, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/shop/books/overview",
      summary: "书籍首页：新书与每个分类的热门书",
      tag: "shop",
      auth: false,
      output: bookOverviewSchema,
      handler: async (_req, res) => {
        publicJson(res, await bookOverview(ctx.database));
      },
    }),
    publicItem({
      path: "/shop/books/{id}",
      summary: "书籍详情（作者、出版社、ISBN、页数、出版日期、价格、库存、同类书籍）",
      description: "书籍编号",
      output: bookDetailSchema,
      find: (id) => bookDetail(ctx.database, id, origin),
      missing: "这本书不存在或已下架",
    }),
    defineEndpoint({
      method: "get",
      path: "/shop/commodities",
      summary:
        "文房商品列表（?category=，sort=sales|newest|price_asc|price_desc，inStock=1，page，pageSize），附各分类数量",
      tag: "shop",
      auth: false,
      query: commodityListQuerySchema,
      output: commodityListSchema,
      handler: async (_req, res, { query }) => {
        publicJson(res, await listCommodities(ctx.database, query));
      },
    }),
    publicItem({
      path: "/shop/commodities/{id}",
      summary: "商品详情（图片、介绍、规格与各规格的价格和库存、同类商品）",
      description: "商品编号",
      output: commodityDetailSchema,
      find: (id) => commodityDetail(ctx.database, id, origin),
      missing: "这件商品不存在或已下架",
    }),
  ];
}
