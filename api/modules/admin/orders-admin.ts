/**
 * The operators' order desk: every learner's orders (searched by order number, phone, e-mail or
 * item, filtered by state, kind and China dates, sorted and paged on the server) and one order
 * with its learner, payments and refunds and what an operator may do with it now. The moves
 * themselves are the orders module's (ship, returns, refunds); this adds who did them.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { chinaDay } from "../../../shared/china-time";
import type { AdminOrderDetail, AdminOrderPage, AdminOrderQuery } from "../../../shared/contracts/admin-orders";
import { orderStateLabel, REFUND_STATE_LABELS } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound } from "../../http";
import { orderDetail } from "../orders/read";
import { piecesLeft, refundRule } from "../orders/refund-rules";

const ORDER_NO = /^M\d{20}$/;

/** `%`, `_` and `\` taken literally inside a LIKE pattern. */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type OrderEb = ExpressionBuilder<DB & { u: DB["users"] }, "orders" | "u">;

const returnRequested = (eb: OrderEb) =>
  eb.exists(
    eb
      .selectFrom("refunds as r")
      .select("r.id")
      .whereRef("r.order_id", "=", "orders.id")
      .where("r.state", "=", "requested"),
  );

/** The order's latest refund was refused by the provider (and nothing newer was asked). */
const refundFailed = (eb: OrderEb) =>
  eb(
    eb
      .selectFrom("refunds as r")
      .select("r.state")
      .whereRef("r.order_id", "=", "orders.id")
      .orderBy("r.id", "desc")
      .limit(1),
    "=",
    "failed",
  );

/**
 * The same as a filter, from the refused refunds' side: few rows, found by the partial index on
 * open refunds, instead of a look at every order's latest refund.
 */
export const refundFailedFilter = () =>
  sql<SqlBool>`orders.id in (
    select r.order_id from refunds r
    where r.state = 'failed'
      and not exists (select 1 from refunds newer where newer.order_id = r.order_id and newer.id > r.id)
  )`;

function searchOf(eb: OrderEb, q: string): Expression<SqlBool> {
  const text = q.trim();
  // An order number, a phone or an e-mail is looked up exactly (by index); other text is a part of the item's name.
  if (ORDER_NO.test(text)) return eb("orders.order_no", "=", text);
  const digits = text.replace(/[\s-]/g, "");
  if (/^1\d{10}$/.test(digits)) return eb("u.phone", "=", digits);
  if (/^[^\s@]+@[^\s@]+$/.test(text)) return eb("u.email", "=", text.toLowerCase());
  const pattern = `%${likeEscaped(text)}%`;
  const any: Expression<SqlBool>[] = [eb("orders.title", "ilike", pattern), eb("orders.sku_name", "ilike", pattern)];
  if (/^M\d{4,19}$/.test(text)) any.push(eb("orders.order_no", "like", `${text}%`));
  return eb.or(any);
}

const SORT_COLUMNS = {
  createdAt: "orders.created_at",
  payCents: "orders.pay_cents",
  orderNo: "orders.order_no",
  state: "orders.state",
} as const;

export async function listAdminOrders(ctx: ApiContext, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const { db } = ctx.database;
  let base = db.selectFrom("orders").innerJoin("users as u", "u.id", "orders.user_id");
  if (query.q) {
    const q = query.q;
    base = base.where((eb) => searchOf(eb, q));
  }
  if (query.state === "return_requested") base = base.where((eb) => returnRequested(eb));
  else if (query.state === "refund_failed") base = base.where(refundFailedFilter());
  else if (query.state) base = base.where("orders.state", "=", query.state);
  if (query.kind === "gift" || query.kind === "group") base = base.where("orders.purpose", "=", query.kind);
  else if (query.kind) base = base.where("orders.item_type", "=", query.kind);
  if (query.from) base = base.where("orders.created_at", ">=", chinaDay(`${query.from}T00:00:00+08:00`).start);
  if (query.to) base = base.where("orders.created_at", "<", chinaDay(`${query.to}T00:00:00+08:00`).end);
  if (query.userId) base = base.where("orders.user_id", "=", query.userId);

  const column = SORT_COLUMNS[query.sort ?? "createdAt"];
  const dir = query.dir;
  const [rows, count] = await Promise.all([
    base
      .select([
        "orders.order_no",
        "orders.created_at",
        "orders.user_id",
        "u.nickname",
        "u.phone",
        "u.email",
        "orders.title",
        "orders.sku_name",
        "orders.quantity",
        "orders.item_type",
        "orders.purpose",
        "orders.pay_cents",
        "orders.refunded_cents",
        "orders.state",
        "orders.physical",
      ])
      .select((eb) => [returnRequested(eb).as("return_requested"), refundFailed(eb).as("refund_failed")])
      .orderBy(column, dir)
      .orderBy("orders.id", dir)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      orderNo: r.order_no,
      createdAt: r.created_at.toISOString(),
      userId: r.user_id,
      learner: r.nickname,
      phone: r.phone,
      email: r.email,
      title: r.title,
      skuName: r.sku_name,
      quantity: r.quantity,
      itemType: r.item_type,
      purpose: r.purpose,
      payCents: r.pay_cents,
      refundedCents: r.refunded_cents,
      state: r.state,
      stateLabel: orderStateLabel(r.purpose, r.state),
      physical: r.physical,
      returnRequested: Boolean(r.return_requested),
      refundFailed: Boolean(r.refund_failed),
    })),
    total: Number(count.n),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The order by its number, whoever's it is (404 for a malformed or unknown number). */
export async function adminOrderRow(ctx: ApiContext, orderNo: string) {
  if (!ORDER_NO.test(orderNo)) throw notFound("订单不存在");
  const row = await ctx.database.db.selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirst();
  if (!row) throw notFound("订单不存在");
  return row;
}

export async function adminOrderDetail(ctx: ApiContext, orderNo: string): Promise<AdminOrderDetail> {
  const { db } = ctx.database;
  const o = await adminOrderRow(ctx, orderNo);
  const [order, learner, payments, refunds, rule] = await Promise.all([
    orderDetail(ctx, o.user_id, orderNo),
    db
      .selectFrom("users")
      .select(["id", "nickname", "phone", "email", "status"])
      .where("id", "=", o.user_id)
      .executeTakeFirstOrThrow(),
    db.selectFrom("payments").selectAll().where("order_id", "=", o.id).orderBy("id").execute(),
    db
      .selectFrom("refunds")
      .leftJoin("users as reviewer", "reviewer.id", "refunds.reviewed_by")
      .selectAll("refunds")
      .select("reviewer.nickname as reviewer")
      .where("refunds.order_id", "=", o.id)
      .orderBy("refunds.id")
      .execute(),
    refundRule(ctx, o, ctx.now()),
  ]);
  const latest = refunds.at(-1);
  return {
    order,
    learner,
    payments: payments.map((p) => ({
      provider: p.provider,
      txnId: p.provider_txn_id,
      amountCents: p.amount_cents,
      outcome: p.outcome,
      receivedAt: p.received_at.toISOString(),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      state: r.state,
      stateLabel: REFUND_STATE_LABELS[r.state],
      amountCents: r.amount_cents,
      quantity: r.quantity,
      reason: r.reason,
      reviewNote: r.review_note,
      reviewedBy: r.reviewer,
      providerRefundId: r.provider_refund_id,
      createdAt: r.created_at.toISOString(),
      completedAt: r.completed_at?.toISOString() ?? null,
    })),
    actions: {
      ship: o.physical && (o.state === "awaiting_shipment" || o.state === "paid") && o.purpose === "buy",
      reviewReturn: latest?.state === "requested",
      retryRefundId: latest?.state === "failed" && latest.previous_state === o.state ? latest.id : null,
      refund: { allowed: rule.allowed, reason: rule.reason, maxQuantity: piecesLeft(o, refunds) },
    },
  };
}
