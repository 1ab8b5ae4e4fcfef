/**
 * A frozen account (deletion requested, cooling-off running) per the deletion agreement: every
 * paying, exchanging, earning, booking, homework and live-chat action is refused with one message that says how to
 * withdraw the request; coins from learning events are not credited; withdrawing lifts it all.
 */
import { describe, expect, it } from "vitest";
import { frozenAccountMessage } from "../../shared/contracts/me";
import { checkInToday } from "../../api/modules/practice/diary";
import { commerceHarness, idem, type Learner } from "./commerce";
import { lastCodeFor } from "./helpers";

const { api, db, learner, call, paidCourse, notifySandbox } = commerceHarness("135");

async function freeze(who: Learner) {
  const { phone } = await db().selectFrom("users").select("phone").where("id", "=", who.id).executeTakeFirstOrThrow();
  expect((await call(who, "POST", "/api/me/deletion/code", { channel: "sms" })).status).toBe(200);
  const asked = await call(who, "POST", "/api/me/deletion", {
    confirm: "注销",
    channel: "sms",
    code: lastCodeFor(api().outbox, phone!),
  });
  expect(asked.status).toBe(200);
  expect(asked.body.status).toBe("deleting");
}

const coinBalance = async (who: Learner) => (await call(who, "GET", "/api/wallet")).body.balances.coin as number;

describe("a frozen account", () => {
  it("is refused paying, exchanging, earning and booking, each with how to withdraw the deletion", async () => {
    const me = await learner();
    const course = await paidCourse(3);
    // Before the request: coins to spend and an order waiting for payment.
    expect((await call(me, "POST", "/api/wallet/__test/grant", { currency: "coin", amount: 500 })).status).toBe(200);
    const pending = await call(me, "POST", "/api/orders", { itemType: "course", itemId: course.id }, idem());
    expect(pending.status).toBe(201);
    // Another learner's open group to join.
    const campaign = await db().selectFrom("group_campaigns").select("id").orderBy("id").executeTakeFirstOrThrow();
    const leader = await learner();
    const started = await call(leader, "POST", "/api/groups", { campaignId: campaign.id }, idem());
    expect(started.status).toBe(201);
    await notifySandbox(started.body.order.orderNo, started.body.order.payCents);
    const item = (await call(me, "GET", "/api/wallet/items")).body.items[0];
    const live = await db().selectFrom("live_sessions").select("id").orderBy("id").executeTakeFirstOrThrow();

    await freeze(me);
    const before = await coinBalance(me);

    const attempts: [string, string, string, unknown, Record<string, string>?][] = [
      ["购买或支付", "POST", "/api/orders", { itemType: "course", itemId: (await paidCourse(4)).id }, idem()],
      ["购买或支付", "POST", `/api/payments/${pending.body.order.orderNo}/start`, { method: "sandbox" }],
      ["购买或支付", "POST", "/api/gifts", { courseId: course.id }, idem()],
      ["购买或支付", "POST", "/api/groups", { campaignId: campaign.id }, idem()],
      ["购买或支付", "POST", `/api/groups/${started.body.groupNo}/join`, {}, idem()],
      ["兑换", "POST", "/api/wallet/exchange", { bishan: 1 }, idem()],
      ["兑换", "POST", `/api/wallet/items/${item.id}/redeem`, {}, idem()],
      ["签到领金币", "POST", "/api/wallet/check-in", undefined],
      ["领取优惠券", "POST", "/api/coupons/claim", { templateId: 1 }],
      ["提交作业", "POST", "/api/homework/tasks/1/submissions", { photoIds: ["photo-1"] }, idem()],
      ["在直播间发言", "POST", `/api/live/${live.id}/messages`, { body: "老师好" }],
      ["签到", "POST", `/api/live/${live.id}/check-in`, {}],
      ["预约", "POST", `/api/live/${live.id}/booking`, {}],
      [
        "报名",
        "POST",
        "/api/activities/experience",
        { name: "王小明", phone: "13512345678", category: "kaishu", grade: "primary_lower" },
      ],
    ];
    for (const [action, method, path, body, headers] of attempts) {
      const res = await call(me, method, path, body, headers);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code, path).toBe("account_frozen");
      expect(res.body.error.message, path).toBe(frozenAccountMessage(action));
      expect(res.body.error.message).toContain("撤销注销申请");
    }
    // Earning by learning events: nothing is credited while frozen.
    const direct = await checkInToday(api(), me.id);
    expect(direct.earned).toBe(0);
    expect(await coinBalance(me)).toBe(before);
    const paidOrders = await db()
      .selectFrom("orders")
      .select("id")
      .where("user_id", "=", me.id)
      .where("state", "=", "paid")
      .execute();
    expect(paidOrders).toHaveLength(0);

    // Withdrawn: the same actions work again.
    expect((await call(me, "POST", "/api/me/deletion/cancel", {})).status).toBe(200);
    const checked = await call(me, "POST", "/api/wallet/check-in");
    expect(checked.status).toBe(200);
    expect(await coinBalance(me)).toBeGreaterThan(before);
    expect((await call(me, "POST", "/api/wallet/exchange", { bishan: 1 }, idem())).status).toBe(200);
  });
});
