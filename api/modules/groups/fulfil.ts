/**
 * What a group-buy order's moves do to its group — the group purpose's hooks (`groupPurpose`,
 * registered at the composition root and called by the order state machine inside the move's
 * transaction: api/modules/orders/purposes.ts) — and what an order shows of its group.
 *
 * Every change to a group happens under its row lock (a payment, the job failing it and a seat
 * released serialise on it) and by compare-and-set on the member's and the group's state, so a
 * seat is paid, released or refunded once, and a group completes or fails once.
 */
import type { Kysely, Transaction } from "kysely";
import { GROUP_STATE_LABELS, type GroupInfo } from "../../../shared/contracts/groups";
import type { DB } from "../../db/schema";
import { enrolLearner, unenrolLearner } from "../enrolments/enrolments";
import type { OrderPurposeHooks } from "../orders/purposes";
import { notify } from "../../notices";
import type { OrderRow } from "../orders/order-row";
import { moveOrder } from "../orders/state";

export const NOTICE_GROUP_OPENED = "group_opened";
export const NOTICE_GROUP_JOINED = "group_joined";
export const NOTICE_GROUP_COMPLETE = "group_complete";
export const NOTICE_GROUP_FAILED = "group_failed";

/** Locks the order's group row for the rest of the transaction and reads it with its campaign. */
async function lockGroup(trx: Transaction<DB>, groupId: number) {
  return trx
    .selectFrom("groups")
    .innerJoin("group_campaigns as c", "c.id", "groups.campaign_id")
    .select([
      "groups.id",
      "groups.group_no",
      "groups.leader_id",
      "groups.group_size",
      "groups.state",
      "groups.paid_count",
      "groups.expires_at",
      "c.valid_hours",
    ])
    .where("groups.id", "=", groupId)
    .forUpdate("groups")
    .executeTakeFirst();
}

/** The group is full: every paid member's order completes, everyone is enrolled and told. */
async function completeGroup(trx: Transaction<DB>, groupId: number, groupNo: string, at: Date) {
  const done = await trx
    .updateTable("groups")
    .set({ state: "complete", completed_at: at })
    .where("id", "=", groupId)
    .where("state", "=", "open")
    .returning("id")
    .executeTakeFirst();
  if (!done) return;
  const members = await trx
    .selectFrom("group_members")
    .select(["user_id", "order_id"])
    .where("group_id", "=", groupId)
    .where("state", "=", "paid")
    .execute();
  for (const member of members) {
    const order = await moveOrder(trx, member.order_id, "paid", "completed", { completed_at: at, at });
    if (!order) continue;
    await enrolLearner(trx, member.user_id, order.item_id, "group", at);
    await notify(
      trx,
      member.user_id,
      NOTICE_GROUP_COMPLETE,
      "拼团成功",
      `《${order.title}》拼团已成团（团号 ${groupNo}），课程已解锁，现在就可以开始学习。订单号 ${order.order_no}。`,
      at,
    );
  }
}

/** pending → paid of a group order: the seat is paid; the group opens or completes. Returns the order as it ends. */
export async function groupPaid(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<OrderRow> {
  if (order.group_id === null) return order;
  const group = await lockGroup(trx, order.group_id);
  if (!group) return order;
  const seat = await trx
    .updateTable("group_members")
    .set({ state: "paid" })
    .where("group_id", "=", group.id)
    .where("order_id", "=", order.id)
    .where("state", "=", "held")
    .returning("user_id")
    .executeTakeFirst();
  if (!seat) return order;
  const paidCount = group.paid_count + 1;
  if (group.state === "forming") {
    // The leader paid: the group exists from now on, and its time starts.
    const expiresAt = new Date(at.getTime() + group.valid_hours * 3_600_000);
    await trx
      .updateTable("groups")
      .set({ state: "open", paid_count: paidCount, expires_at: expiresAt })
      .where("id", "=", group.id)
      .where("state", "=", "forming")
      .execute();
    await notify(
      trx,
      order.user_id,
      NOTICE_GROUP_OPENED,
      "拼团已开团",
      `你发起的《${order.title}》拼团已开团（团号 ${group.group_no}），还差 ${group.group_size - paidCount} 人成团。请在 ${group.valid_hours} 小时内邀请好友参团，未成团将自动全额退款。`,
      at,
    );
    return order;
  }
  // A failed group keeps the payment as paid: the group job refunds it with the others.
  await trx.updateTable("groups").set({ paid_count: paidCount }).where("id", "=", group.id).execute();
  const inTime = group.state === "open" && group.expires_at !== null && group.expires_at > at;
  if (inTime && paidCount >= group.group_size) {
    await completeGroup(trx, group.id, group.group_no, at);
    const final = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirst();
    return final ?? order;
  }
  if (inTime) {
    await notify(
      trx,
      order.user_id,
      NOTICE_GROUP_JOINED,
      "参团成功",
      `你已参加《${order.title}》的拼团（团号 ${group.group_no}），还差 ${group.group_size - paidCount} 人成团。成团后课程自动解锁；到时未成团将全额原路退款。`,
      at,
    );
  }
  return order;
}

/** A group order closed unpaid: its held seat is released; a group whose leader never paid is abandoned. */
export async function groupOrderClosed(trx: Transaction<DB>, order: OrderRow, at: Date): Promise<void> {
  if (order.group_id === null) return;
  const group = await lockGroup(trx, order.group_id);
  if (!group) return;
  const released = await trx
    .updateTable("group_members")
    .set({ state: "released", held_until: at })
    .where("group_id", "=", group.id)
    .where("order_id", "=", order.id)
    .where("state", "=", "held")
    .returning("user_id")
    .executeTakeFirst();
  if (!released) return;
  await trx
    .updateTable("groups")
    .set((eb) => ({ seats_taken: eb("seats_taken", "-", 1) }))
    .where("id", "=", group.id)
    .where("seats_taken", ">", 0)
    .execute();
  if (group.state === "forming" && group.leader_id === order.user_id) {
    await trx
      .updateTable("groups")
      .set({ state: "abandoned", failed_at: at })
      .where("id", "=", group.id)
      .where("state", "=", "forming")
      .execute();
  }
}

/**
 * A group order's refund finished: the member's seat is marked refunded (the group keeps its
 * history), and the course enrolment the completed group gave is taken back.
 */
export async function groupRefunded(trx: Transaction<DB>, order: OrderRow, _at: Date): Promise<void> {
  if (order.group_id !== null) {
    await trx
      .updateTable("group_members")
      .set({ state: "refunded" })
      .where("group_id", "=", order.group_id)
      .where("order_id", "=", order.id)
      .where("state", "=", "paid")
      .execute();
  }
  if (order.item_type === "course") await unenrolLearner(trx, order.user_id, order.item_id, "group");
}

/** The group of a group order. */
export async function groupInfoOf(db: Kysely<DB>, order: OrderRow): Promise<GroupInfo | null> {
  if (order.group_id === null) return null;
  const group = await db
    .selectFrom("groups")
    .select(["group_no", "state", "group_size", "paid_count", "expires_at"])
    .where("id", "=", order.group_id)
    .executeTakeFirst();
  if (!group) return null;
  return {
    groupNo: group.group_no,
    state: group.state,
    stateLabel: GROUP_STATE_LABELS[group.state],
    groupSize: group.group_size,
    paidCount: group.paid_count,
    expiresAt: group.expires_at?.toISOString() ?? null,
  };
}

/** The group purpose's hooks. */
export const groupPurpose: OrderPurposeHooks = {
  paid: groupPaid,
  closed: groupOrderClosed,
  refunded: groupRefunded,
  details: async (db, order) => ({ group: await groupInfoOf(db, order) }),
};
