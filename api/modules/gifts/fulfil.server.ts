/**
 * What a gift order's moves do to its gift, called by the order state machine inside the move's
 * transaction (api/modules/orders/state.server.ts), and what an order shows of its gift.
 */
import type { Kysely, Transaction } from "kysely";
import type { GiftInfo } from "../../../shared/contracts/gifts";
import type { DB } from "../../db/schema";
import type { OrderRow } from "../orders/state.server";

/** pending → paid of a gift order: the gift becomes claimable. Returns the order as it ends. */
export async function giftPaid(_trx: Transaction<DB>, order: OrderRow, _at: Date): Promise<OrderRow> {
  return order;
}

/** A gift order closed unpaid. */
export async function giftClosed(_trx: Transaction<DB>, _order: OrderRow, _at: Date): Promise<void> {}

/** A gift order's refund finished. */
export async function giftRefunded(_trx: Transaction<DB>, _order: OrderRow, _at: Date): Promise<void> {}

/** The gift of a gift order, as its buyer sees it. */
export async function giftInfoOf(_db: Kysely<DB>, _order: OrderRow, _now: Date): Promise<GiftInfo | null> {
  return null;
}
