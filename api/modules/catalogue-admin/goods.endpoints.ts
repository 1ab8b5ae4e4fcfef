/** The operator's shop goods (/api/admin/books…, /api/admin/commodities…, /api/admin/skus…): books and stationery. */
import {
  adminBookDetailSchema,
  adminBookPageSchema,
  adminCommodityPageSchema,
  adminCommoditySchema,
  bookCreateSchema,
  bookPatchSchema,
  catalogueListQuerySchema,
  commodityCreateSchema,
  commodityPatchSchema,
  skuCreateSchema,
  skuPatchSchema,
  stockChangeInputSchema,
  stockResultSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { operatorOnly } from "./common";
import { addSku, createCommodity, loadCommodity, skuCommodity, updateCommodity, updateSku } from "./commodities";
import { changeStock, createBook, loadBook, setGoodsCover, updateBook } from "./goods";
import { coverEndpoint, itemEndpoints } from "./item-endpoints";
import { bookPage, commodityPage } from "./lists";

const bookId = { id: idParam("图书编号") };
const commodityId = { id: idParam("商品编号") };
const skuId = { id: idParam("规格编号") };

export function adminBookEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const book = (id: number) => loadBook(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/books",
      summary: "图书列表：按书名、作者、ISBN 搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminBookPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await bookPage(db(), query));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/books",
      summary: "新建图书：上架状态可选，初始库存记为一次“初始库存”变动",
      input: bookCreateSchema,
      output: adminBookDetailSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        const id = await createBook(db(), user.id, input, ctx.now());
        res.status(201).json(await book(id));
      },
    }),
    ...itemEndpoints({
      path: "/admin/books",
      idDescription: "图书编号",
      detailSummary: "图书详情与库存变动记录",
      patchSummary: "修改图书（含上架、下架）",
      patchInput: bookPatchSchema,
      output: adminBookDetailSchema,
      load: book,
      update: (actorId, id, input) => updateBook(db(), actorId, id, input, ctx.now()),
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/books/{id}/stock",
      summary: "调整图书库存（正数入库、负数出库，须写原因，记入库存变动记录）",
      params: bookId,
      input: stockChangeInputSchema,
      output: stockResultSchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        res.json(await changeStock(db(), user.id, "book", id, input.delta, input.reason, ctx.now()));
      },
    }),
    coverEndpoint(ctx, {
      path: "/admin/books",
      idDescription: "图书编号",
      summary: "上传图书封面（与头像同样检查；保存为 600×800 WebP）",
      size: "book",
      load: book,
      save: (actorId, id, url) => setGoodsCover(db(), actorId, "books", id, url),
    }),
  ];
}

export function adminCommodityEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const commodity = (id: number) => loadCommodity(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/commodities",
      summary: "文房商品列表：按名称搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminCommodityPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await commodityPage(db(), query));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/commodities",
      summary: "新建文房商品：可带规格（售价、划线价、初始库存），上架须至少一个规格",
      input: commodityCreateSchema,
      output: adminCommoditySchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        const id = await createCommodity(db(), user.id, input, ctx.now());
        res.status(201).json(await commodity(id));
      },
    }),
    ...itemEndpoints({
      path: "/admin/commodities",
      idDescription: "商品编号",
      detailSummary: "文房商品详情：规格、库存与库存变动记录",
      patchSummary: "修改文房商品（含上架、下架）",
      patchInput: commodityPatchSchema,
      output: adminCommoditySchema,
      load: commodity,
      update: (actorId, id, input) => updateCommodity(db(), actorId, id, input, ctx.now()),
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/commodities/{id}/skus",
      summary: "新增规格（库存 0，用库存调整入库）",
      params: commodityId,
      input: skuCreateSchema,
      output: adminCommoditySchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        await addSku(db(), user.id, id, input, ctx.now());
        res.status(201).json(await commodity(id));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "patch",
      path: "/admin/skus/{id}",
      summary: "修改规格（名称、售价、划线价）",
      params: skuId,
      input: skuPatchSchema,
      output: adminCommoditySchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        res.json(await commodity(await updateSku(db(), user.id, id, input, ctx.now())));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "post",
      path: "/admin/skus/{id}/stock",
      summary: "调整规格库存（须写原因，记入库存变动记录）",
      params: skuId,
      input: stockChangeInputSchema,
      output: stockResultSchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        await skuCommodity(db(), id);
        res.json(await changeStock(db(), user.id, "sku", id, input.delta, input.reason, ctx.now()));
      },
    }),
    coverEndpoint(ctx, {
      path: "/admin/commodities",
      idDescription: "商品编号",
      summary: "上传文房商品封面（与头像同样检查；保存为 800×800 WebP）",
      size: "commodity",
      load: commodity,
      save: (actorId, id, url) => setGoodsCover(db(), actorId, "commodities", id, url),
    }),
  ];
}
