/**
 * The operators' order desk (/api/admin/orders) and dashboard (/api/admin/dashboard): operator
 * role only. Money moves (approving a return, retrying a refused refund, a refund by hand) carry
 * an Idempotency-Key and need a recent step-up (decision 072); every move is written to the audit
 * log in its own transaction.
 */
import {
  adminApproveReturnSchema,
  adminDashboardSchema,
  adminOrderDetailSchema,
  adminOrderPageSchema,
  adminOrderQuerySchema,
  adminRefundInputSchema,
  adminRejectReturnSchema,
  adminRetryRefundSchema,
  adminShipSchema,
} from "../../../shared/contracts/admin-orders";
import { refundReviewListSchema } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { orderNoParam } from "../orders/order-no";
import { idempotentResponder } from "../../idempotency";
import { recordAudit } from "../audit/record";
import { shipOrder } from "../orders/moves";
import { startRefund, retryRefund } from "../orders/refunds";
import { approveReturn, pendingReturns, rejectReturn, type ReviewRecord } from "../orders/returns";
import { adminDashboard } from "./dashboard";
import { adminOrderDetail, adminOrderRow, listAdminOrders } from "./orders-admin";

export function adminOrderEndpoints(ctx: ApiContext): Endpoint[] {
  return [...orderListEndpoints(ctx), ...orderActionEndpoints(ctx)];
}

/** The dashboard, the order list, pending returns and one order. */
function orderListEndpoints(ctx: ApiContext): Endpoint[] {
  const detail = (orderNo: string) => adminOrderDetail(ctx, orderNo);
  return [
    defineEndpoint({
      method: "get",
      path: "/admin/dashboard",
      summary:
        "运营看板：今日订单与收入（北京时间）、待发货、待审核退货、退款中与被拒绝的退款、待批改作业、今日直播、失败的任务",
      tag: "admin",
      auth: true,
      role: "operator",
      output: adminDashboardSchema,
      handler: async (_req, res) => {
        res.json(await adminDashboard(ctx));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/admin/orders",
      summary: "全部订单：按订单号、手机号、邮箱或商品搜索，按状态、类型、日期筛选，服务器端排序分页",
      tag: "admin",
      auth: true,
      role: "operator",
      query: adminOrderQuerySchema,
      output: adminOrderPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listAdminOrders(ctx, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/admin/orders/returns",
      summary: "待审核的退货申请，最早的在前",
      tag: "admin",
      auth: true,
      role: "operator",
      output: refundReviewListSchema,
      handler: async (_req, res) => {
        res.json(await pendingReturns(ctx));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/admin/orders/{orderNo}",
      summary: "订单详情：时间线、学员、支付与退款记录，以及现在可以做的操作",
      tag: "admin",
      auth: true,
      role: "operator",
      params: orderNoParam,
      output: adminOrderDetailSchema,
      handler: async (req, res, { params }) => {
        res.json(await detail(params.orderNo));
      },
    }),
  ];
}

/** What an operator does to an order: ship it, approve or reject a return, refund. */
function orderActionEndpoints(ctx: ApiContext): Endpoint[] {
  return [...shipAndReturnEndpoints(ctx), ...refundEndpoints(ctx)];
}

/** Shipping an order, and approving or rejecting a return. */
function shipAndReturnEndpoints(ctx: ApiContext): Endpoint[] {
  const idempotent = idempotentResponder(ctx.database);
  const detail = (orderNo: string) => adminOrderDetail(ctx, orderNo);

  /** The audit record of a return's review, in the review's transaction. */
  const reviewRecord =
    (
      operatorId: number,
      action: "order.return.approve" | "order.return.reject",
      note: string | undefined,
    ): ReviewRecord =>
    (trx, request) =>
      recordAudit(trx, {
        actorId: operatorId,
        action,
        targetType: "order",
        targetId: request.orderNo,
        before: { refund: request.refundId, state: "requested" },
        after: {
          refund: request.refundId,
          state: action === "order.return.approve" ? "processing" : "rejected",
          amountCents: request.amountCents,
          ...(request.quantity !== null ? { quantity: request.quantity } : {}),
        },
        reason: note ?? null,
      });
  return [
    defineEndpoint({
      method: "post",
      path: "/admin/orders/{orderNo}/ship",
      summary: "发货：填写快递公司与运单号，学员收到通知",
      tag: "admin",
      auth: true,
      role: "operator",
      params: orderNoParam,
      input: adminShipSchema,
      output: adminOrderDetailSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const orderNo = params.orderNo;
        await shipOrder(ctx, orderNo, input, (trx, moved) =>
          recordAudit(trx, {
            actorId: user.id,
            action: "order.ship",
            targetType: "order",
            targetId: orderNo,
            before: { state: "awaiting_shipment" },
            after: { state: moved.state, carrier: input.carrier, trackingNo: input.trackingNo },
          }),
        );
        res.json(await detail(orderNo));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/orders/{orderNo}/return/approve",
      summary: "通过退货申请并原路退款（需 Idempotency-Key）",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: orderNoParam,
      input: adminApproveReturnSchema,
      output: adminOrderDetailSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const orderNo = params.orderNo;
        await idempotent(req, res, user.id, `POST /admin/orders/${orderNo}/return/approve`, input, async () => {
          await approveReturn(
            ctx,
            user.id,
            orderNo,
            input.note,
            reviewRecord(user.id, "order.return.approve", input.note),
          );
          return detail(orderNo);
        });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/orders/{orderNo}/return/reject",
      summary: "不通过退货申请（写明告诉学员的原因），订单回到申请前的状态",
      tag: "admin",
      auth: true,
      role: "operator",
      params: orderNoParam,
      input: adminRejectReturnSchema,
      output: adminOrderDetailSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const orderNo = params.orderNo;
        await rejectReturn(ctx, user.id, orderNo, input.note, reviewRecord(user.id, "order.return.reject", input.note));
        res.json(await detail(orderNo));
      },
    }),
  ];
}

/** Refunds: a new one (partial or whole), or retrying one that failed at the provider. */
function refundEndpoints(ctx: ApiContext): Endpoint[] {
  const idempotent = idempotentResponder(ctx.database);
  const detail = (orderNo: string) => adminOrderDetail(ctx, orderNo);
  return [
    defineEndpoint({
      method: "post",
      path: "/admin/orders/{orderNo}/refund/retry",
      summary: "重新发起支付渠道拒绝的退款（需 Idempotency-Key；只限这笔订单最近一次失败的退款）",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: orderNoParam,
      input: adminRetryRefundSchema,
      output: adminOrderDetailSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const orderNo = params.orderNo;
        await idempotent(req, res, user.id, `POST /admin/orders/${orderNo}/refund/retry`, input, async () => {
          const order = await adminOrderRow(ctx, orderNo);
          await retryRefund(ctx, order, input.refundId, (trx, refund) =>
            recordAudit(trx, {
              actorId: user.id,
              action: "order.refund.retry",
              targetType: "order",
              targetId: orderNo,
              before: { refund: input.refundId, state: "failed" },
              after: { refund: input.refundId, state: "processing", amountCents: refund.amountCents },
            }),
          );
          return detail(orderNo);
        });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/orders/{orderNo}/refund",
      summary: "人工退款（需 Idempotency-Key；按学员的退款规则：课程 7 天内且未学习，实物按件，无需再审核）",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: orderNoParam,
      input: adminRefundInputSchema,
      output: adminOrderDetailSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const orderNo = params.orderNo;
        await idempotent(req, res, user.id, `POST /admin/orders/${orderNo}/refund`, input, async () => {
          const order = await adminOrderRow(ctx, orderNo);
          await startRefund(ctx, order, input, {
            operatorId: user.id,
            record: (trx, refund) =>
              recordAudit(trx, {
                actorId: user.id,
                action: "order.refund",
                targetType: "order",
                targetId: orderNo,
                before: { state: order.state, refundedCents: order.refunded_cents },
                after: {
                  state: "refunding",
                  refund: refund.id,
                  amountCents: refund.amountCents,
                  ...(refund.quantity !== null ? { quantity: refund.quantity } : {}),
                },
                reason: input.reason,
              }),
          });
          return detail(orderNo);
        });
      },
    }),
  ];
}
