/**
 * Orders (/api/orders): personal, signed in, private and no-store. Calls that create or move an
 * order carry an Idempotency-Key (a retried request gets the stored answer).
 */
import express, { type Request, type Router } from "express";
import {
  addressInputSchema,
  applyCouponSchema,
  createOrderSchema,
  orderCoinsSchema,
  orderListQuerySchema,
  refundInputSchema,
  rejectRefundSchema,
  reviewRefundSchema,
  shipInputSchema,
} from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { ApiError, forbidden, handler, notFound, parseInput } from "../../http";
import { idempotentResponder } from "../../idempotency";
import { enforce } from "../../rate-limit";
import { requireAuth } from "../auth/guard";
import { addAddress, deleteAddress, listAddresses } from "./addresses";
import { approveReturn, pendingReturns, rejectReturn, withdrawReturn } from "./returns";
import { createOrder } from "./create";
import { applyCoupon, applyOrderCoins } from "./discounts";
import { cancelOrder, confirmReceipt, shipOrder } from "./moves";
import { listOrders, orderDetail } from "./read";
import { refundOrder } from "./refunds";

const ORDER_NO = /^M\d{20}$/;

function orderNoOf(req: Request): string {
  const value = String(req.params.orderNo ?? "");
  if (!ORDER_NO.test(value)) throw notFound("订单不存在");
  return value;
}

export function createOrdersRouter(ctx: ApiContext): Router {
  const router = express.Router();

  /** Money-moving calls run once per Idempotency-Key (api/idempotency.ts). */
  const idempotent = idempotentResponder(ctx.database);

  router.get(
    "/addresses",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json({ items: await listAddresses(ctx, user.id) });
    }),
  );

  router.post(
    "/addresses",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(addressInputSchema, req.body);
      res.status(201).json({ address: await addAddress(ctx, user.id, input) });
    }),
  );

  router.delete(
    "/addresses/:id",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const id = String(req.params.id ?? "");
      if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw notFound("地址不存在");
      await deleteAddress(ctx, user.id, Number(id));
      res.json({ ok: true });
    }),
  );

  router.post(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(createOrderSchema, req.body);
      await enforce(
        ctx.database,
        [{ key: `orders:create:${user.id}`, max: 30, windowSeconds: 600, message: "下单太频繁，请稍后再试" }],
        ctx.now(),
      );
      await idempotent(req, res, user.id, "POST /orders", input, () => createOrder(ctx, user.id, input), 201);
    }),
  );

  router.get(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const query = parseInput(orderListQuerySchema, req.query);
      res.json(await listOrders(ctx, user.id, query.state, query.page));
    }),
  );

  /** Operators: returns of received goods waiting for review. */
  router.get(
    "/returns",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      if (user.role !== "operator") throw forbidden("只有运营人员可以审核退货");
      res.json(await pendingReturns(ctx));
    }),
  );

  router.get(
    "/:orderNo",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await orderDetail(ctx, user.id, orderNoOf(req)));
    }),
  );

  router.post(
    "/:orderNo/cancel",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/cancel`, {}, () =>
        cancelOrder(ctx, user.id, orderNo),
      );
    }),
  );

  router.post(
    "/:orderNo/refund",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      const input = parseInput(refundInputSchema, req.body);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/refund`, input, () =>
        refundOrder(ctx, user.id, orderNo, input.reason, input.quantity),
      );
    }),
  );

  router.post(
    "/:orderNo/refund/withdraw",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/refund/withdraw`, {}, () =>
        withdrawReturn(ctx, user.id, orderNo),
      );
    }),
  );

  router.post(
    "/:orderNo/refund/approve",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      if (user.role !== "operator") throw forbidden("只有运营人员可以审核退货");
      const orderNo = orderNoOf(req);
      const input = parseInput(reviewRefundSchema, req.body ?? {});
      res.json(await approveReturn(ctx, user.id, orderNo, input.note));
    }),
  );

  router.post(
    "/:orderNo/refund/reject",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      if (user.role !== "operator") throw forbidden("只有运营人员可以审核退货");
      const orderNo = orderNoOf(req);
      const input = parseInput(rejectRefundSchema, req.body);
      res.json(await rejectReturn(ctx, user.id, orderNo, input.note));
    }),
  );

  router.post(
    "/:orderNo/coupon",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      const input = parseInput(applyCouponSchema, req.body);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/coupon`, input, () =>
        applyCoupon(ctx, user.id, orderNo, input.couponId),
      );
    }),
  );

  router.post(
    "/:orderNo/coins",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      const input = parseInput(orderCoinsSchema, req.body);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/coins`, input, () =>
        applyOrderCoins(ctx, user.id, orderNo, input.use),
      );
    }),
  );

  router.post(
    "/:orderNo/confirm",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const orderNo = orderNoOf(req);
      await idempotent(req, res, user.id, `POST /orders/${orderNo}/confirm`, {}, () =>
        confirmReceipt(ctx, user.id, orderNo),
      );
    }),
  );

  router.post(
    "/:orderNo/ship",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      if (user.role !== "operator") throw forbidden("只有运营人员可以发货");
      const orderNo = orderNoOf(req);
      const input = parseInput(shipInputSchema, req.body);
      res.json(await shipOrder(ctx, orderNo, input));
    }),
  );

  router.use((_req, _res, next) => next(new ApiError(404, "not_found", "接口不存在")));
  return router;
}
