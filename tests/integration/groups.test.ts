/**
 * Group buying (issue "Commerce" §5) on the demo campaigns: a group from its leader's payment to
 * complete (everyone enrolled, orders completed, notices), what others may see of it, every way
 * a join is refused, a held seat freed by the order job and taken again, and — on PostgreSQL,
 * where requests really run at once — 30 learners racing for 2 seats, one learner joining twice
 * at once, and two job runs racing to fail and refund an expired group with coupons and coins on
 * its orders. Concurrent requests go over real sockets (separate pooled connections).
 */
import { describe, expect, it } from "vitest";
import { commerceHarness, DAY, idem, type Json, type Learner } from "./commerce";
import { runOrderJob } from "../../api/jobs/commerce";
import { runGroupJob } from "../../api/modules/groups/job";

const { api, db, base, later, learner, call, notifySandbox, orderRow } = commerceHarness("139");
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const HOUR = 3_600_000;
const MINUTE = 60_000;

const start = (who: Learner, campaignId: number) => call(who, "POST", "/api/groups", { campaignId }, idem());
const join = (who: Learner, groupNo: string) => call(who, "POST", `/api/groups/${groupNo}/join`, {}, idem());
const detail = (who: Learner | null, groupNo: string) => call(who, "GET", `/api/groups/${groupNo}`);

/** The `skip`-th seeded campaign of a group size, with its course. */
async function campaign(size: number, skip = 0) {
  const rows = await db()
    .selectFrom("group_campaigns as c")
    .innerJoin("courses", "courses.id", "c.course_id")
    .select(["c.id", "c.course_id", "c.group_price_cents", "courses.title", "courses.price_cents"])
    .where("c.group_size", "=", size)
    .orderBy("c.id")
    .execute();
  expect(rows.length).toBeGreaterThan(0);
  return rows[skip % rows.length]!;
}

async function pay(order: { orderNo: string; payCents: number }) {
  const res = await notifySandbox(order.orderNo, order.payCents);
  expect(res.body.outcome).toBe("credited");
}

/** A group whose leader has paid: open, with its clock running. */
async function openedGroup(size = 3, skip = 0) {
  const c = await campaign(size, skip);
  const leader = await learner();
  const started = await start(leader, c.id);
  expect(started.status).toBe(201);
  await pay(started.body.order);
  return { c, leader, groupNo: started.body.groupNo as string, leaderOrder: started.body.order.orderNo as string };
}

async function joinAndPay(who: Learner, groupNo: string): Promise<string> {
  const joined = await join(who, groupNo);
  expect(joined.status).toBe(201);
  await pay(joined.body.order);
  return joined.body.order.orderNo;
}

async function groupRow(groupNo: string) {
  return db().selectFrom("groups").selectAll().where("group_no", "=", groupNo).executeTakeFirstOrThrow();
}

async function membersOf(groupNo: string) {
  const g = await groupRow(groupNo);
  return db().selectFrom("group_members").selectAll().where("group_id", "=", g.id).orderBy("joined_at").execute();
}

async function noticeKinds(userId: number) {
  const rows = await db().selectFrom("notifications").select("kind").where("user_id", "=", userId).execute();
  return rows.map((n) => n.kind);
}

async function enrolments(courseId: number, userIds: number[]) {
  return db()
    .selectFrom("enrolments")
    .select(["user_id", "source"])
    .where("course_id", "=", courseId)
    .where("user_id", "in", userIds)
    .execute();
}

describe("a group from start to complete", () => {
  it("the leader's payment opens it with a 24 h clock; two joiners fill it: all enrolled, orders completed, told", async () => {
    later(0);
    const c = await campaign(3);
    const courseBefore = await db()
      .selectFrom("courses")
      .select("learners_count")
      .where("id", "=", c.course_id)
      .executeTakeFirstOrThrow();
    const course = await call(null, "GET", `/api/courses/${c.course_id}`);
    expect(course.body.groupBuy).toEqual({
      campaignId: c.id,
      groupSize: 3,
      groupPriceCents: c.group_price_cents,
      validHours: 24,
    });
    expect(c.group_price_cents % 100).toBe(0);
    expect(c.group_price_cents / c.price_cents).toBeCloseTo(0.7, 1);

    const leader = await learner();
    const started = await start(leader, c.id);
    expect(started.status).toBe(201);
    const { groupNo, order } = started.body;
    expect(groupNo).toMatch(/^GB\d{14}$/);
    expect(order).toMatchObject({
      purpose: "group",
      itemType: "course",
      itemId: c.course_id,
      unitPriceCents: c.group_price_cents,
      payCents: c.group_price_cents,
      state: "pending",
      group: { groupNo, state: "forming", stateLabel: "待团长支付", groupSize: 3, paidCount: 0, expiresAt: null },
    });
    expect(Date.parse(order.expiresAt) - Date.parse(order.serverNow)).toBe(15 * MINUTE);
    // Asked again before paying: the same order.
    const again = await start(leader, c.id);
    expect(again.body).toMatchObject({ reused: true, groupNo, order: { orderNo: order.orderNo } });

    // Before the leader pays the group exists for the leader only.
    const forming = await detail(leader, groupNo);
    expect(forming.body).toMatchObject({ state: "forming", members: [], paying: 1, joinable: false });
    expect((await detail(null, groupNo)).status).toBe(404);
    const stranger = await learner();
    expect((await detail(stranger, groupNo)).status).toBe(404);
    expect((await join(stranger, groupNo)).status).toBe(404);

    await pay(order);
    const opened = await groupRow(groupNo);
    const paidAt = (await orderRow(order.orderNo)).paid_at!;
    expect(opened).toMatchObject({ state: "open", paid_count: 1, seats_taken: 1 });
    expect(opened.expires_at!.getTime() - paidAt.getTime()).toBe(24 * HOUR);
    expect((await call(leader, "GET", `/api/orders/${order.orderNo}`)).body).toMatchObject({
      state: "paid",
      stateLabel: "拼团中",
      refund: { allowed: false, reason: "拼团进行中，未能成团时会自动全额退款" },
      group: { groupNo, state: "open", paidCount: 1 },
    });
    const seen = await detail(null, groupNo);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      state: "open",
      stateLabel: "拼团中",
      groupSize: 3,
      seatsLeft: 2,
      paying: 0,
      joinable: true,
      viewer: null,
      expiresAt: opened.expires_at!.toISOString(),
      course: { id: c.course_id, priceCents: c.price_cents, groupPriceCents: c.group_price_cents },
    });
    expect(seen.body.members).toEqual([
      {
        nickname: expect.stringMatching(/^学\*\*\d$/),
        avatarUrl: null,
        leader: true,
        joinedAt: expect.any(String),
        refunded: false,
      },
    ]);
    expect(Math.abs(Date.parse(seen.body.serverNow) - Date.now())).toBeLessThan(5000);
    const listed = await call(null, "GET", `/api/groups?courseId=${c.course_id}`);
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({ groupNo, groupSize: 3, seatsLeft: 2, mine: false }),
    );
    expect((await call(leader, "GET", `/api/groups?courseId=${c.course_id}`)).body.items).toContainEqual(
      expect.objectContaining({ groupNo, mine: true }),
    );
    // The shared page renders for anyone.
    const page = await fetch(`${base()}/groupbuy/${groupNo}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<meta name="robots" content="noindex"/>`);

    const a = await learner();
    const joined = await join(a, groupNo);
    expect(joined.status).toBe(201);
    expect(Date.parse(joined.body.order.expiresAt) - Date.parse(joined.body.order.serverNow)).toBe(15 * MINUTE);
    const whileAPays = await detail(a, groupNo);
    expect(whileAPays.body).toMatchObject({
      paying: 1,
      seatsLeft: 1,
      viewer: { memberState: "held", payable: true, canJoin: false, orderNo: joined.body.order.orderNo },
    });
    expect(whileAPays.body.members).toHaveLength(1);
    await pay(joined.body.order);
    const b = await learner();
    const bOrder = await joinAndPay(b, groupNo);

    const done = await groupRow(groupNo);
    expect(done).toMatchObject({ state: "complete", paid_count: 3, seats_taken: 3 });
    for (const no of [order.orderNo, joined.body.order.orderNo, bOrder]) {
      expect((await orderRow(no)).state).toBe("completed");
    }
    const enrolled = await enrolments(c.course_id, [leader.id, a.id, b.id]);
    expect(enrolled).toHaveLength(3);
    expect(enrolled.every((e) => e.source === "group")).toBe(true);
    const courseAfter = await db()
      .selectFrom("courses")
      .select("learners_count")
      .where("id", "=", c.course_id)
      .executeTakeFirstOrThrow();
    expect(courseAfter.learners_count).toBe(courseBefore.learners_count + 3);
    expect(await noticeKinds(leader.id)).toEqual(expect.arrayContaining(["group_opened", "group_complete"]));
    expect(await noticeKinds(a.id)).toEqual(expect.arrayContaining(["group_joined", "group_complete"]));
    expect((await noticeKinds(b.id)).filter((k) => k === "group_complete")).toHaveLength(1);
    const finished = await detail(b, groupNo);
    expect(finished.body).toMatchObject({
      state: "complete",
      stateLabel: "已成团",
      joinable: false,
      viewer: { memberState: "paid", canJoin: false },
    });
    expect(finished.body.members.map((m: Json) => m.leader)).toEqual([true, false, false]);
    const lesson = await db()
      .selectFrom("lessons")
      .select("id")
      .where("course_id", "=", c.course_id)
      .where("is_trial", "=", false)
      .executeTakeFirstOrThrow();
    expect((await call(b, "GET", `/api/learning/lessons/${lesson.id}`)).body.access.allowed).toBe(true);
    // The completed group order follows the normal course refund rule now.
    expect((await call(b, "GET", `/api/orders/${bOrder}`)).body.refund.allowed).toBe(true);
  });

  it("unknown, malformed and never-paid groups are 404, in Chinese", async () => {
    const unknown = await detail(null, "GB99999999999999");
    expect(unknown).toMatchObject({ status: 404, body: { error: { message: "拼团不存在" } } });
    expect((await detail(null, "GB123")).status).toBe(404);
    expect((await call(null, "GET", "/api/groups/GB99999999999999/qr.svg")).status).toBe(404);
    expect((await join(await learner(), "GB99999999999999")).status).toBe(404);
    const page = await fetch(`${base()}/groupbuy/GB99999999999999`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(404);
    expect((await call(null, "GET", "/api/groups")).body.error.message).toBe("请指定课程");
    expect((await call(null, "GET", "/api/groups?courseId=abc")).status).toBe(400);
    const me = await learner();
    expect((await start(me, 99_999_999)).body.error.message).toBe("拼团活动不存在或已结束");
    expect((await call(me, "POST", "/api/groups", { campaignId: "1" }, idem())).status).toBe(400);
    expect((await call(me, "POST", "/api/groups", { campaignId: 1 })).status).toBe(400);
    expect((await call(null, "POST", "/api/groups", { campaignId: 1 }, idem())).status).toBe(401);

    // A leader who never pays: the order job closes the order and the group is abandoned.
    const c = await campaign(3, 1);
    const started = await start(me, c.id);
    later(16 * MINUTE);
    await runOrderJob(api());
    expect(await groupRow(started.body.groupNo)).toMatchObject({ state: "abandoned", seats_taken: 0 });
    expect((await detail(await learner(), started.body.groupNo)).status).toBe(404);
    // … and may start again.
    const anew = await start(me, c.id);
    expect(anew.status).toBe(201);
    expect(anew.body.groupNo).not.toBe(started.body.groupNo);
  });
});

describe("joining", () => {
  it("refuses the own group, a second seat, a full or ended group, another group of the campaign and an owned course", async () => {
    const { leader, groupNo, c } = await openedGroup(2);
    expect(await join(leader, groupNo)).toMatchObject({
      status: 409,
      body: { error: { code: "own_group", message: "这是你发起的拼团，邀请好友来参团吧" } },
    });
    // Another group of the same campaign: neither leading two nor sitting in two.
    const other = await start(leader, c.id);
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe(`你已发起了这门课的拼团（团号 ${groupNo}），邀请好友参团吧`);
    const owner = await learner();
    await db()
      .insertInto("enrolments")
      .values({ user_id: owner.id, course_id: c.course_id, source: "admin" })
      .execute();
    expect((await join(owner, groupNo)).body.error.message).toBe("你已拥有该课程");
    expect((await start(owner, c.id)).body.error.message).toBe("你已拥有该课程");
    expect((await detail(owner, groupNo)).body.viewer).toMatchObject({ canJoin: false, reason: "你已拥有该课程" });

    const second = await openedGroup(2);
    const mover = await learner();
    const held = await join(mover, second.groupNo);
    expect(held.status).toBe(201);
    // The same seat asked for again gives back the same order.
    expect((await join(mover, second.groupNo)).body).toMatchObject({
      reused: true,
      order: { orderNo: held.body.order.orderNo },
    });
    const elsewhere = await join(mover, groupNo);
    expect(elsewhere).toMatchObject({ status: 409, body: { error: { code: "in_other_group" } } });
    expect(elsewhere.body.error.message).toBe(`你已参加了这门课的另一个拼团（团号 ${second.groupNo}）`);
    expect((await start(mover, c.id)).body.error.code).toBe("in_other_group");
    // Size 2: the held seat fills the group until it is paid or released.
    const late = await learner();
    expect(await join(late, second.groupNo)).toMatchObject({ status: 409, body: { error: { message: "该团已满" } } });
    await pay(held.body.order);
    expect(await groupRow(second.groupNo)).toMatchObject({ state: "complete", paid_count: 2 });
    expect((await join(mover, second.groupNo)).body.error.message).toBe("你已在这个团中");
    expect((await join(late, second.groupNo)).body.error.message).toBe("该团已成团，可以发起新的拼团");

    // Past its deadline (before the job has run): ended.
    later(25 * HOUR);
    expect((await join(await learner(), groupNo)).body.error.message).toBe("拼团已结束");
    expect((await detail(null, groupNo)).body.joinable).toBe(false);
  });

  it("a seat held by an unpaid order is freed by the order job and can be taken again", async () => {
    const { groupNo } = await openedGroup(2, 0);
    const slow = await learner();
    const held = await join(slow, groupNo);
    expect(await groupRow(groupNo)).toMatchObject({ seats_taken: 2 });
    const waiting = await learner();
    expect((await join(waiting, groupNo)).body.error.message).toBe("该团已满");
    expect((await detail(waiting, groupNo)).body).toMatchObject({ paying: 1, seatsLeft: 0, joinable: false });

    later(16 * MINUTE);
    const job = await runOrderJob(api());
    expect(job.closed).toContain(held.body.order.orderNo);
    expect(await groupRow(groupNo)).toMatchObject({ seats_taken: 1, state: "open" });
    expect((await membersOf(groupNo)).map((m) => m.state)).toEqual(["paid", "released"]);
    // The released learner may come back with a new order; someone else could have taken it too.
    const back = await join(slow, groupNo);
    expect(back.status).toBe(201);
    expect(back.body.order.orderNo).not.toBe(held.body.order.orderNo);
    expect((await membersOf(groupNo)).map((m) => m.state)).toEqual(["paid", "held"]);
    await pay(back.body.order);
    expect(await groupRow(groupNo)).toMatchObject({ state: "complete", paid_count: 2, seats_taken: 2 });
  });
});

describe("an expired group", () => {
  it("fails, refunds its paid members once, closes the unpaid seat; a refused refund is tried again", async () => {
    const { leader, groupNo, leaderOrder, c } = await openedGroup(5);
    const paidJoiner = await learner();
    const joinerOrder = await joinAndPay(paidJoiner, groupNo);
    const unpaid = await learner();
    const unpaidOrder = (await join(unpaid, groupNo)).body.order.orderNo;
    // The provider refuses this refund at first (no such gateway configured).
    await db().updateTable("orders").set({ provider: "wechat" }).where("order_no", "=", joinerOrder).execute();

    later(24 * HOUR + MINUTE);
    // Groups other tests left open run out at this time too: only this one's numbers are looked at.
    const first = await runGroupJob(api());
    expect(first.failed).toContain(groupNo);
    expect(first.refunded).toContain(leaderOrder);
    expect(first.refundsFailed).toEqual([joinerOrder]);
    expect(first.closed).toContain(unpaidOrder);
    expect(await groupRow(groupNo)).toMatchObject({ state: "failed" });
    expect((await orderRow(leaderOrder)).state).toBe("refunded");
    expect((await orderRow(joinerOrder)).state).toBe("paid");
    expect((await orderRow(unpaidOrder)).state).toBe("cancelled");
    await db().updateTable("orders").set({ provider: "sandbox" }).where("order_no", "=", joinerOrder).execute();
    const second = await runGroupJob(api());
    expect(second).toEqual({ failed: [], refunded: [joinerOrder], refundsFailed: [], closed: [] });
    expect((await orderRow(joinerOrder)).state).toBe("refunded");
    expect((await membersOf(groupNo)).map((m) => m.state)).toEqual(["refunded", "refunded", "released"]);
    expect(await enrolments(c.course_id, [leader.id, paidJoiner.id])).toEqual([]);
    for (const who of [leader, paidJoiner, unpaid]) {
      expect((await noticeKinds(who.id)).filter((k) => k === "group_failed")).toHaveLength(1);
    }
    const page = await detail(paidJoiner, groupNo);
    expect(page.body).toMatchObject({ state: "failed", stateLabel: "未成团", joinable: false });
    expect(page.body.members.map((m: Json) => m.refunded)).toEqual([true, true]);
    expect((await call(paidJoiner, "GET", `/api/orders/${joinerOrder}`)).body).toMatchObject({
      state: "refunded",
      stateLabel: "已退款",
    });
  });

  it("a payment that lands after the deadline does not complete the group: it is refunded with the others", async () => {
    const { groupNo, leaderOrder } = await openedGroup(2);
    const joiner = await learner();
    const joined = await join(joiner, groupNo);
    later(24 * HOUR + MINUTE);
    await pay(joined.body.order);
    expect(await groupRow(groupNo)).toMatchObject({ state: "open", paid_count: 2 });
    expect((await orderRow(joined.body.order.orderNo)).state).toBe("paid");
    const job = await runGroupJob(api());
    expect(job.failed).toContain(groupNo);
    expect(job.refunded).toEqual(expect.arrayContaining([leaderOrder, joined.body.order.orderNo]));
  });

  it("the test fixture expires a leader's open group now and runs the job", async () => {
    const { leader, groupNo, leaderOrder } = await openedGroup(3, 2);
    const stranger = await learner();
    const refused = await call(stranger, "POST", "/api/groups/__test/expire", { groupNo }, idem());
    expect(refused.status).toBe(404);
    const res = await call(leader, "POST", "/api/groups/__test/expire", { groupNo });
    expect(res.status).toBe(200);
    expect(res.body.failed).toContain(groupNo);
    expect(res.body.refunded).toContain(leaderOrder);
    expect((await orderRow(leaderOrder)).state).toBe("refunded");
  });
});

describe.runIf(onPostgres)("at the same time (PostgreSQL)", () => {
  it("a group of 3 with its leader paid, 30 learners join at once: exactly 2 seats taken, 3 members in the end", async () => {
    const { groupNo, c } = await openedGroup(3, 3);
    const crowd = await Promise.all(Array.from({ length: 30 }, () => learner()));
    const results = await Promise.all(crowd.map((who) => join(who, groupNo)));
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(2);
    const lost = results.filter((r) => r.status === 409);
    expect(lost).toHaveLength(28);
    expect(lost.every((r) => r.body.error.message === "该团已满")).toBe(true);
    expect(await groupRow(groupNo)).toMatchObject({ seats_taken: 3, paid_count: 1, state: "open" });
    expect(await membersOf(groupNo)).toHaveLength(3);
    const pending = await db()
      .selectFrom("orders")
      .select("id")
      .where("group_id", "=", (await groupRow(groupNo)).id)
      .where("state", "=", "pending")
      .execute();
    expect(pending).toHaveLength(2);
    await Promise.all(won.map((r) => pay(r.body.order)));
    expect(await groupRow(groupNo)).toMatchObject({ state: "complete", paid_count: 3, seats_taken: 3 });
    const members = await membersOf(groupNo);
    expect(members.map((m) => m.state)).toEqual(["paid", "paid", "paid"]);
    expect(
      await enrolments(
        c.course_id,
        members.map((m) => m.user_id),
      ),
    ).toHaveLength(3);
  });

  it("one learner joining five times at once holds one seat with one order", async () => {
    const { groupNo } = await openedGroup(5, 0);
    const me = await learner();
    const results = await Promise.all(Array.from({ length: 5 }, () => join(me, groupNo)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.body.order.orderNo)).size).toBe(1);
    expect(results.filter((r) => r.body.reused === false)).toHaveLength(1);
    expect(await groupRow(groupNo)).toMatchObject({ seats_taken: 2 });
    expect((await membersOf(groupNo)).filter((m) => m.user_id === me.id)).toHaveLength(1);
  });

  it("two job runs at once fail an expired group once and refund each order once, coupons and coins returned", async () => {
    const { leader, groupNo, c } = await openedGroup(3, 1);
    // The leader's order was paid plainly; the joiner uses a coupon and coins on theirs.
    const joiner = await learner();
    const template = await db()
      .insertInto("coupon_templates")
      .values({ title: "拼团测试券", kind: "amount", amount_off_cents: 1000, scope: "all", valid_days: 10 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const coupon = (await call(joiner, "POST", "/api/coupons/claim", { templateId: template.id })).body.coupon.id;
    expect((await call(joiner, "POST", "/api/wallet/__test/grant", { currency: "coin", amount: 5000 })).status).toBe(
      200,
    );
    const joined = await join(joiner, groupNo);
    const no = joined.body.order.orderNo;
    expect((await call(joiner, "POST", `/api/orders/${no}/coupon`, { couponId: coupon }, idem())).status).toBe(200);
    const withCoins = await call(joiner, "POST", `/api/orders/${no}/coins`, { use: true }, idem());
    expect(withCoins.status).toBe(200);
    expect(withCoins.body.coinsUsed).toBeGreaterThan(0);
    expect(withCoins.body.payCents).toBe(c.group_price_cents - 1000 - withCoins.body.coinDiscountCents);
    await pay(withCoins.body);

    later(25 * HOUR);
    const [a, b] = await Promise.all([runGroupJob(api()), runGroupJob(api())]);
    const g = await groupRow(groupNo);
    const mine = await db().selectFrom("orders").select("order_no").where("group_id", "=", g.id).execute();
    const ours = (list: string[]) => list.filter((x) => x === groupNo || mine.some((o) => o.order_no === x));
    expect(ours([...a.failed, ...b.failed])).toEqual([groupNo]);
    const refunded = ours([...a.refunded, ...b.refunded]);
    expect(refunded).toHaveLength(2);
    expect(new Set(refunded).size).toBe(2);
    expect(g.state).toBe("failed");
    const orders = await db().selectFrom("orders").selectAll().where("group_id", "=", g.id).execute();
    for (const o of orders) {
      expect(o).toMatchObject({ state: "refunded", refunded_cents: o.pay_cents });
      const refunds = await db().selectFrom("refunds").selectAll().where("order_id", "=", o.id).execute();
      expect(refunds).toMatchObject([{ state: "succeeded", amount_cents: o.pay_cents }]);
    }
    const couponRow = await db().selectFrom("coupons").selectAll().where("id", "=", coupon).executeTakeFirstOrThrow();
    expect(couponRow.state).toBe("returned");
    const wallet = await db()
      .selectFrom("wallets")
      .select("balance")
      .where("user_id", "=", joiner.id)
      .where("currency", "=", "coin")
      .executeTakeFirstOrThrow();
    expect(wallet.balance).toBe(5000);
    const returned = await db()
      .selectFrom("wallet_entries")
      .select("amount")
      .where("user_id", "=", joiner.id)
      .where("reason", "=", "order_coin_returned")
      .execute();
    expect(returned).toEqual([{ amount: withCoins.body.coinsUsed }]);
    expect(await enrolments(c.course_id, [leader.id, joiner.id])).toEqual([]);
    for (const who of [leader, joiner]) {
      expect((await noticeKinds(who.id)).filter((k) => k === "group_failed")).toHaveLength(1);
    }
    // A third run finds nothing left to do here.
    const third = await runGroupJob(api());
    expect(ours([...third.failed, ...third.refunded, ...third.closed])).toEqual([]);
  });
});

it("a campaign that has ended is not offered", async () => {
  const course = await db()
    .selectFrom("courses")
    .select("id")
    .where("price_cents", ">", 0)
    .where("status", "=", "published")
    .where("id", "not in", db().selectFrom("group_campaigns").select("course_id"))
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const ended = await db()
    .insertInto("group_campaigns")
    .values({
      course_id: course.id,
      group_price_cents: 100,
      starts_at: new Date(Date.now() - 30 * DAY),
      ends_at: new Date(Date.now() - DAY),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  expect((await call(null, "GET", `/api/courses/${course.id}`)).body.groupBuy).toBeNull();
  expect((await start(await learner(), ended.id)).body.error.message).toBe("拼团活动不存在或已结束");
});
