import type { Selectable } from "kysely";
import type { OrdersTable } from "../../db/schema";

/** One order as stored (a row of `orders`), shared by the state machine and the purposes' hooks. */
export type OrderRow = Selectable<OrdersTable>;
