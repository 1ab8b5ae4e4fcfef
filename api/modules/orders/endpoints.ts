/**
 * Orders (/api/orders): personal, signed in, private and no-store. Calls that create or move an
 * order carry an Idempotency-Key (a retried request gets the stored answer).
 */
import { z } from "zod";
import {
  addressInputSchema,
  addressListSchema,
  addressSchema,
  applyCouponSchema,
  createOrderResultSchema,
  createOrderSchema,
  orderCoinsSchema,
  orderDetailSchema,
  orderListQuerySchema,
  orderListSchema,
  refundInputSchema,
} from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { orderNoParam } from "./order-no";
import { refuseWhileFrozen } from "../../account-freeze";
import { idempotentResponder } from "../../idempotency";
import { addAddress, deleteAddress, listAddresses } from "./addresses";
import { withdrawReturn } from "./returns";
import { createOrder, limitOrderCreation } from "./create";
import { applyCoupon, applyOrderCoins } from "./discounts";
import { cancelOrder, confirmReceipt } from "./moves";
import { listOrders, orderDetail } from "./read";
import { refundOrder } from "./refunds";

export function orderEndpoints(ctx: ApiContext): Endpoint[] {
  /** Money-moving calls run once per Idempotency-Key (api/idempotency.ts). */
  const idempotent = idempotentResponder(ctx.database);

  /** A learner's change to one of their orders: once per Idempotency-Key, answered with the order. */
  const orderChange = <S extends z.ZodType | undefined>(
    action: string,
    summary: string,
    input: S,
    change: (userId: number, orderNo: string, body: S extends z.ZodType ? z.output<S> : undefined) => Promise<unknown>,
  ) =>
    defineEndpoint({
      method: "post",
      path: `/orders/{orderNo}/${action}`,
      summary,
      tag: "orders",
      auth: true,
      params: orderNoParam,
      ...(input ? { input } : {}),
      output: orderDetailSchema,
      handler: async (req, res, { auth: { user }, input: body, params }) => {
        const orderNo = params.orderNo;
        await idempotent(req, res, user.id, `POST /orders/${orderNo}/${action}`, body ?? {}, () =>
          change(user.id, orderNo, body),
        );
      },
    });

  return [
    defineEndpoint({
      method: "get",
      path: "/orders/addresses",
      summary: "我的收货地址",
      tag: "orders",
      auth: true,
      output: addressListSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json({ items: await listAddresses(ctx, user.id) });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/orders/addresses",
      summary: "新增收货地址",
      tag: "orders",
      auth: true,
      input: addressInputSchema,
      output: z.object({ address: addressSchema }),
      handler: async (_req, res, { auth: { user }, input }) => {
        res.status(201).json({ address: await addAddress(ctx, user.id, input) });
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/orders/addresses/{id}",
      summary: "删除收货地址",
      tag: "orders",
      auth: true,
      params: { id: idParam("地址编号", "地址不存在") },
      output: z.object({ ok: z.boolean() }),
      handler: async (req, res, { auth: { user }, params }) => {
        await deleteAddress(ctx, user.id, params.id);
        res.json({ ok: true });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/orders",
      summary: "下单（课程、书籍、文房规格；需 Idempotency-Key；同一商品的待支付订单会被复用；库存在下单时预留）",
      tag: "orders",
      auth: true,
      input: createOrderSchema,
      output: createOrderResultSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        refuseWhileFrozen(user, "购买或支付");
        await limitOrderCreation(ctx, user.id);
        await idempotent(req, res, user.id, "POST /orders", input, () => createOrder(ctx, user.id, input), 201);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/orders",
      summary: "我的订单（?state=all|pending|paid|completed|cancelled|refund，page），附各分类数量",
      tag: "orders",
      auth: true,
      query: orderListQuerySchema,
      output: orderListSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await listOrders(ctx, user.id, query.state, query.page));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/orders/{orderNo}",
      summary: "订单详情：价格、优惠券、金币、实付、地址的快照，时间线，退款规则，服务器时间（倒计时）",
      tag: "orders",
      auth: true,
      params: orderNoParam,
      output: orderDetailSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await orderDetail(ctx, user.id, params.orderNo));
      },
    }),
    orderChange("cancel", "取消待支付订单（需 Idempotency-Key；库存与优惠券退回）", undefined, (userId, orderNo) =>
      cancelOrder(ctx, userId, orderNo),
    ),
    orderChange(
      "refund",
      "申请退款（需 Idempotency-Key；课程 7 天内且未学习全额退款；实物未发货直接退款，已发货或收货 7 天内退货需审核，收货后可按件部分退货）",
      refundInputSchema,
      (userId, orderNo, body) => refundOrder(ctx, userId, orderNo, body.reason, body.quantity),
    ),
    orderChange(
      "refund/withdraw",
      "撤销待审核的退货申请，订单回到申请前的状态（需 Idempotency-Key）",
      undefined,
      (userId, orderNo) => withdrawReturn(ctx, userId, orderNo),
    ),
    orderChange(
      "coupon",
      "更换或取消待支付订单的优惠券（需 Idempotency-Key；couponId 为 null 表示不使用）",
      applyCouponSchema,
      (userId, orderNo, body) => applyCoupon(ctx, userId, orderNo, body.couponId),
    ),
    orderChange(
      "coins",
      "待支付订单使用或取消金币抵扣（100 金币抵 1 元，最多抵订单金额的 30%；需 Idempotency-Key）",
      orderCoinsSchema,
      (userId, orderNo, body) => applyOrderCoins(ctx, userId, orderNo, body.use),
    ),
    orderChange("confirm", "确认收货（需 Idempotency-Key）", undefined, (userId, orderNo) =>
      confirmReceipt(ctx, userId, orderNo),
    ),
  ];
}
