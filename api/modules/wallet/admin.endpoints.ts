/**
 * The operator's exchange mall and shipping list (/api/admin/mall, /api/admin/shipping): items,
 * stock changes with a reason, and the redeemed goods waiting to be shipped. Operators only;
 * every change is written to the audit log in its own transaction.
 */
import {
  mallItemAdminSchema,
  mallItemInputSchema,
  mallItemPageSchema,
  mallItemUpdateSchema,
  mallListQuery,
  redemptionShipSchema,
  shipmentPageSchema,
  shipmentSchema,
  shippingQuery,
  stockChangeSchema,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { listShipments, markDelivered, shipRedemption, shipment } from "./delivery";
import { changeStock, createMallItem, listMallItems, mallItem, updateMallItem } from "./mall-admin";

const itemId = { id: idParam("兑换物品编号", "兑换物品不存在") };
const redemptionId = { id: idParam("兑换记录编号", "兑换记录不存在") };

export function mallAdminEndpoints(ctx: ApiContext): Endpoint[] {
  const common = { tag: "admin", auth: true, role: "operator" } as const;
  return [
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/mall/items",
      summary: "运营：兑换商城物品（含已下架；分页、排序、按名称搜索、按类型和上下架筛选）",
      query: mallListQuery,
      output: mallItemPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listMallItems(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/mall/items/{id}",
      summary: "运营：一件兑换物品",
      params: itemId,
      output: mallItemAdminSchema,
      handler: async (req, res, { params }) => {
        res.json(await mallItem(ctx, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/mall/items",
      summary: "运营：新建兑换物品（关联的课程、书籍、文房或优惠券须存在）",
      input: mallItemInputSchema,
      output: mallItemAdminSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.status(201).json(await createMallItem(ctx, user.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "put",
      path: "/admin/mall/items/{id}",
      summary: "运营：修改兑换物品（名称、价格、限兑、上下架…；库存另行增减）",
      params: itemId,
      input: mallItemUpdateSchema,
      output: mallItemAdminSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await updateMallItem(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/mall/items/{id}/stock",
      summary: "运营：增减库存（delta 为正补货、为负减少，须写原因；不会低于 0）",
      params: itemId,
      input: stockChangeSchema,
      output: mallItemAdminSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await changeStock(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/shipping",
      summary: "运营：兑换实物发货列表（默认待发货，最早在前；可查已发货、已签收；按物品、学员、运单号搜索）",
      query: shippingQuery,
      output: shipmentPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listShipments(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/shipping/{id}",
      summary: "运营：一件兑换实物的收货地址与发货状态",
      params: redemptionId,
      output: shipmentSchema,
      handler: async (req, res, { params }) => {
        res.json(await shipment(ctx, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/shipping/{id}/ship",
      summary: "运营：兑换实物发货（快递公司与运单号；只对待发货的有效，学员收到通知）",
      params: redemptionId,
      input: redemptionShipSchema,
      output: shipmentSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await shipRedemption(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/shipping/{id}/delivered",
      summary: "运营：标记兑换实物已签收（只对已发货的有效）",
      params: redemptionId,
      output: shipmentSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await markDelivered(ctx, user.id, params.id));
      },
    }),
  ];
}
