/**
 * Group buying (DESIGN §4): starting a group (the leader's seat and order, the group exists once
 * they pay) and joining one (a seat taken by a conditional increment and held while the joiner
 * pays). Reading a course's open groups and one group's page is in `read.ts`.
 *
 * A learner's starts and joins run one at a time (their user row is locked first), so "one open
 * group per learner per campaign" and "one seat per learner per group" hold under concurrent
 * requests; the seat count itself is a compare-and-set on the group row, so a group of N never
 * has more than N seats taken however many join at once.
 */
import { randomInt } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { chinaDate } from "../../../shared/china-time";
import { GROUP_PAY_MINUTES, type GroupMemberState, type GroupState } from "../../../shared/contracts/groups";
import type { OrderDetail } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { ownsCourse } from "../enrolments/enrolments";
import { insertOrder } from "../orders/create";
import { orderDetail } from "../orders/read";
import { requireBuying } from "../../providers/payments/gateways";
import { closePending } from "../orders/state";

const conflict = (code: string, message: string) => new ApiError(409, code, message);
export const groupNotFound = () => notFound("拼团不存在");
const ownGroup = () => conflict("own_group", "这是你发起的拼团，邀请好友来参团吧");
const EXPIRED_REASON = "超时未支付，订单已自动关闭";

/** A group exists for others once its leader has paid; before that (or when they never did) only the leader sees it. */
export function isPublic(state: GroupState): boolean {
  return state !== "forming" && state !== "abandoned";
}

export interface GroupOrderResult {
  order: OrderDetail;
  groupNo: string;
  reused: boolean;
}

/** "GB" + the China date (YYMMDD) + 8 random digits. */
function newGroupNo(now: Date): string {
  const yymmdd = chinaDate(now).slice(2).replace(/-/g, "");
  return `GB${yymmdd}${String(randomInt(0, 100_000_000)).padStart(8, "0")}`;
}

/** One learner's group starts and joins run one after another (see the file's comment). */
async function lockLearner(trx: Transaction<DB>, userId: number) {
  await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
}

/** The learner's seat (as leader or member) in a forming or open group of the campaign, other than `exceptGroupId`. */
export async function seatInCampaign(
  db: Kysely<DB> | Transaction<DB>,
  userId: number,
  campaignId: number,
  exceptGroupId = 0,
) {
  return db
    .selectFrom("group_members as m")
    .innerJoin("groups", "groups.id", "m.group_id")
    .innerJoin("orders", "orders.id", "m.order_id")
    .select([
      "groups.id",
      "groups.group_no",
      "groups.leader_id",
      "groups.state",
      "orders.id as order_id",
      "orders.order_no",
      "orders.state as order_state",
      "orders.expires_at as order_expires_at",
    ])
    .where("m.user_id", "=", userId)
    .where("m.state", "in", ["held", "paid"])
    .where("groups.campaign_id", "=", campaignId)
    .where("groups.state", "in", ["forming", "open"])
    .where("groups.id", "<>", exceptGroupId)
    .executeTakeFirst();
}

export interface JoinFacts {
  state: GroupState;
  expiresAt: Date | null;
  seatsTaken: number;
  groupSize: number;
  isLeader: boolean;
  memberState: GroupMemberState | null;
  ownsCourse: boolean;
  otherGroupNo: string | null;
}

/** Why the learner cannot take a seat in the group now, or null when they can. */
export function joinRefusal(f: JoinFacts, now: Date): ApiError | null {
  if (f.isLeader) return ownGroup();
  if (f.memberState === "paid" || f.memberState === "held") return conflict("already_member", "你已在这个团中");
  if (f.state === "complete") return conflict("group_complete", "该团已成团，可以发起新的拼团");
  if (f.state !== "open" || f.expiresAt === null || f.expiresAt <= now) return conflict("group_ended", "拼团已结束");
  if (f.ownsCourse) return conflict("already_owned", "你已拥有该课程");
  if (f.otherGroupNo) return conflict("in_other_group", `你已参加了这门课的另一个拼团（团号 ${f.otherGroupNo}）`);
  if (f.seatsTaken >= f.groupSize) return conflict("group_full", "该团已满");
  return null;
}

/** The learner's order for a seat: the course, one copy at the group price, payable until `expiresAt`. */
function insertGroupOrder(
  trx: Transaction<DB>,
  userId: number,
  group: { id: number; course_id: number; title: string; group_price_cents: number },
  expiresAt: Date,
  now: Date,
) {
  return insertOrder(trx, {
    userId,
    purpose: "group",
    itemType: "course",
    itemId: group.course_id,
    skuId: null,
    quantity: 1,
    title: group.title,
    skuName: null,
    unitPriceCents: group.group_price_cents,
    couponId: null,
    couponDiscountCents: 0,
    physical: false,
    address: null,
    groupId: group.id,
    expiresAt,
    now,
  });
}

/** Holds the learner's seat for the order (a seat they had released is held again); false if they hold or paid one. */
async function holdSeat(
  trx: Transaction<DB>,
  groupId: number,
  userId: number,
  orderId: number,
  heldUntil: Date,
  now: Date,
): Promise<boolean> {
  const seat = { order_id: orderId, state: "held" as const, held_until: heldUntil, joined_at: now };
  const held = await trx
    .insertInto("group_members")
    .values({ group_id: groupId, user_id: userId, ...seat })
    .onConflict((oc) =>
      oc.columns(["group_id", "user_id"]).doUpdateSet(seat).where("group_members.state", "=", "released"),
    )
    .returning("user_id")
    .executeTakeFirst();
  return held !== undefined;
}

const campaignColumns = [
  "c.id as campaign_id",
  "c.course_id",
  "c.group_size as campaign_size",
  "c.group_price_cents",
  "c.valid_hours",
  "courses.title",
] as const;

/**
 * Starts a group: the group (待团长支付), the leader's held seat and their order at the group
 * price, payable for 15 minutes. The learner's unpaid start of the same campaign is given back
 * instead of a second one; one that ran out of time is closed first.
 */
export async function startGroup(ctx: ApiContext, userId: number, campaignId: number): Promise<GroupOrderResult> {
  requireBuying(ctx);
  const now = ctx.now();
  const outcome = await ctx.database.db.transaction().execute(async (trx) => {
    await lockLearner(trx, userId);
    const campaign = await trx
      .selectFrom("group_campaigns as c")
      .innerJoin("courses", "courses.id", "c.course_id")
      .select(campaignColumns)
      .where("c.id", "=", campaignId)
      .where("c.active", "=", true)
      .where("c.starts_at", "<=", now)
      .where("c.ends_at", ">", now)
      .where("courses.status", "=", "published")
      .executeTakeFirst();
    if (!campaign) throw notFound("拼团活动不存在或已结束");
    if (await ownsCourse(trx, userId, campaign.course_id)) throw conflict("already_owned", "你已拥有该课程");
    const seat = await seatInCampaign(trx, userId, campaign.campaign_id);
    if (seat && seat.leader_id === userId && seat.state === "forming") {
      if (seat.order_state === "pending" && seat.order_expires_at > now)
        return { orderNo: seat.order_no, groupNo: seat.group_no, reused: true };
      // Its time ran out before the order job closed it: the group is abandoned, a new one starts.
      await closePending(trx, seat.order_id, EXPIRED_REASON, now);
    } else if (seat) {
      throw seat.leader_id === userId
        ? conflict("group_exists", `你已发起了这门课的拼团（团号 ${seat.group_no}），邀请好友参团吧`)
        : conflict("in_other_group", `你已参加了这门课的另一个拼团（团号 ${seat.group_no}）`);
    }
    let group: { id: number; group_no: string } | undefined;
    // A number already taken today (1 in 10⁸ per group) is simply drawn again.
    for (let attempt = 0; attempt < 5 && !group; attempt++) {
      group = await trx
        .insertInto("groups")
        .values({
          group_no: newGroupNo(now),
          campaign_id: campaign.campaign_id,
          leader_id: userId,
          group_size: campaign.campaign_size,
          state: "forming",
          seats_taken: 1,
          created_at: now,
        })
        .onConflict((oc) => oc.column("group_no").doNothing())
        .returning(["id", "group_no"])
        .executeTakeFirst();
    }
    if (!group) throw new ApiError(503, "group_no_busy", "发起拼团的人太多，请稍后再试");
    const expiresAt = new Date(now.getTime() + GROUP_PAY_MINUTES * 60_000);
    const order = await insertGroupOrder(trx, userId, { ...campaign, id: group.id }, expiresAt, now);
    // A brand-new group has no order or seat yet, so neither insert can meet an existing one.
    if (!order || !(await holdSeat(trx, group.id, userId, order.id, expiresAt, now)))
      throw new ApiError(500, "internal", "订单创建失败，请稍后再试");
    return { orderNo: order.order_no, groupNo: group.group_no, reused: false };
  });
  return { ...outcome, order: await orderDetail(ctx, userId, outcome.orderNo) };
}

/**
 * Joins an open group: in one transaction a seat (conditional increment), the member row (a
 * released seat of the same learner is taken again) and the order at the group price, payable
 * for 15 minutes or until the group's deadline if that comes first. A held seat whose order is
 * still payable is given back instead.
 */
export async function joinGroup(ctx: ApiContext, userId: number, groupNo: string): Promise<GroupOrderResult> {
  requireBuying(ctx);
  const now = ctx.now();
  const outcome = await ctx.database.db.transaction().execute(async (trx) => {
    await lockLearner(trx, userId);
    const group = await trx
      .selectFrom("groups")
      .innerJoin("group_campaigns as c", "c.id", "groups.campaign_id")
      .innerJoin("courses", "courses.id", "c.course_id")
      .select([...campaignColumns, "groups.id", "groups.leader_id", "groups.state"])
      .where("groups.group_no", "=", groupNo)
      .executeTakeFirst();
    if (!group || (!isPublic(group.state) && group.leader_id !== userId)) throw groupNotFound();
    if (group.leader_id === userId) throw ownGroup();
    const mine = await trx
      .selectFrom("group_members as m")
      .innerJoin("orders", "orders.id", "m.order_id")
      .select([
        "m.state",
        "orders.id as order_id",
        "orders.order_no",
        "orders.state as order_state",
        "orders.expires_at",
      ])
      .where("m.group_id", "=", group.id)
      .where("m.user_id", "=", userId)
      .executeTakeFirst();
    let memberState = mine?.state ?? null;
    if (mine?.state === "held") {
      if (mine.order_state === "pending" && mine.expires_at > now) return { orderNo: mine.order_no, reused: true };
      // Paid for too late to keep the seat: it is released here, and may be taken again below.
      await closePending(trx, mine.order_id, EXPIRED_REASON, now);
      memberState = "released";
    }
    const refusal = async () => {
      const current = await trx
        .selectFrom("groups")
        .select(["state", "expires_at", "seats_taken", "group_size"])
        .where("id", "=", group.id)
        .executeTakeFirstOrThrow();
      const other = await seatInCampaign(trx, userId, group.campaign_id, group.id);
      return joinRefusal(
        {
          state: current.state,
          expiresAt: current.expires_at,
          seatsTaken: current.seats_taken,
          groupSize: current.group_size,
          isLeader: group.leader_id === userId,
          memberState,
          ownsCourse: await ownsCourse(trx, userId, group.course_id),
          otherGroupNo: other?.group_no ?? null,
        },
        now,
      );
    };
    const refused = await refusal();
    if (refused) throw refused;
    const seat = await trx
      .updateTable("groups")
      .set((eb) => ({ seats_taken: eb("seats_taken", "+", 1) }))
      .where("id", "=", group.id)
      .where("state", "=", "open")
      .where((eb) => eb("seats_taken", "<", eb.ref("group_size")))
      .where("expires_at", ">", now)
      .returning("expires_at")
      .executeTakeFirst();
    if (!seat?.expires_at) throw (await refusal()) ?? conflict("group_full", "该团已满");
    const payBy = new Date(now.getTime() + GROUP_PAY_MINUTES * 60_000);
    const expiresAt = seat.expires_at < payBy ? seat.expires_at : payBy;
    const order = await insertGroupOrder(trx, userId, group, expiresAt, now);
    if (!order || !(await holdSeat(trx, group.id, userId, order.id, expiresAt, now)))
      throw conflict("already_member", "你已在这个团中");
    return { orderNo: order.order_no, reused: false };
  });
  return { ...outcome, groupNo, order: await orderDetail(ctx, userId, outcome.orderNo) };
}
