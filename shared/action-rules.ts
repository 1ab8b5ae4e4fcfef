/**
 * Whether an action offered on a page can succeed, and why not in plain words. Each rule is pure:
 * the server calls it with what it read from the database (and stays the source of truth), the
 * page calls it with what the API told it, so a button is shown only when it can succeed, or
 * disabled with the same reason beside it.
 */
import type { LiveAccess } from "./contracts/live";

export type Rule = { ok: true } | { ok: false; reason: string };
const OK: Rule = { ok: true };
const no = (reason: string): Rule => ({ ok: false, reason });

/** 预约 on a live session: signed in, allowed into the room, and before it starts. */
export function bookingRule(input: {
  access: LiveAccess;
  /** The session's state at the time asked (scheduled, live, ended, processing, replay, cancelled). */
  state: string;
  courseTitle: string | null;
}): Rule & { kind?: "access" | "state" } {
  if (input.access === "sign_in") return { ...no("登录后才能预约"), kind: "access" };
  if (input.access === "not_enrolled") {
    return {
      ...no(input.courseTitle ? `报名《${input.courseTitle}》后才能预约这场直播` : "报名课程后才能预约这场直播"),
      kind: "access",
    };
  }
  if (input.state === "live") return { ...no("直播已经开始，直接进入直播间即可"), kind: "state" };
  if (input.state === "cancelled") return { ...no("本场直播已取消"), kind: "state" };
  if (input.state !== "scheduled") return { ...no("本场直播已结束"), kind: "state" };
  return OK;
}

/** 确认兑换 coins into bishan: enough coins for the amount asked (at least one bishan's worth). */
export function coinExchangeRule(input: { coins: number; bishan: number; coinsPerBishan: number }): Rule {
  const need = Math.max(1, input.bishan) * input.coinsPerBishan;
  if (input.coins < input.coinsPerBishan) {
    return no(`金币余额不足：兑换 1 个笔山需要 ${input.coinsPerBishan} 金币，当前 ${input.coins} 金币`);
  }
  if (input.coins < need) return no(`金币余额不足：需要 ${need} 金币，当前 ${input.coins} 金币`);
  return OK;
}

/** 立即购买 a course: not by the course's own teacher, not twice. */
export function coursePurchaseRule(input: { teaches: boolean; enrolled: boolean }): Rule {
  if (input.teaches) return no("这是你自己讲授的课程，无需购买");
  if (input.enrolled) return no("你已拥有该课程");
  return OK;
}

/** 提交订单 of goods sent by post: an address chosen and saved. */
export function checkoutRule(input: { addressChosen: boolean; editing: boolean }): Rule {
  if (input.editing) return no("请先保存收货地址");
  if (!input.addressChosen) return no("请先选择或新增收货地址");
  return OK;
}

/** What the refund rule looks at in an order. */
export interface RefundFacts {
  purpose: "buy" | "gift" | "group";
  state: string;
  physical: boolean;
  paidAt: Date | null;
  completedAt: Date | null;
  /** Course orders: whether a lesson of the course was already watched. */
  consumed: boolean;
}

/** 申请退款: whether the learner may ask for a refund now, and why (not) in plain words. */
export function refundRule(order: RefundFacts, now: Date, refundDays: number): { allowed: boolean; reason: string } {
  const within = (from: Date | null) => from !== null && now.getTime() - from.getTime() <= refundDays * 86_400_000;
  if (order.purpose === "gift")
    return { allowed: false, reason: "赠送的课程请在礼物信息中申请退款（领取期满仍未被领取时可退）" };
  if (order.purpose === "group" && order.state === "paid")
    return { allowed: false, reason: "拼团进行中，未能成团时会自动全额退款" };
  switch (order.state) {
    case "pending":
      return { allowed: false, reason: "订单尚未支付，可直接取消订单" };
    case "cancelled":
      return { allowed: false, reason: "订单已取消" };
    case "refunding":
      return { allowed: false, reason: "退款正在处理中" };
    case "refunded":
      return { allowed: false, reason: "订单已退款" };
    default:
      break;
  }
  if (!order.physical) {
    if (!within(order.paidAt)) return { allowed: false, reason: `已超过 ${refundDays} 天退款期限，无法退款` };
    if (order.consumed) return { allowed: false, reason: "课程已开始学习，按退款规则不能再申请退款" };
    return { allowed: true, reason: `购买 ${refundDays} 天内且未开始学习，可全额退款` };
  }
  if (order.state === "paid" || order.state === "awaiting_shipment")
    return { allowed: true, reason: "商品尚未发货，可全额退款" };
  if (order.state === "shipped") return { allowed: true, reason: `收货后 ${refundDays} 天内可退货退款` };
  if (order.state === "completed" || (order.state === "partially_refunded" && order.completedAt)) {
    if (!within(order.completedAt)) return { allowed: false, reason: `已超过确认收货后 ${refundDays} 天的退货期限` };
    return { allowed: true, reason: `确认收货 ${refundDays} 天内可退货退款` };
  }
  return { allowed: false, reason: "当前状态不能申请退款" };
}

/** 报名 an activity: signed in, not already signed up, not ended, and a place left under the cap. */
export function activitySignUpRule(input: {
  signedIn: boolean;
  state: "upcoming" | "ongoing" | "ended";
  signedUp: boolean;
  capacity: number | null;
  signedUpCount: number;
}): Rule {
  if (!input.signedIn) return no("登录后才能报名活动");
  if (input.signedUp) return no("你已报名这个活动");
  if (input.state === "ended") return no("活动已结束，报名已关闭");
  if (input.capacity !== null && input.signedUpCount >= input.capacity) return no("名额已满，报名已截止");
  return OK;
}

/** 打卡 in an activity: signed up, the activity running, and not yet today. */
export function activityCheckInRule(input: {
  signedIn: boolean;
  state: "upcoming" | "ongoing" | "ended";
  signedUp: boolean;
  checkedInToday: boolean;
}): Rule {
  if (!input.signedIn) return no("登录并报名后才能打卡");
  if (!input.signedUp) return no("报名活动后才能打卡");
  if (input.state === "upcoming") return no("活动还没开始，开始后每天可以打卡一次");
  if (input.state === "ended") return no("活动已结束，不能再打卡");
  if (input.checkedInToday) return no("今天已经打过卡了，明天再来");
  return OK;
}
