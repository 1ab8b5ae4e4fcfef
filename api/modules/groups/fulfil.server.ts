/**
 * What a group-buy order's moves do to its group, called by the order state machine inside the
 * move's transaction (api/modules/orders/state.server.ts), and what an order shows of its group.
 */
import type { Kysely, Transaction } from "kysely";
import type { GroupInfo } from "../../../shared/contracts/groups";
import type { DB } from "../../db/schema";
import type { OrderRow } from "../orders/state.server";

/** pending → paid of a group order: the seat is paid; the group opens or completes. Returns the order as it ends. */
export async function groupPaid(_trx: Transaction<DB>, order: OrderRow, _at: Date): Promise<OrderRow> {
  return order;
}

/** A group order closed unpaid: its held seat is released. */
export async function groupOrderClosed(_trx: Transaction<DB>, _order: OrderRow, _at: Date): Promise<void> {}

/** A group order's refund finished. */
export async function groupRefunded(_trx: Transaction<DB>, _order: OrderRow, _at: Date): Promise<void> {}

/** The group of a group order. */
export async function groupInfoOf(_db: Kysely<DB>, _order: OrderRow): Promise<GroupInfo | null> {
  return null;
}
