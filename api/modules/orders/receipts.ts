/**
 * Receipt confirmed for the learner: a shipped order nobody confirmed is completed AUTO_CONFIRM_DAYS
 * after shipping (the order job runs this). Each move is the state machine's compare-and-set, so
 * two runs that meet complete an order once.
 */
import { AUTO_CONFIRM_DAYS } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { moveOrder } from "./state";

const BATCH = 100;

/** Completes (a batch of) the orders shipped AUTO_CONFIRM_DAYS ago or more; their order numbers. */
export async function confirmShippedOrders(ctx: ApiContext, now: Date): Promise<string[]> {
  const { db } = ctx.database;
  const due = new Date(now.getTime() - AUTO_CONFIRM_DAYS * 86_400_000);
  const shipped = await db
    .selectFrom("orders")
    .select(["id", "order_no"])
    .where("state", "=", "shipped")
    .where("shipped_at", "<=", due)
    .limit(BATCH)
    .execute();
  const confirmed: string[] = [];
  for (const order of shipped) {
    const done = await db
      .transaction()
      .execute((trx) => moveOrder(trx, order.id, "shipped", "completed", { completed_at: now, at: now }));
    if (done) confirmed.push(order.order_no);
  }
  return confirmed;
}
