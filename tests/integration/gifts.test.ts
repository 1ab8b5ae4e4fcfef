/**
 * Gifts over HTTP on the demo catalogue (issue "Commerce" §4): buying a course as a gift, paying
 * it with the sandbox, the claim code only the buyer sees, claiming (once, never one's own, not
 * by someone who owns the course), codes as typed, unknown codes, rate limits, the refund of an
 * unclaimed gift after its 30 days (and not before), the claim window, a gift order closed
 * unpaid, and on PostgreSQL: ten claimers at once, two refunds at once. No code reaches the logs.
 */
import { describe, expect, it } from "vitest";
import { commerceHarness, DAY, idem, type Json, type Learner } from "./commerce";
import { GIFT_CLAIM_DAYS, normalizeGiftCode } from "../../shared/contracts/gifts";
import { redactUrl, serializeRequest } from "../../server/logger";
import { openApiDocument } from "../../api/openapi";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { giftEndpoints, GIFT_LIMITS } from "../../api/modules/gifts/endpoints";

const { api, db, later, realNow, learner, call, notifySandbox, paidCourse, orderRow } = commerceHarness("136");

/** A new session on the API's clock: after `later(31 days)` the harness's sessions have lapsed. */
async function signedInNow(who: Learner): Promise<Learner> {
  const token = await createSession(api().database, who.id, { userAgent: "vitest", ip: "127.0.0.1" }, api().now());
  return { id: who.id, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
}

const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

const buyGift = (who: Learner, body: Record<string, unknown>) => call(who, "POST", "/api/gifts", body, idem());
const lookup = (who: Learner | null, code: string) => call(who, "GET", `/api/gifts/${encodeURIComponent(code)}`);
const claim = (who: Learner, code: string) => call(who, "POST", `/api/gifts/${encodeURIComponent(code)}/claim`);
const refund = (who: Learner, code: string, body: Record<string, unknown> = {}) =>
  call(who, "POST", `/api/gifts/${encodeURIComponent(code)}/refund`, body, idem());

/** A paid gift of the `offset`-th paid course: its buyer, course, order number and code. */
async function paidGift(offset: number, message = "") {
  const buyer = await learner();
  const course = await paidCourse(offset);
  const created = await buyGift(buyer, { courseId: course.id, message });
  expect(created.status).toBe(201);
  const orderNo: string = created.body.order.orderNo;
  expect((await notifySandbox(orderNo, created.body.order.payCents)).status).toBe(200);
  const detail = await call(buyer, "GET", `/api/orders/${orderNo}`);
  return { buyer, course, orderNo, code: detail.body.gift.code as string, detail: detail.body };
}

async function giftRow(code: string) {
  return db().selectFrom("gifts").selectAll().where("code", "=", normalizeGiftCode(code)!).executeTakeFirstOrThrow();
}

async function enrolment(userId: number, courseId: number) {
  return db()
    .selectFrom("enrolments")
    .select(["source"])
    .where("user_id", "=", userId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
}

/** Which of the learners are enrolled on the course. */
async function enrolledAmong(courseId: number, learners: Learner[]) {
  const rows = await db()
    .selectFrom("enrolments")
    .select("user_id")
    .where("course_id", "=", courseId)
    .where(
      "user_id",
      "in",
      learners.map((l) => l.id),
    )
    .execute();
  return rows.map((r) => r.user_id);
}

async function learnersCount(courseId: number) {
  const row = await db()
    .selectFrom("courses")
    .select("learners_count")
    .where("id", "=", courseId)
    .executeTakeFirstOrThrow();
  return row.learners_count;
}

async function notices(userId: number) {
  return db()
    .selectFrom("notifications")
    .select(["kind", "title", "body"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

async function bishanLedger(userId: number) {
  return db()
    .selectFrom("wallet_entries")
    .select(["reason", "amount"])
    .where("user_id", "=", userId)
    .where("currency", "=", "bishan")
    .orderBy("id")
    .execute();
}

describe("buying a gift", () => {
  it("creates a gift order to pay, reuses it with the new message, and gives the code to the buyer once paid", async () => {
    later(0);
    const buyer = await learner();
    const course = await paidCourse(5);
    const first = await buyGift(buyer, { courseId: course.id, message: "  送你一门好课，一起练字  " });
    expect(first.status).toBe(201);
    const o = first.body.order;
    expect(o).toMatchObject({
      purpose: "gift",
      itemType: "course",
      itemId: course.id,
      state: "pending",
      stateLabel: "待支付",
      payCents: course.price_cents,
      gift: { state: "pending_payment", message: "送你一门好课，一起练字", claimUntil: null },
    });
    const again = await buyGift(buyer, { courseId: course.id, message: "生日快乐" });
    expect(again.body).toMatchObject({ reused: true, order: { orderNo: o.orderNo, gift: { message: "生日快乐" } } });
    expect(await db().selectFrom("gifts").select("id").where("buyer_id", "=", buyer.id).execute()).toHaveLength(1);

    expect((await notifySandbox(o.orderNo, o.payCents)).status).toBe(200);
    const detail = (await call(buyer, "GET", `/api/orders/${o.orderNo}`)).body;
    expect(detail).toMatchObject({
      state: "paid",
      stateLabel: "待领取",
      gift: { state: "unclaimed", stateLabel: "待领取" },
    });
    expect(detail.gift.code).toMatch(CODE);
    expect(detail.gift.claimPath).toBe(`/course/${course.id}?gift=${detail.gift.code}`);
    expect(Date.parse(detail.gift.claimUntil) - Date.parse(detail.paidAt)).toBe(GIFT_CLAIM_DAYS * DAY);
    expect(detail.gift.refund.allowed).toBe(false);
    expect(detail.gift.refund.reason).toContain("期满仍未被领取时可申请退款");
    // The buyer is not enrolled by their own gift, earns bishan, and is told the code.
    expect(await enrolment(buyer.id, course.id)).toBeUndefined();
    expect((await bishanLedger(buyer.id)).map((e) => e.reason)).toEqual(["order_paid"]);
    const told = (await notices(buyer.id)).find((n) => n.kind === "gift_ready");
    expect(told?.body).toContain(detail.gift.code);
    expect(told?.body).toContain(detail.gift.claimPath);
    // Nobody else sees the order (nor its code).
    expect((await call(await learner(), "GET", `/api/orders/${o.orderNo}`)).status).toBe(404);
    const list = await call(buyer, "GET", "/api/orders?state=all");
    expect(list.body.items[0]).toMatchObject({ orderNo: o.orderNo, purpose: "gift", stateLabel: "待领取" });
    expect(JSON.stringify(list.body)).not.toContain(detail.gift.code);
  });

  it("lets a learner who owns the course buy it as a gift", async () => {
    const buyer = await learner();
    const course = await paidCourse(6);
    await db().insertInto("enrolments").values({ user_id: buyer.id, course_id: course.id, source: "admin" }).execute();
    const res = await buyGift(buyer, { courseId: course.id });
    expect(res.status).toBe(201);
    expect(res.body.order.gift).toMatchObject({ state: "pending_payment", message: "" });
  });

  it("refuses what cannot be given, in Chinese", async () => {
    const buyer = await learner();
    const free = (await call(null, "GET", "/api/courses?price=free&pageSize=1")).body.items[0];
    const freeRes = await buyGift(buyer, { courseId: free.id });
    expect(freeRes.status).toBe(400);
    expect(freeRes.body.error.message).toContain("免费课程");
    expect(await buyGift(buyer, { courseId: 99_999_999 })).toMatchObject({
      status: 404,
      body: { error: { message: "课程不存在或已下架" } },
    });
    const course = await paidCourse(7);
    const long = await buyGift(buyer, { courseId: course.id, message: "字".repeat(101) });
    expect(long).toMatchObject({ status: 400, body: { error: { message: "赠言最多 100 字" } } });
    const extra = await buyGift(buyer, { courseId: course.id, payCents: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain("不支持的字段");
    expect((await buyGift(buyer, { courseId: "1" })).body.error.message).toBe("请选择要赠送的课程");
    expect((await call(buyer, "POST", "/api/gifts", { courseId: course.id })).status).toBe(400);
    expect((await call(null, "POST", "/api/gifts", { courseId: course.id }, idem())).status).toBe(401);
    expect(await db().selectFrom("orders").select("id").where("user_id", "=", buyer.id).execute()).toHaveLength(0);
  });
});

describe("claiming a gift", () => {
  it("enrols the recipient once, completes the order and tells both; nobody can claim it again", async () => {
    const { buyer, course, orderNo, code } = await paidGift(8, "愿你笔下生花");
    const friend = await learner();
    const countBefore = await learnersCount(course.id);

    // Typed in any case, without dashes, with O for 0 and I/L for 1: the same gift.
    const typed = code.replace(/-/g, "").toLowerCase().replace(/0/g, "o").replace(/1/g, "l");
    const seen = await lookup(friend, typed);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      code,
      course: { id: course.id, title: course.title, priceCents: course.price_cents },
      message: "愿你笔下生花",
      state: "unclaimed",
      mine: false,
      claimedByViewer: false,
      claim: { allowed: true },
    });
    expect(seen.body.giver.nickname).toMatch(/^学\*\*\d$/);
    expect(seen.body.course.coverUrl).toMatch(/^\/media\/cover\//);
    const visitor = await lookup(null, code);
    expect(visitor.body).toMatchObject({ state: "unclaimed", claim: null, mine: false });
    expect((await lookup(buyer, code)).body).toMatchObject({
      mine: true,
      claim: { allowed: false, reason: "不能领取自己赠送的课程" },
    });

    const claimed = await claim(friend, code);
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ courseId: course.id, courseTitle: course.title });
    expect(claimed.body.firstLessonId).toEqual(expect.any(Number));
    expect(await enrolment(friend.id, course.id)).toEqual({ source: "gift" });
    expect(await learnersCount(course.id)).toBe(countBefore + 1);
    expect(await giftRow(code)).toMatchObject({ state: "claimed", claimed_by: friend.id });
    expect((await orderRow(orderNo)).state).toBe("completed");
    expect((await notices(friend.id)).map((n) => n.title)).toEqual(["礼物领取成功"]);
    expect((await notices(buyer.id)).find((n) => n.kind === "gift_claimed")?.body).toContain(
      `你赠送的《${course.title}》已被领取`,
    );

    // The recipient's lessons are open now.
    const mine = await call(friend, "GET", `/api/courses/${course.id}/me`);
    expect(mine.body.enrolled).toBe(true);
    expect(mine.body.lessons.every((l: { locked: boolean }) => !l.locked)).toBe(true);

    // Asking again is answered as the first time; anyone else is refused.
    expect((await claim(friend, code)).status).toBe(200);
    expect(await learnersCount(course.id)).toBe(countBefore + 1);
    const late = await claim(await learner(), code);
    expect(late).toMatchObject({ status: 409, body: { error: { message: "礼物已被领取" } } });
    expect((await lookup(friend, code)).body).toMatchObject({ state: "claimed", claimedByViewer: true });

    const detail = (await call(buyer, "GET", `/api/orders/${orderNo}`)).body;
    expect(detail).toMatchObject({ state: "completed", stateLabel: "已完成" });
    expect(detail.timeline.at(-1)).toMatchObject({ label: "订单完成", detail: "好友已领取礼物" });
    expect(detail.gift).toMatchObject({ state: "claimed", stateLabel: "已领取" });
    expect(detail.gift.claimedBy).toMatch(/^学员\d+$/);
    expect(detail.gift.claimedAt).toEqual(expect.any(String));
    expect(detail.gift.refund).toEqual({ allowed: false, reason: "礼物已被好友领取，不能退款" });
  });

  it("refuses the buyer's own claim, and someone who owns the course — the gift stays for another friend", async () => {
    const { buyer, course, code } = await paidGift(9);
    expect(await claim(buyer, code)).toMatchObject({
      status: 409,
      body: { error: { message: "不能领取自己赠送的课程" } },
    });
    const owner = await learner();
    await db().insertInto("enrolments").values({ user_id: owner.id, course_id: course.id, source: "order" }).execute();
    expect((await lookup(owner, code)).body.claim).toEqual({
      allowed: false,
      reason: "你已拥有这门课程，礼物可以留给其他好友领取",
    });
    const refused = await claim(owner, code);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("你已拥有这门课程，礼物可以留给其他好友领取");
    expect((await giftRow(code)).state).toBe("unclaimed");
    expect(await enrolment(owner.id, course.id)).toEqual({ source: "order" });

    const friend = await learner();
    expect((await claim(friend, code)).status).toBe(200);
  });

  it("answers 404 with one message for unknown and malformed codes, and needs a session to claim", async () => {
    const me = await learner();
    for (const code of ["ZZZZ-ZZZZ-ZZZZ", "abc", "UUUU-UUUU-UUUU", "x".repeat(60)]) {
      expect(await lookup(me, code)).toMatchObject({
        status: 404,
        body: { error: { message: "礼物不存在或领取码有误" } },
      });
    }
    expect((await claim(me, "ZZZZ-ZZZZ-ZZZZ")).status).toBe(404);
    const { code } = await paidGift(10);
    expect((await call(null, "POST", `/api/gifts/${code}/claim`)).status).toBe(401);
  });

  it("refuses a claim after the claim window", async () => {
    const { code } = await paidGift(11);
    later(GIFT_CLAIM_DAYS * DAY + 60_000);
    const friend = await signedInNow(await learner());
    expect((await lookup(friend, code)).body.claim).toEqual({ allowed: false, reason: "礼物已过领取期限" });
    expect(await claim(friend, code)).toMatchObject({ status: 409, body: { error: { message: "礼物已过领取期限" } } });
    expect((await giftRow(code)).state).toBe("unclaimed");
  });

  it("a gift order closed unpaid cancels its gift, which can never be claimed", async () => {
    const buyer = await learner();
    const course = await paidCourse(12);
    const created = await buyGift(buyer, { courseId: course.id });
    const { orderNo } = created.body.order;
    const code: string = created.body.order.gift.code;
    const friend = await learner();
    expect(await claim(friend, code)).toMatchObject({
      status: 409,
      body: { error: { message: "赠送人还没有完成支付，暂时不能领取" } },
    });
    expect((await call(buyer, "POST", `/api/orders/${orderNo}/cancel`, undefined, idem())).status).toBe(200);
    expect((await giftRow(code)).state).toBe("cancelled");
    expect((await call(buyer, "GET", `/api/orders/${orderNo}`)).body.gift).toMatchObject({
      state: "cancelled",
      refund: { allowed: false, reason: "订单已取消" },
    });
    expect(await claim(friend, code)).toMatchObject({
      status: 409,
      body: { error: { message: "礼物已失效（赠送人没有完成支付）" } },
    });
    // A new gift of the same course is a new order with a new code.
    const next = await buyGift(buyer, { courseId: course.id });
    expect(next.body).toMatchObject({ reused: false });
    expect(next.body.order.gift.code).not.toBe(code);
  });
});

describe("refunding an unclaimed gift", () => {
  it("is refused before the claim window ends, saying when; afterwards refunds in full and the gift can no longer be claimed", async () => {
    const { buyer: before, orderNo, code, detail } = await paidGift(13);
    const early = await refund(before, code);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/^礼物领取期至 \d{4}-\d\d-\d\d \d\d:\d\d，期满仍未被领取时可申请退款$/);
    expect((await refund(await learner(), code)).status).toBe(403);
    expect((await orderRow(orderNo)).state).toBe("paid");

    later((GIFT_CLAIM_DAYS + 1) * DAY);
    const buyer = await signedInNow(before);
    expect((await call(buyer, "GET", `/api/orders/${orderNo}`)).body.gift.refund).toEqual({
      allowed: true,
      reason: `礼物 ${GIFT_CLAIM_DAYS} 天内未被领取，可全额退款`,
    });
    const done = await refund(buyer, code, { reason: "朋友没有领取" });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      state: "refunded",
      refundedCents: detail.payCents,
      gift: { state: "refunded", refund: { allowed: false, reason: "礼物已退款" } },
    });
    const row = await orderRow(orderNo);
    expect(row).toMatchObject({ state: "refunded", refunded_cents: row.pay_cents, refund_reason: "朋友没有领取" });
    expect(await giftRow(code)).toMatchObject({ state: "refunded", refunded_at: expect.any(Date) });
    const refunds = await db().selectFrom("refunds").selectAll().where("order_id", "=", row.id).execute();
    expect(refunds).toMatchObject([{ state: "succeeded", amount_cents: row.pay_cents }]);
    const ledger = await bishanLedger(buyer.id);
    expect(ledger.map((e) => e.reason)).toEqual(["order_paid", "order_refund_clawback"]);
    expect(ledger[0]!.amount + ledger[1]!.amount).toBe(0);
    expect((await notices(buyer.id)).map((n) => n.title)).toContain("退款已完成");

    expect(await claim(await signedInNow(await learner()), code)).toMatchObject({
      status: 409,
      body: { error: { message: "礼物已退款，不能再领取" } },
    });
    expect((await refund(buyer, code)).body.error.message).toBe("礼物已退款");
  });

  it("puts the gift back as it was when the payment provider refuses the refund", async () => {
    const { buyer: before, orderNo, code } = await paidGift(14);
    // Paid through a provider this site is not configured for: the refund cannot go through.
    await db().updateTable("orders").set({ provider: "wechat" }).where("order_no", "=", orderNo).execute();
    later((GIFT_CLAIM_DAYS + 1) * DAY);
    const buyer = await signedInNow(before);
    const failed = await refund(buyer, code);
    expect(failed).toMatchObject({
      status: 502,
      body: { error: { message: "退款暂时没有成功，请稍后再试或联系客服" } },
    });
    expect((await giftRow(code)).state).toBe("unclaimed");
    expect((await orderRow(orderNo)).state).toBe("paid");
    await db().updateTable("orders").set({ provider: "sandbox" }).where("order_no", "=", orderNo).execute();
    expect((await refund(buyer, code)).status).toBe(200);
  });
});

describe("claim codes are secrets", () => {
  it("limits lookups per learner and per IP, and claims per learner, with 429 and when to try again", async () => {
    // A window of its own, far from the other tests' counters.
    later(5 * DAY);
    const me = await learner();
    const statuses: number[] = [];
    for (let i = 0; i < GIFT_LIMITS.lookupsPerUser + 1; i++) statuses.push((await lookup(me, "ZZZZ-ZZZZ-ZZZZ")).status);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    const limited = await lookup(me, "ZZZZ-ZZZZ-ZZZZ");
    expect(limited).toMatchObject({ status: 429, body: { error: { message: "尝试太频繁，请稍后再试" } } });
    expect(limited.body.error.details.retryAfter).toBeGreaterThan(0);

    const claimer = await learner();
    const claims: number[] = [];
    for (let i = 0; i < GIFT_LIMITS.claimsPerUser + 1; i++)
      claims.push((await claim(claimer, "ZZZZ-ZZZZ-ZZZZ")).status);
    expect(claims).toEqual([...Array<number>(GIFT_LIMITS.claimsPerUser).fill(404), 429]);

    later(6 * DAY);
    const visitors: number[] = [];
    for (let i = 0; i < GIFT_LIMITS.lookupsPerIp + 1; i++) visitors.push((await lookup(null, "ZZZZ-ZZZZ-ZZZZ")).status);
    expect(visitors.filter((s) => s === 404)).toHaveLength(GIFT_LIMITS.lookupsPerIp);
    expect(visitors.at(-1)).toBe(429);
  });

  it("never writes a code to the access log: neither the API path nor a claim link in the page or referer", () => {
    const secret = "7K3M-9QXZ-2BHD";
    for (const url of [`/api/gifts/${secret}`, `/api/gifts/${secret}/claim`, `/course/12?gift=${secret}`]) {
      expect(redactUrl(url)).not.toContain(secret);
    }
    expect(redactUrl("/api/gifts")).toBe("/api/gifts");
    const logged = serializeRequest({
      url: `/api/gifts/${secret}/refund`,
      method: "POST",
      headers: { referer: `http://localhost/course/12?gift=${secret}` },
    } as never);
    expect(JSON.stringify(logged)).not.toContain(secret);
    expect(logged.url).toBe("/api/gifts/[redacted]/refund");
  });
});

describe("OpenAPI", () => {
  it("describes the gift endpoints from the contracts", async () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, giftEndpoints(api()));
    expect(Object.keys(doc.paths)).toEqual(["/gifts", "/gifts/{code}", "/gifts/{code}/claim", "/gifts/{code}/refund"]);
    const create = doc.paths["/gifts"]!.post as Json;
    const input = create.requestBody.content["application/json"].schema;
    expect(Object.keys(input.properties).sort()).toEqual(["courseId", "message"]);
    expect(input.additionalProperties).toBe(false);
    expect(JSON.stringify(doc.paths["/gifts/{code}"]!.get)).toContain("claimedByViewer");
    const served = await call(null, "GET", "/api/openapi.json");
    expect(served.status).toBe(200);
    expect(served.body.paths["/gifts/{code}/refund"].post.security).toEqual([{ session: [] }]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("on PostgreSQL, at the same time", () => {
  it("ten learners claim one gift at once: exactly one is enrolled", async () => {
    const { course, orderNo, code } = await paidGift(15);
    const countBefore = await learnersCount(course.id);
    const friends = await Promise.all(Array.from({ length: 10 }, () => learner()));
    const results = await Promise.all(friends.map((f) => claim(f, code)));
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = results.filter((r) => r.status === 409);
    expect(lost).toHaveLength(9);
    expect(lost.every((r) => r.body.error.message === "礼物已被领取")).toBe(true);
    const winner = friends[results.findIndex((r) => r.status === 200)]!;
    expect(await enrolledAmong(course.id, friends)).toEqual([winner.id]);
    expect(await learnersCount(course.id)).toBe(countBefore + 1);
    expect(await giftRow(code)).toMatchObject({ state: "claimed", claimed_by: winner.id });
    expect((await orderRow(orderNo)).state).toBe("completed");
  });

  it("two refunds of one gift at once: one refund, one refusal, bishan clawed back once", async () => {
    const { buyer: before, orderNo, code } = await paidGift(16);
    later((GIFT_CLAIM_DAYS + 1) * DAY);
    const buyer = await signedInNow(before);
    const both = await Promise.all([refund(buyer, code), refund(buyer, code)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const row = await orderRow(orderNo);
    expect(row.state).toBe("refunded");
    expect(await db().selectFrom("refunds").select("id").where("order_id", "=", row.id).execute()).toHaveLength(1);
    expect((await bishanLedger(buyer.id)).map((e) => e.reason)).toEqual(["order_paid", "order_refund_clawback"]);
    expect((await giftRow(code)).state).toBe("refunded");
  });

  it("claims and a refund at the same instant the window ends: the refund wins, nobody is enrolled", async () => {
    const { buyer: before, course, orderNo, code } = await paidGift(17);
    const gift = await giftRow(code);
    later(gift.claim_until!.getTime() - realNow().getTime());
    const buyer = await signedInNow(before);
    const friends = await Promise.all(Array.from({ length: 5 }, async () => signedInNow(await learner())));
    const [refunded, ...claims] = await Promise.all([refund(buyer, code), ...friends.map((f) => claim(f, code))]);
    expect(refunded!.status).toBe(200);
    expect(claims.every((r) => r.status === 409)).toBe(true);
    expect(await giftRow(code)).toMatchObject({ state: "refunded", claimed_by: null });
    expect((await orderRow(orderNo)).state).toBe("refunded");
    expect(await enrolledAmong(course.id, friends)).toEqual([]);
  });
});
