/** The shop's endpoints as the OpenAPI description lists them (api/openapi.ts). */
import {
  bookDetailSchema,
  bookListSchema,
  bookOverviewSchema,
  commodityDetailSchema,
  commodityListSchema,
} from "../../../shared/contracts/shop";
import type { ApiOperation } from "../../openapi";

const idParam = (description: string) => ({ id: { type: "integer", description } }) as const;

export const shopOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/shop/books",
    summary: "书籍列表（?tab= 分类，sort=newest|popular|price_asc|price_desc，page，pageSize ≤ 48），附各分类数量",
    tag: "shop",
    auth: false,
    response: bookListSchema,
  },
  {
    method: "get",
    path: "/shop/books/overview",
    summary: "书籍首页：新书与每个分类的热门书",
    tag: "shop",
    auth: false,
    response: bookOverviewSchema,
  },
  {
    method: "get",
    path: "/shop/books/{id}",
    summary: "书籍详情（作者、出版社、ISBN、页数、出版日期、价格、库存、同类书籍）",
    tag: "shop",
    auth: false,
    params: idParam("书籍编号"),
    response: bookDetailSchema,
  },
  {
    method: "get",
    path: "/shop/commodities",
    summary:
      "文房商品列表（?category=，sort=sales|newest|price_asc|price_desc，inStock=1，page，pageSize），附各分类数量",
    tag: "shop",
    auth: false,
    response: commodityListSchema,
  },
  {
    method: "get",
    path: "/shop/commodities/{id}",
    summary: "商品详情（图片、介绍、规格与各规格的价格和库存、同类商品）",
    tag: "shop",
    auth: false,
    params: idParam("商品编号"),
    response: commodityDetailSchema,
  },
];
