/**
 * What an order is for decides what its moves do beyond the order itself. Buying is the orders
 * module's own (state.ts); every other purpose (a gift, a group-buy seat) registers its hooks at
 * the composition root (server/services.ts), so orders never imports the modules that build on
 * it. The hooks run inside the move's transaction, after the order's compare-and-set succeeded:
 * they happen exactly once with the move, or not at all.
 */
import type { Kysely, Transaction } from "kysely";
import type { OrderDetail } from "../../../shared/contracts/orders";
import type { DB, OrderPurpose } from "../../db/schema";
import type { OrderRow } from "./order-row";

export interface OrderPurposeHooks {
  /** pending → paid: fulfils the order and tells the buyer; the order as it ends (it may have moved on). */
  paid(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<OrderRow>;
  /** pending → cancelled (unpaid, closed by the learner or the job): what the order held is let go. */
  closed(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<void>;
  /** A whole refund finished: what the order gave is taken back. */
  refunded(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<void>;
  /** What the order's detail shows of the purpose (its gift, its group). */
  details(db: Kysely<DB>, order: OrderRow, now: Date): Promise<Partial<Pick<OrderDetail, "gift" | "group">>>;
}

/** The purposes other modules own. */
export type RegisteredPurpose = Exclude<OrderPurpose, "buy">;

const hooks = new Map<RegisteredPurpose, OrderPurposeHooks>();

export const orderPurposes = {
  /** Registers a purpose's hooks (the composition root does, once; a second registration replaces the first). */
  register(purpose: RegisteredPurpose, purposeHooks: OrderPurposeHooks) {
    hooks.set(purpose, purposeHooks);
  },
  /**
   * The hooks of a registered purpose. Throws when none were registered: fulfilling a gift as if
   * it were bought would enrol the buyer, so the move's transaction is rolled back instead.
   */
  of(purpose: RegisteredPurpose): OrderPurposeHooks {
    const found = hooks.get(purpose);
    if (!found) throw new Error(`no hooks registered for the order purpose "${purpose}"`);
    return found;
  },
};
