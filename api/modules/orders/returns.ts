/**
 * Returns of goods the learner has received wait for an operator: the request (refunds row
 * 'requested', the order 退款中) is approved — then the money goes back as for any refund — or
 * rejected with a reason, or withdrawn by the learner; either of the last two puts the order back
 * where it was. Every step is a compare-and-set on the request, so it is decided once.
 */
import type { Transaction } from "kysely";
import { REFUND_STATE_LABELS } from "../../../shared/contracts/orders";
import type { DB } from "../../db/schema";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { orderDetail } from "./read";
import { settleRefund } from "./refunds";
import { notify } from "../../notices";
import { moveOrder, NOTICE_ORDER_REFUNDED } from "./state";

const conflict = (code: string, message: string) => new ApiError(409, code, message);

async function requestOf(ctx: ApiContext, orderNo: string, userId?: number) {
  let query = ctx.database.db
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .selectAll("orders")
    .select(["refunds.id as refund_id", "refunds.reason as refund_reason_text", "refunds.previous_state"])
    .where("orders.order_no", "=", orderNo)
    .where("refunds.state", "=", "requested");
  if (userId !== undefined) query = query.where("orders.user_id", "=", userId);
  const row = await query.orderBy("refunds.id", "desc").executeTakeFirst();
  if (row) return row;
  let order = ctx.database.db.selectFrom("orders").select("id").where("order_no", "=", orderNo);
  if (userId !== undefined) order = order.where("user_id", "=", userId);
  if (!(await order.executeTakeFirst())) throw notFound("订单不存在");
  throw conflict("no_request", "这笔订单没有待审核的退货申请");
}

/** Operators: the returns waiting for review, oldest first. */
export async function pendingReturns(ctx: ApiContext) {
  const rows = await ctx.database.db
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.order_id")
    .select([
      "refunds.id",
      "orders.order_no",
      "orders.title",
      "refunds.quantity",
      "refunds.amount_cents",
      "refunds.reason",
      "refunds.created_at",
    ])
    .where("refunds.state", "=", "requested")
    .orderBy("refunds.created_at")
    .limit(100)
    .execute();
  return {
    items: rows.map((r) => ({
      refundId: r.id,
      orderNo: r.order_no,
      title: r.title,
      quantity: r.quantity,
      amountCents: r.amount_cents,
      reason: r.reason,
      createdAt: r.created_at.toISOString(),
    })),
  };
}

/** The audit record of a review, written in the review's transaction. */
export type ReviewRecord = (
  trx: Transaction<DB>,
  request: { refundId: number; orderNo: string; amountCents: number; quantity: number | null },
) => Promise<void>;

const noRecord: ReviewRecord = async () => {};

/** Operators approve: the request becomes a refund in progress and the money goes back. */
export async function approveReturn(
  ctx: ApiContext,
  operatorId: number,
  orderNo: string,
  note?: string,
  record: ReviewRecord = noRecord,
) {
  const now = ctx.now();
  const request = await requestOf(ctx, orderNo);
  const taken = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("refunds")
      .set({ state: "processing", reviewed_by: operatorId, reviewed_at: now, review_note: note ?? null })
      .where("id", "=", request.refund_id)
      .where("state", "=", "requested")
      .returning(["id", "amount_cents", "quantity"])
      .executeTakeFirst();
    if (row) await record(trx, { refundId: row.id, orderNo, amountCents: row.amount_cents, quantity: row.quantity });
    return row;
  });
  if (!taken) throw conflict("already_reviewed", "这条退货申请已经处理过了");
  const { refund_id: refundId, previous_state: previous, refund_reason_text: reason, ...order } = request;
  await settleRefund(ctx, order, refundId, previous ?? "completed", reason);
  return orderDetail(ctx, order.user_id, orderNo);
}

/** Ends a request without a refund (rejected by an operator or withdrawn by the learner): the order goes back. */
async function closeRequest(
  ctx: ApiContext,
  orderNo: string,
  outcome: "rejected" | "withdrawn",
  by: { userId: number; operator: boolean },
  note: string | null,
  record: ReviewRecord = noRecord,
) {
  const now = ctx.now();
  const request = await requestOf(ctx, orderNo, by.operator ? undefined : by.userId);
  const closed = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("refunds")
      .set({ state: outcome, reviewed_by: by.userId, reviewed_at: now, review_note: note, completed_at: now })
      .where("id", "=", request.refund_id)
      .where("state", "=", "requested")
      .returning(["id", "amount_cents", "quantity"])
      .executeTakeFirst();
    if (!row) return false;
    await record(trx, { refundId: row.id, orderNo, amountCents: row.amount_cents, quantity: row.quantity });
    const back = await moveOrder(trx, request.id, "refunding", request.previous_state ?? "completed", { at: now });
    if (!back) throw new Error(`order ${request.order_no} left refunding while its return was open`);
    if (outcome === "rejected") {
      await notify(
        trx,
        request.user_id,
        NOTICE_ORDER_REFUNDED,
        REFUND_STATE_LABELS.rejected,
        `订单 ${request.order_no}（${request.title}）的退货申请未通过：${note ?? ""}。如有疑问请联系客服。`,
        now,
      );
    }
    return true;
  });
  if (!closed) throw conflict("already_reviewed", "这条退货申请已经处理过了");
  return orderDetail(ctx, request.user_id, orderNo);
}

export const rejectReturn = (
  ctx: ApiContext,
  operatorId: number,
  orderNo: string,
  note: string,
  record: ReviewRecord = noRecord,
) => closeRequest(ctx, orderNo, "rejected", { userId: operatorId, operator: true }, note, record);

export const withdrawReturn = (ctx: ApiContext, userId: number, orderNo: string) =>
  closeRequest(ctx, orderNo, "withdrawn", { userId, operator: false }, null);
