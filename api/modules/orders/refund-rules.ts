/** Whether an order may be refunded now (and why not, in plain words), and how many of its pieces are left to refund. */
import type { Selectable, Transaction } from "kysely";
import { refundRule as sharedRefundRule } from "../../../shared/action-rules";
import { REFUND_DAYS } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { DB, RefundsTable } from "../../db/schema";
import type { OrderRow } from "./order-row";

/** Whether the learner may ask for a refund now, and why not in plain words (the shared rule, fed from the database). */
export async function refundRule(
  ctx: ApiContext,
  order: OrderRow,
  now: Date,
  db: Pick<Transaction<DB>, "selectFrom"> = ctx.database.db,
): Promise<{ allowed: boolean; reason: string }> {
  const consumed =
    !order.physical && order.purpose !== "gift"
      ? (await db
          .selectFrom("lesson_progress")
          .innerJoin("lessons", "lessons.id", "lesson_progress.lesson_id")
          .select("lesson_progress.lesson_id")
          .where("lesson_progress.user_id", "=", order.user_id)
          .where("lessons.course_id", "=", order.item_id)
          .limit(1)
          .executeTakeFirst()) !== undefined
      : false;
  return sharedRefundRule(
    {
      purpose: order.purpose,
      state: order.state,
      physical: order.physical,
      paidAt: order.paid_at,
      completedAt: order.completed_at,
      consumed,
    },
    now,
    REFUND_DAYS,
  );
}

/** Pieces of a physical order not yet refunded (refunds in progress count as refunded). */
export function piecesLeft(order: OrderRow, refunds: Pick<Selectable<RefundsTable>, "state" | "quantity">[]): number {
  if (!order.physical) return order.refunded_cents > 0 ? 0 : order.quantity;
  const taken = refunds
    .filter((r) => r.state === "requested" || r.state === "processing" || r.state === "succeeded")
    .reduce((sum, r) => sum + (r.quantity ?? 0), 0);
  return Math.max(0, order.quantity - taken);
}
