/**
 * Delivery of physical goods redeemed in the exchange mall, like a physical order's: a completed
 * redemption of a book or stationery item waits to be shipped (待发货), an operator ships it with
 * the carrier and tracking number (已发货, the learner is told), and it is received (已签收) when
 * the learner confirms, the operator marks it, or AUTO_CONFIRM_DAYS after shipping. Each move is
 * a compare-and-set on the delivery state, so a double click or two operators move it once.
 */
import type { z } from "zod";
import { AUTO_CONFIRM_DAYS } from "../../../shared/contracts/orders";
import { redemptionStates } from "../../../shared/contracts/wallet";
import {
  type DeliveryState,
  type MyRedemption,
  type MyRedemptionPage,
  REDEMPTIONS_PAGE_SIZE,
  type Shipment,
  type redemptionShipSchema,
  type shippingQuery,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { iso, listPage } from "../../list-page";
import { notify } from "../../notices";
import { recordAudit } from "../audit/record";

export const NOTICE_REDEMPTION_SHIPPED = "exchange_shipped";
const missing = () => notFound("兑换记录不存在");

type Address = { recipient: string; phone: string; region: string; detail: string } | null;

interface ShipmentRow {
  id: number;
  item_id: number;
  title: string;
  kind: Shipment["kind"];
  user_id: number;
  nickname: string;
  address: Address;
  delivery_state: DeliveryState;
  carrier: string | null;
  tracking_no: string | null;
  created_at: Date;
  shipped_at: Date | null;
  delivered_at: Date | null;
}

function shipmentView(r: ShipmentRow): Shipment {
  return {
    id: r.id,
    itemId: r.item_id,
    title: r.title,
    kind: r.kind,
    userId: r.user_id,
    nickname: r.nickname,
    address: r.address,
    deliveryState: r.delivery_state,
    carrier: r.carrier,
    trackingNo: r.tracking_no,
    createdAt: new Date(r.created_at).toISOString(),
    shippedAt: iso(r.shipped_at),
    deliveredAt: iso(r.delivered_at),
  };
}

function shipmentQuery(ctx: ApiContext) {
  return ctx.database.db
    .selectFrom("exchange_redemptions as r")
    .innerJoin("exchange_items as i", "i.id", "r.item_id")
    .innerJoin("users as u", "u.id", "r.user_id")
    .select([
      "r.id",
      "r.item_id",
      "i.title",
      "i.kind",
      "r.user_id",
      "u.nickname",
      "r.address",
      "r.delivery_state",
      "r.carrier",
      "r.tracking_no",
      "r.created_at",
      "r.shipped_at",
      "r.delivered_at",
    ])
    .where("r.delivery_state", "is not", null);
}

/** The operator's shipping list: waiting ones oldest first by default. */
export async function listShipments(ctx: ApiContext, query: z.output<typeof shippingQuery>) {
  let q = shipmentQuery(ctx);
  if (query.state !== "all") q = q.where("r.delivery_state", "=", query.state);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("i.title", "ilike", like),
        eb("u.nickname", "ilike", like),
        eb("r.tracking_no", "ilike", like),
        eb("u.phone", "=", query.q ?? ""),
        ...(/^\d{1,9}$/.test(query.q ?? "") ? [eb("r.id", "=", Number(query.q))] : []),
      ]),
    );
  }
  const sorted = query.sort ? query : { ...query, dir: query.state === "awaiting_shipment" ? "asc" : query.dir };
  const page = await listPage<ShipmentRow>(
    q,
    sorted as typeof query,
    { id: "r.id", createdAt: "r.created_at", shippedAt: "r.shipped_at", title: "i.title" },
    "r.created_at",
    "r.id",
  );
  return { ...page, rows: page.rows.map(shipmentView) };
}

export async function shipment(ctx: ApiContext, id: number): Promise<Shipment> {
  const row = await shipmentQuery(ctx).where("r.id", "=", id).executeTakeFirst();
  if (!row) throw missing();
  return shipmentView(row as ShipmentRow);
}

/** 待发货 → 已发货 with carrier and tracking number; the learner gets a notice. */
export async function shipRedemption(
  ctx: ApiContext,
  actorId: number,
  id: number,
  input: z.output<typeof redemptionShipSchema>,
): Promise<Shipment> {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("exchange_redemptions")
      .set({ delivery_state: "shipped", carrier: input.carrier, tracking_no: input.trackingNo, shipped_at: now })
      .where("id", "=", id)
      .where("delivery_state", "=", "awaiting_shipment")
      .returning(["user_id", "item_id"])
      .executeTakeFirst();
    if (!moved) {
      const row = await trx
        .selectFrom("exchange_redemptions")
        .select("delivery_state")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row?.delivery_state) throw missing();
      throw new ApiError(409, "not_awaiting_shipment", "只有待发货的兑换可以发货");
    }
    const item = await trx
      .selectFrom("exchange_items")
      .select("title")
      .where("id", "=", moved.item_id)
      .executeTakeFirstOrThrow();
    await notify(
      trx,
      moved.user_id,
      NOTICE_REDEMPTION_SHIPPED,
      "兑换的物品已发货",
      `你兑换的“${item.title}”已由${input.carrier}发出，运单号 ${input.trackingNo}。收到后可在兑换记录中确认收货；${AUTO_CONFIRM_DAYS} 天后将自动确认。`,
      now,
    );
    await recordAudit(trx, {
      actorId,
      action: "redemption.ship",
      targetType: "exchange_redemption",
      targetId: id,
      before: { deliveryState: "awaiting_shipment" },
      after: { deliveryState: "shipped", carrier: input.carrier, trackingNo: input.trackingNo },
    });
  });
  return shipment(ctx, id);
}

/** 已发货 → 已签收, by the learner (their own), an operator (audited) or the sweep. */
async function deliver(ctx: ApiContext, id: number, userId: number | null, at: Date): Promise<boolean> {
  let q = ctx.database.db
    .updateTable("exchange_redemptions")
    .set({ delivery_state: "delivered", delivered_at: at })
    .where("id", "=", id)
    .where("delivery_state", "=", "shipped");
  if (userId !== null) q = q.where("user_id", "=", userId);
  return Boolean(await q.returning("id").executeTakeFirst());
}

export async function markDelivered(ctx: ApiContext, actorId: number, id: number): Promise<Shipment> {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("exchange_redemptions")
      .set({ delivery_state: "delivered", delivered_at: now })
      .where("id", "=", id)
      .where("delivery_state", "=", "shipped")
      .returning("id")
      .executeTakeFirst();
    if (!moved) {
      const row = await trx
        .selectFrom("exchange_redemptions")
        .select("delivery_state")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row?.delivery_state) throw missing();
      throw new ApiError(409, "not_shipped", "只有已发货的兑换可以标记签收");
    }
    await recordAudit(trx, {
      actorId,
      action: "redemption.deliver",
      targetType: "exchange_redemption",
      targetId: id,
      before: { deliveryState: "shipped" },
      after: { deliveryState: "delivered" },
    });
  });
  return shipment(ctx, id);
}

function myView(r: {
  id: number;
  item_id: number;
  title: string;
  kind: MyRedemption["kind"];
  currency: MyRedemption["currency"];
  price: number;
  state: MyRedemption["state"];
  failure: string | null;
  delivery_state: DeliveryState | null;
  carrier: string | null;
  tracking_no: string | null;
  address: Address;
  created_at: Date;
  shipped_at: Date | null;
  delivered_at: Date | null;
}): MyRedemption {
  return {
    id: r.id,
    itemId: r.item_id,
    title: r.title,
    kind: r.kind,
    currency: r.currency,
    price: r.price,
    state: r.state,
    stateLabel: redemptionStates[r.state],
    failure: r.failure,
    deliveryState: r.delivery_state,
    carrier: r.carrier,
    trackingNo: r.tracking_no,
    address: r.address,
    createdAt: new Date(r.created_at).toISOString(),
    shippedAt: iso(r.shipped_at),
    deliveredAt: iso(r.delivered_at),
  };
}

function myQuery(ctx: ApiContext, userId: number) {
  return ctx.database.db
    .selectFrom("exchange_redemptions as r")
    .innerJoin("exchange_items as i", "i.id", "r.item_id")
    .select([
      "r.id",
      "r.item_id",
      "i.title",
      "i.kind",
      "r.currency",
      "r.price",
      "r.state",
      "r.failure",
      "r.delivery_state",
      "r.carrier",
      "r.tracking_no",
      "r.address",
      "r.created_at",
      "r.shipped_at",
      "r.delivered_at",
    ])
    .where("r.user_id", "=", userId);
}

/** The learner's redemptions, newest first, with their delivery. */
export async function myRedemptions(ctx: ApiContext, userId: number, page: number): Promise<MyRedemptionPage> {
  const total = await ctx.database.db
    .selectFrom("exchange_redemptions")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const rows = await myQuery(ctx, userId)
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(REDEMPTIONS_PAGE_SIZE)
    .offset((page - 1) * REDEMPTIONS_PAGE_SIZE)
    .execute();
  return {
    items: rows.map((r) => myView({ ...r, currency: r.currency as MyRedemption["currency"] })),
    total: Number(total.n),
    page,
    pageSize: REDEMPTIONS_PAGE_SIZE,
  };
}

/** The learner confirms receipt of a shipped redemption of theirs. */
export async function confirmRedemption(ctx: ApiContext, userId: number, id: number): Promise<MyRedemption> {
  if (!(await deliver(ctx, id, userId, ctx.now()))) {
    const row = await myQuery(ctx, userId).where("r.id", "=", id).executeTakeFirst();
    if (!row) throw missing();
    throw new ApiError(
      409,
      "not_shipped",
      row.delivery_state === "delivered" ? "已确认收货" : "物品尚未发货，不能确认收货",
    );
  }
  const row = await myQuery(ctx, userId).where("r.id", "=", id).executeTakeFirstOrThrow();
  return myView({ ...row, currency: row.currency as MyRedemption["currency"] });
}

/** Shipped redemptions past AUTO_CONFIRM_DAYS are received (each once, whichever node runs this). */
export async function confirmOverdueDeliveries(ctx: ApiContext): Promise<number> {
  const now = ctx.now();
  const rows = await ctx.database.db
    .updateTable("exchange_redemptions")
    .set({ delivery_state: "delivered", delivered_at: now })
    .where("delivery_state", "=", "shipped")
    .where("shipped_at", "<=", new Date(now.getTime() - AUTO_CONFIRM_DAYS * 86_400_000))
    .returning("id")
    .execute();
  return rows.length;
}
