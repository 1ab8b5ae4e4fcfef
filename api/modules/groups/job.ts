/**
 * The group job, run after the order job (api/jobs/commerce.ts composes them): open groups past their deadline fail
 * (compare-and-set, every member told once); a seat still being paid for is closed (after asking
 * the provider, as the order job does); every paid order of a failed group is refunded — moved to
 * 退款中 together with its refund row by compare-and-set, so two runs or two nodes refund it once —
 * with its coupon and coins returned by the refund itself. A refund the provider refuses puts the
 * order back to paid, and the next run tries again.
 */
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { settleRefund } from "../orders/refunds";
import { notify } from "../../notices";
import { moveOrder } from "../orders/state";
import { closeUnpaidOrder } from "../payments/expiry";
import { NOTICE_GROUP_FAILED } from "./fulfil";

const BATCH = 100;
export const GROUP_REFUND_REASON = "拼团未成功，自动全额退款";

export interface GroupJobResult {
  /** Groups that failed in this run. */
  failed: string[];
  /** Orders of failed groups refunded in this run. */
  refunded: string[];
  /** Refunds the provider refused this time (retried next run). */
  refundsFailed: string[];
  /** Unpaid orders of failed groups closed in this run. */
  closed: string[];
}

async function failExpiredGroups(ctx: ApiContext, now: Date, result: GroupJobResult) {
  const { db } = ctx.database;
  const due = await db
    .selectFrom("groups")
    .select(["id", "group_no"])
    .where("state", "=", "open")
    .where("expires_at", "<=", now)
    .orderBy("expires_at")
    .limit(BATCH)
    .execute();
  for (const group of due) {
    const failed = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("groups")
        .set({ state: "failed", failed_at: now })
        .where("id", "=", group.id)
        .where("state", "=", "open")
        .where("expires_at", "<=", now)
        .returning("id")
        .executeTakeFirst();
      if (!moved) return false;
      const members = await trx
        .selectFrom("group_members")
        .innerJoin("orders", "orders.id", "group_members.order_id")
        .select(["group_members.user_id", "group_members.state", "orders.title"])
        .where("group_members.group_id", "=", group.id)
        .where("group_members.state", "in", ["held", "paid"])
        .execute();
      for (const member of members) {
        await notify(
          trx,
          member.user_id,
          NOTICE_GROUP_FAILED,
          "拼团未成功",
          member.state === "paid"
            ? `《${member.title}》的拼团（团号 ${group.group_no}）未能在时限内成团，拼团未成功，款项将原路退回，使用的优惠券和金币也会退回。`
            : `《${member.title}》的拼团（团号 ${group.group_no}）未能在时限内成团，你的待支付订单已关闭。`,
          now,
        );
      }
      return true;
    });
    if (failed) result.failed.push(group.group_no);
  }
}

/** Seats of failed groups that are still being paid for: closed (a payment that made it is refunded next). */
async function closeUnpaidSeats(ctx: ApiContext, now: Date, result: GroupJobResult) {
  const unpaid = await ctx.database.db
    .selectFrom("orders")
    .innerJoin("groups", "groups.id", "orders.group_id")
    .select(["orders.id", "orders.order_no", "orders.provider"])
    .where("groups.state", "=", "failed")
    .where("orders.state", "=", "pending")
    .orderBy("orders.id")
    .limit(BATCH)
    .execute();
  for (const order of unpaid) {
    const outcome = await closeUnpaidOrder(ctx, order, "拼团未成功，订单已关闭", now);
    if (outcome === "closed") result.closed.push(order.order_no);
  }
}

async function refundFailedGroups(ctx: ApiContext, now: Date, result: GroupJobResult) {
  const { db } = ctx.database;
  const paid = await db
    .selectFrom("orders")
    .innerJoin("groups", "groups.id", "orders.group_id")
    .selectAll("orders")
    .where("groups.state", "=", "failed")
    .where("orders.purpose", "=", "group")
    .where("orders.state", "=", "paid")
    .orderBy("orders.id")
    .limit(BATCH)
    .execute();
  for (const order of paid) {
    const refundId = await db.transaction().execute(async (trx) => {
      const moved = await moveOrder(trx, order.id, "paid", "refunding", {
        refund_reason: GROUP_REFUND_REASON,
        at: now,
      });
      if (!moved) return null;
      const refund = await trx
        .insertInto("refunds")
        .values({
          order_id: moved.id,
          user_id: moved.user_id,
          amount_cents: moved.pay_cents,
          reason: GROUP_REFUND_REASON,
          created_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return refund.id;
    });
    // Another run (or node) refunds this one.
    if (refundId === null) continue;
    try {
      await settleRefund(ctx, order, refundId, "paid", GROUP_REFUND_REASON);
      result.refunded.push(order.order_no);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.logger.warn({ err, orderNo: order.order_no }, "group refund failed, retried on the next run");
      result.refundsFailed.push(order.order_no);
    }
  }
}

export async function runGroupJob(ctx: ApiContext): Promise<GroupJobResult> {
  const now = ctx.now();
  const result: GroupJobResult = { failed: [], refunded: [], refundsFailed: [], closed: [] };
  await failExpiredGroups(ctx, now, result);
  await closeUnpaidSeats(ctx, now, result);
  await refundFailedGroups(ctx, now, result);
  return result;
}

/** Test fixtures only: the leader's open group runs out of time now, and the job runs once. */
export async function expireGroupNow(ctx: ApiContext, leaderId: number, groupNo: string): Promise<GroupJobResult> {
  const moved = await ctx.database.db
    .updateTable("groups")
    .set({ expires_at: ctx.now() })
    .where("group_no", "=", groupNo)
    .where("leader_id", "=", leaderId)
    .where("state", "=", "open")
    .returning("id")
    .executeTakeFirst();
  if (!moved) throw notFound("拼团不存在，或不是你发起的进行中的拼团");
  return runGroupJob(ctx);
}
