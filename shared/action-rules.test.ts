import { describe, expect, it } from "vitest";
import { bookingRule, checkoutRule, coinExchangeRule, coursePurchaseRule, refundRule } from "./action-rules";

describe("bookingRule (预约)", () => {
  it("allows a scheduled session to viewers who may enter it", () => {
    for (const access of ["open", "enrolled", "host"] as const) {
      expect(bookingRule({ access, state: "scheduled", courseTitle: "楷书入门" })).toEqual({ ok: true });
    }
  });
  it("refuses a learner who has not joined the course, naming it, as an access refusal", () => {
    expect(bookingRule({ access: "not_enrolled", state: "scheduled", courseTitle: "楷书入门" })).toEqual({
      ok: false,
      reason: "报名《楷书入门》后才能预约这场直播",
      kind: "access",
    });
    expect(bookingRule({ access: "sign_in", state: "scheduled", courseTitle: null })).toMatchObject({ kind: "access" });
  });
  it("refuses sessions that are not scheduled, as a state refusal", () => {
    expect(bookingRule({ access: "enrolled", state: "live", courseTitle: null })).toMatchObject({
      reason: "直播已经开始，直接进入直播间即可",
      kind: "state",
    });
    expect(bookingRule({ access: "enrolled", state: "cancelled", courseTitle: null })).toMatchObject({
      reason: "本场直播已取消",
    });
    expect(bookingRule({ access: "open", state: "replay", courseTitle: null })).toMatchObject({
      reason: "本场直播已结束",
    });
  });
});

describe("coinExchangeRule (确认兑换)", () => {
  it("refuses at fewer coins than one bishan, and names what is needed", () => {
    expect(coinExchangeRule({ coins: 0, bishan: 1, coinsPerBishan: 100 })).toEqual({
      ok: false,
      reason: "金币余额不足：兑换 1 个笔山需要 100 金币，当前 0 金币",
    });
    expect(coinExchangeRule({ coins: 150, bishan: 2, coinsPerBishan: 100 })).toEqual({
      ok: false,
      reason: "金币余额不足：需要 200 金币，当前 150 金币",
    });
  });
  it("allows exactly enough", () => {
    expect(coinExchangeRule({ coins: 200, bishan: 2, coinsPerBishan: 100 })).toEqual({ ok: true });
  });
});

describe("coursePurchaseRule (立即购买)", () => {
  it("refuses the course's own teacher and an owner, allows anyone else", () => {
    expect(coursePurchaseRule({ teaches: true, enrolled: false })).toEqual({
      ok: false,
      reason: "这是你自己讲授的课程，无需购买",
    });
    expect(coursePurchaseRule({ teaches: false, enrolled: true })).toMatchObject({ ok: false });
    expect(coursePurchaseRule({ teaches: false, enrolled: false })).toEqual({ ok: true });
  });
});

describe("checkoutRule (提交订单)", () => {
  it("asks to save the address being written, or to choose one", () => {
    expect(checkoutRule({ addressChosen: false, editing: true })).toEqual({ ok: false, reason: "请先保存收货地址" });
    expect(checkoutRule({ addressChosen: true, editing: true })).toEqual({ ok: false, reason: "请先保存收货地址" });
    expect(checkoutRule({ addressChosen: false, editing: false })).toEqual({
      ok: false,
      reason: "请先选择或新增收货地址",
    });
    expect(checkoutRule({ addressChosen: true, editing: false })).toEqual({ ok: true });
  });
});

describe("refundRule (申请退款)", () => {
  const now = new Date("2026-05-20T00:00:00Z");
  const day = 86_400_000;
  const course = {
    purpose: "buy" as const,
    state: "paid",
    physical: false,
    paidAt: new Date(now.getTime() - 2 * day),
    completedAt: null,
    consumed: false,
  };
  it("a course within the days and not started: allowed", () => {
    expect(refundRule(course, now, 7).allowed).toBe(true);
  });
  it("a course already started, or past the days: refused with the reason", () => {
    expect(refundRule({ ...course, consumed: true }, now, 7)).toEqual({
      allowed: false,
      reason: "课程已开始学习，按退款规则不能再申请退款",
    });
    expect(refundRule({ ...course, paidAt: new Date(now.getTime() - 8 * day) }, now, 7)).toEqual({
      allowed: false,
      reason: "已超过 7 天退款期限，无法退款",
    });
  });
  it("goods: before shipping allowed; received more than the days ago refused", () => {
    const goods = { ...course, physical: true };
    expect(refundRule(goods, now, 7).allowed).toBe(true);
    expect(
      refundRule({ ...goods, state: "completed", completedAt: new Date(now.getTime() - 9 * day) }, now, 7),
    ).toEqual({ allowed: false, reason: "已超过确认收货后 7 天的退货期限" });
  });
  it("gifts, group buys in progress and closed orders are refused", () => {
    expect(refundRule({ ...course, purpose: "gift" }, now, 7).allowed).toBe(false);
    expect(refundRule({ ...course, purpose: "group" }, now, 7).allowed).toBe(false);
    expect(refundRule({ ...course, state: "refunded" }, now, 7).reason).toBe("订单已退款");
  });
});
