/**
 * Orders, payment and coupons on the demo catalogue (issue "Commerce" §1–3, tests of §7):
 * creation and reuse, stock under 10N concurrent buyers, cancel and refund restoring stock
 * exactly once, the sandbox checkout end to end, replayed / forged / wrong-amount / unknown /
 * late payment notifications, coupons (limits under concurrency, snapshot, return and the
 * one-time notice), refund rules, shipping and the expiry job. Concurrent requests go over real
 * sockets (separate pooled connections on PostgreSQL).
 */
import { describe, expect, it, vi } from "vitest";
import { commerceHarness, DAY, idem, type Learner } from "./commerce";
import { testAppOnSameDatabase } from "./helpers";
import { newSandboxNotification, signSandbox } from "../../api/providers/payments/sandbox";
import { paymentSettingsOf } from "../../api/providers/payments/settings";
import { enrolLearner } from "../../api/modules/enrolments/enrolments";
import { applyLedgerChange } from "../../api/modules/wallet/ledger";
import { reconcileSandboxPayments } from "../../api/modules/payments/reconcile";
import { runOrderJob } from "../../api/jobs/commerce";

const { app, api, db, base, later, learner, call, notifySandbox, paidCourse, orderRow } = commerceHarness();
let seq = 0;

const order = (who: Learner, body: Record<string, unknown>) => call(who, "POST", "/api/orders", body, idem());
const cancel = (who: Learner, no: string) => call(who, "POST", `/api/orders/${no}/cancel`, undefined, idem());
/** The operator's approval (the order desk answers with the order's detail under `order`). */
const approve = async (operator: Learner, no: string) => {
  const res = await call(operator, "POST", `/api/admin/orders/${no}/return/approve`, {}, idem());
  return { ...res, body: res.body.order ?? res.body };
};
const refund = (who: Learner, no: string, reason = "不想学了，申请退款") =>
  call(who, "POST", `/api/orders/${no}/refund`, { reason }, idem());

async function bookWithStock(stock: number) {
  const book = await db()
    .selectFrom("books")
    .select(["id", "price_cents"])
    .where("status", "=", "published")
    .orderBy("id", "desc")
    .limit(1)
    .offset(++seq % 20)
    .executeTakeFirstOrThrow();
  await db().updateTable("books").set({ stock }).where("id", "=", book.id).execute();
  return book;
}

async function stockOf(bookId: number) {
  return (await db().selectFrom("books").select("stock").where("id", "=", bookId).executeTakeFirstOrThrow()).stock;
}

async function address(who: Learner): Promise<number> {
  const res = await call(who, "POST", "/api/orders/addresses", {
    recipient: "王小明",
    phone: "13912345678",
    region: "浙江省 杭州市 西湖区",
    detail: "文三路 100 号 2 幢 301",
  });
  expect(res.status).toBe(201);
  return res.body.address.id;
}

describe("creating orders", () => {
  it("snapshots the course price, expires in 30 minutes, and reuses the open order for the same item", async () => {
    later(0);
    const me = await learner();
    const course = await paidCourse(1);
    const first = await order(me, { itemType: "course", itemId: course.id, quantity: 1 });
    expect(first.status).toBe(201);
    const o = first.body.order;
    expect(o).toMatchObject({
      state: "pending",
      stateLabel: "待支付",
      title: course.title,
      unitPriceCents: course.price_cents,
      totalCents: course.price_cents,
      payCents: course.price_cents,
      physical: false,
    });
    expect(o.orderNo).toMatch(/^M\d{20}$/);
    expect(Date.parse(o.expiresAt) - Date.parse(o.serverNow)).toBe(30 * 60_000);
    // The catalogue price changes later: the order keeps what the learner saw.
    await db()
      .updateTable("courses")
      .set({ price_cents: course.price_cents + 100 })
      .where("id", "=", course.id)
      .execute();
    const again = await order(me, { itemType: "course", itemId: course.id });
    expect(again.body).toMatchObject({ reused: true, order: { orderNo: o.orderNo, payCents: course.price_cents } });
    await db().updateTable("courses").set({ price_cents: course.price_cents }).where("id", "=", course.id).execute();

    const detail = await call(me, "GET", `/api/orders/${o.orderNo}`);
    expect(detail.status).toBe(200);
    expect(detail.body.timeline[0]).toMatchObject({ label: "提交订单" });
    expect((await call(await learner(), "GET", `/api/orders/${o.orderNo}`)).status).toBe(404);
  });

  it("gives the same open order to five concurrent requests for one item", async () => {
    const me = await learner();
    const course = await paidCourse(2);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => order(me, { itemType: "course", itemId: course.id })),
    );
    const numbers = new Set(results.map((r) => r.body.order?.orderNo));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(numbers.size).toBe(1);
    const rows = await db().selectFrom("orders").select("id").where("user_id", "=", me.id).execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses what cannot be bought, in Chinese", async () => {
    const me = await learner();
    const free = await db()
      .selectFrom("courses")
      .select("id")
      .where("price_cents", "=", 0)
      .where("status", "=", "published")
      .executeTakeFirstOrThrow();
    const freeRes = await order(me, { itemType: "course", itemId: free.id });
    expect(freeRes.status).toBe(400);
    expect(freeRes.body.error.message).toContain("免费");
    const course = await paidCourse(3);
    await db().insertInto("enrolments").values({ user_id: me.id, course_id: course.id, source: "admin" }).execute();
    const owned = await order(me, { itemType: "course", itemId: course.id });
    expect(owned).toMatchObject({ status: 409, body: { error: { message: "你已拥有该课程" } } });
    expect((await order(me, { itemType: "course", itemId: (await paidCourse(4)).id, quantity: 2 })).status).toBe(400);
    expect((await order(me, { itemType: "course", itemId: 99_999_999 })).status).toBe(404);
    const book = await bookWithStock(5);
    const noAddress = await order(me, { itemType: "book", itemId: book.id, quantity: 1 });
    expect(noAddress).toMatchObject({ status: 400, body: { error: { message: "请选择收货地址" } } });
    const noKey = await call(me, "POST", "/api/orders", { itemType: "book", itemId: book.id });
    expect(noKey.status).toBe(400);
    const extra = await order(me, { itemType: "book", itemId: book.id, payCents: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain("不支持的字段");
    expect((await call(null, "POST", "/api/orders", { itemType: "book", itemId: book.id }, idem())).status).toBe(401);
    const badAddress = await call(me, "POST", "/api/orders/addresses", {
      recipient: "",
      phone: "123",
      region: "浙江",
      detail: "短",
    });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.error.message).toBe("请填写收货人");
  });

  it("refuses the course's own teacher, whose course page says so instead of offering 立即购买", async () => {
    const teacher = await learner("teacher");
    const course = await paidCourse(5);
    const row = await db()
      .selectFrom("courses")
      .innerJoin("teachers", "teachers.id", "courses.teacher_id")
      .select(["teachers.id", "teachers.user_id"])
      .where("courses.id", "=", course.id)
      .executeTakeFirstOrThrow();
    await db().updateTable("teachers").set({ user_id: teacher.id }).where("id", "=", row.id).execute();
    try {
      const viewer = await call(teacher, "GET", `/api/courses/${course.id}/me`);
      expect(viewer.body.teaches).toBe(true);
      const res = await order(teacher, { itemType: "course", itemId: course.id });
      expect(res).toMatchObject({
        status: 409,
        body: { error: { code: "own_course", message: "这是你自己讲授的课程，无需购买" } },
      });
      const someone = await learner();
      expect((await call(someone, "GET", `/api/courses/${course.id}/me`)).body.teaches).toBe(false);
    } finally {
      await db().updateTable("teachers").set({ user_id: row.user_id }).where("id", "=", row.id).execute();
    }
  });

  it("stock N, 10N concurrent buyers: exactly N orders, the rest 库存不足", async () => {
    const N = 3;
    const book = await bookWithStock(N);
    const buyers = await Promise.all(Array.from({ length: 10 * N }, () => learner()));
    const addresses = await Promise.all(buyers.map((b) => address(b)));
    const results = await Promise.all(
      buyers.map((b, i) => order(b, { itemType: "book", itemId: book.id, quantity: 1, addressId: addresses[i] })),
    );
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(ok).toHaveLength(N);
    expect(refused).toHaveLength(9 * N);
    expect(refused.every((r) => r.body.error.message === "库存不足")).toBe(true);
    expect(await stockOf(book.id)).toBe(0);
  });

  it("cancel twice at once, and the job with the learner at once: stock comes back exactly once", async () => {
    const book = await bookWithStock(10);
    const me = await learner();
    const addr = await address(me);
    const created = await order(me, { itemType: "book", itemId: book.id, quantity: 4, addressId: addr });
    expect(created.status).toBe(201);
    expect(await stockOf(book.id)).toBe(6);
    const no = created.body.order.orderNo;
    const both = await Promise.all([cancel(me, no), cancel(me, no)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await stockOf(book.id)).toBe(10);
    expect((await cancel(me, no)).status).toBe(409);
    expect(await stockOf(book.id)).toBe(10);

    const second = await order(me, { itemType: "book", itemId: book.id, quantity: 2, addressId: addr });
    expect(second.body.reused).toBe(false);
    expect(await stockOf(book.id)).toBe(8);
    later(31 * 60_000);
    const [job, mine] = await Promise.all([runOrderJob(api()), cancel(me, second.body.order.orderNo)]);
    const closedByJob = job.closed.includes(second.body.order.orderNo);
    expect(closedByJob || mine.status === 200).toBe(true);
    expect(closedByJob && mine.status === 200).toBe(false);
    expect(await stockOf(book.id)).toBe(10);
    expect((await orderRow(second.body.order.orderNo)).state).toBe("cancelled");
  });
});

describe("paying with the sandbox", () => {
  it("checkout page → approve → signed notification → paid, enrolled, the lessons unlock", async () => {
    const me = await learner();
    const course = await paidCourse(5);
    const lesson = await db()
      .selectFrom("lessons")
      .select("id")
      .where("course_id", "=", course.id)
      .where("is_trial", "=", false)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    expect((await call(me, "GET", `/api/learning/lessons/${lesson.id}`)).body.access.allowed).toBe(false);
    const created = await order(me, { itemType: "course", itemId: course.id });
    const no = created.body.order.orderNo;
    const methods = await call(me, "GET", "/api/payments/methods");
    expect(methods.body.methods.map((m: { method: string }) => m.method)).toEqual(["sandbox"]);
    expect((await call(me, "POST", `/api/payments/${no}/start`, { method: "wechat" })).status).toBe(400);
    const start = await call(me, "POST", `/api/payments/${no}/start`, { method: "sandbox" });
    expect(start.status).toBe(200);
    expect(start.body.redirectUrl).toMatch(/^\/api\/payments\/sandbox\/checkout\/[0-9a-f]{32}$/);

    const page = await fetch(`${base()}${start.body.redirectUrl}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(html).toContain("同意付款");
    expect(html).toContain("拒绝付款");
    expect(html).toContain(`¥${course.price_cents / 100}`);
    expect(html).not.toContain("<script");

    const approve = await fetch(`${base()}${start.body.redirectUrl}/approve`, {
      method: "POST",
      headers: { Origin: "http://localhost:3000" },
      redirect: "manual",
    });
    expect(approve.status).toBe(303);
    expect(approve.headers.get("location")).toBe(`/payment/success?order=${no}`);
    let state = "pending";
    for (let i = 0; i < 50 && state === "pending"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await orderRow(no)).state;
    }
    expect(state).toBe("completed");
    const detail = await call(me, "GET", `/api/orders/${no}`);
    expect(detail.body).toMatchObject({ state: "completed", stateLabel: "已完成", provider: "sandbox" });
    expect(detail.body.firstLessonId).toEqual(expect.any(Number));
    expect(detail.body.timeline.map((t: { label: string }) => t.label)).toEqual(["提交订单", "支付成功", "订单完成"]);
    const enrolment = await db().selectFrom("enrolments").selectAll().where("user_id", "=", me.id).execute();
    expect(enrolment).toMatchObject([{ course_id: course.id, source: "order" }]);
    expect((await call(me, "GET", `/api/learning/lessons/${lesson.id}`)).body.access.allowed).toBe(true);
    const notices = await db().selectFrom("notifications").select("kind").where("user_id", "=", me.id).execute();
    expect(notices.map((n) => n.kind)).toContain("order_paid");
    // Approving the same checkout again changes nothing.
    const twice = await fetch(`${base()}${start.body.redirectUrl}/approve`, {
      method: "POST",
      headers: { Origin: "http://localhost:3000" },
      redirect: "manual",
    });
    expect(twice.status).toBe(303);
    expect(
      await db()
        .selectFrom("payments")
        .select("id")
        .where("order_id", "=", (await orderRow(no)).id)
        .execute(),
    ).toHaveLength(1);
  });

  it("a notification replayed five times at once pays once: one payment row, one enrolment", async () => {
    const me = await learner();
    const course = await paidCourse(6);
    const created = await order(me, { itemType: "course", itemId: course.id });
    const no = created.body.order.orderNo;
    const n = newSandboxNotification(no, "SBREPLAY" + seq, course.price_cents, new Date());
    const signature = signSandbox(n, paymentSettingsOf(api()).sandboxSecret);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(null, "POST", "/api/payments/notify/sandbox", n, { "X-Sandbox-Signature": signature }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.outcome === "credited")).toHaveLength(1);
    expect(results.filter((r) => r.body.outcome === "replayed")).toHaveLength(4);
    const row = await orderRow(no);
    expect(row.state).toBe("completed");
    expect(await db().selectFrom("payments").select("id").where("order_id", "=", row.id).execute()).toHaveLength(1);
    expect(await db().selectFrom("enrolments").select("course_id").where("user_id", "=", me.id).execute()).toHaveLength(
      1,
    );
    const paidNotices = await db()
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", me.id)
      .where("kind", "=", "order_paid")
      .execute();
    expect(paidNotices).toHaveLength(1);
  });

  it("a signed notification sent more than 5 minutes before (or after) now is refused with a warning", async () => {
    const me = await learner();
    const course = await paidCourse(11);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const warn = vi.spyOn(api().logger, "warn");
    for (const offset of [-6 * 60_000, 6 * 60_000]) {
      const n = newSandboxNotification(no, `SBSTALE${offset}`, course.price_cents, new Date(Date.now() + offset));
      const signature = signSandbox(n, paymentSettingsOf(api()).sandboxSecret);
      const res = await call(null, "POST", "/api/payments/notify/sandbox", n, { "X-Sandbox-Signature": signature });
      expect(res).toMatchObject({
        status: 400,
        body: { error: { code: "stale_notification", message: "通知已过期" } },
      });
    }
    expect(warn.mock.calls.filter((c) => c[1] === "stale payment notification refused")).toHaveLength(2);
    warn.mockRestore();
    expect((await orderRow(no)).state).toBe("pending");
    const fresh = newSandboxNotification(no, "SBFRESH", course.price_cents, new Date(Date.now() - 4 * 60_000));
    const signature = signSandbox(fresh, paymentSettingsOf(api()).sandboxSecret);
    expect(
      (await call(null, "POST", "/api/payments/notify/sandbox", fresh, { "X-Sandbox-Signature": signature })).body,
    ).toMatchObject({ outcome: "credited" });
    expect((await orderRow(no)).state).toBe("completed");
  });

  it("forged signature, wrong amount and unknown order: no credit", async () => {
    const me = await learner();
    const course = await paidCourse(7);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const forged = await notifySandbox(no, course.price_cents, undefined, "f".repeat(64));
    expect(forged.status).toBe(401);
    const n = newSandboxNotification(no, "SBTAMPER", course.price_cents, new Date());
    const signature = signSandbox(n, paymentSettingsOf(api()).sandboxSecret);
    const tampered = await call(
      null,
      "POST",
      "/api/payments/notify/sandbox",
      { ...n, amountCents: 1 },
      { "X-Sandbox-Signature": signature },
    );
    expect(tampered.status).toBe(401);
    expect((await call(null, "POST", "/api/payments/notify/sandbox", n, { "X-Sandbox-Signature": "00" })).status).toBe(
      401,
    );
    const wrongAmount = await notifySandbox(no, course.price_cents - 1);
    expect(wrongAmount.status).toBe(400);
    const unknown = await notifySandbox("M20261122000000999999", course.price_cents);
    expect(unknown.status).toBe(404);
    const row = await orderRow(no);
    expect(row.state).toBe("pending");
    expect(await db().selectFrom("payments").select("id").where("order_id", "=", row.id).execute()).toHaveLength(0);
    expect(await db().selectFrom("enrolments").select("course_id").where("user_id", "=", me.id).execute()).toHaveLength(
      0,
    );
  });

  it("a payment that arrives after the order was cancelled is refunded automatically", async () => {
    const me = await learner();
    const course = await paidCourse(8);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    expect((await cancel(me, no)).status).toBe(200);
    const late = await notifySandbox(no, course.price_cents);
    expect(late).toMatchObject({ status: 200, body: { outcome: "refunded_late" } });
    const row = await orderRow(no);
    expect(row.state).toBe("cancelled");
    const payments = await db().selectFrom("payments").selectAll().where("order_id", "=", row.id).execute();
    expect(payments).toMatchObject([{ outcome: "refunded_late", amount_cents: course.price_cents }]);
    const refunds = await db().selectFrom("refunds").selectAll().where("order_id", "=", row.id).execute();
    expect(refunds).toMatchObject([{ state: "succeeded", amount_cents: course.price_cents }]);
    expect(await db().selectFrom("enrolments").select("course_id").where("user_id", "=", me.id).execute()).toHaveLength(
      0,
    );
    const kinds = (await db().selectFrom("notifications").select("kind").where("user_id", "=", me.id).execute()).map(
      (n) => n.kind,
    );
    expect(kinds).toContain("order_refunded");
  });

  it("the job asks the sandbox before closing: an approved payment whose notification was lost is credited", async () => {
    const me = await learner();
    const course = await paidCourse(9);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const start = await call(me, "POST", `/api/payments/${no}/start`, { method: "sandbox" });
    // Approved at the sandbox, but its notification never arrived.
    await db()
      .updateTable("payment_sandbox")
      .set({ state: "approved", txn_id: `SBLOST${seq}`, decided_at: new Date() })
      .where("id", "=", start.body.redirectUrl.split("/").pop())
      .execute();
    later(31 * 60_000);
    const result = await runOrderJob(api());
    expect(result.paidLate).toContain(no);
    expect(result.closed).not.toContain(no);
    expect((await orderRow(no)).state).toBe("completed");
    // An unpaid expired order is closed; a second run changes nothing.
    const other = (await order(me, { itemType: "course", itemId: (await paidCourse(10)).id })).body.order.orderNo;
    later(62 * 60_000);
    const [a, b] = await Promise.all([runOrderJob(api()), runOrderJob(api())]);
    expect([...a.closed, ...b.closed].filter((x) => x === other)).toHaveLength(1);
    expect((await orderRow(other)).state).toBe("cancelled");
  });
});

describe("sandbox approvals whose notification was lost", () => {
  /**
   * The payer approved at the sandbox and the sandbox recorded it, but the process died before the
   * signed notification was processed: the approval is in payment_sandbox, nothing reached the order.
   */
  async function approvedWithoutNotification(offset: number) {
    const me = await learner();
    const course = await paidCourse(offset);
    const no: string = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const start = await call(me, "POST", `/api/payments/${no}/start`, { method: "sandbox" });
    const checkoutUrl: string = start.body.redirectUrl;
    await db()
      .updateTable("payment_sandbox")
      .set({ state: "approved", txn_id: `SBCRASH${offset}${++seq}`, decided_at: new Date() })
      .where("id", "=", checkoutUrl.split("/").pop()!)
      .execute();
    return { me, no, checkoutUrl };
  }
  const paymentsOf = async (no: string) =>
    db()
      .selectFrom("payments")
      .selectAll()
      .where("order_id", "=", (await orderRow(no)).id)
      .execute();
  const paidNotices = async (who: Learner) =>
    db()
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", who.id)
      .where("kind", "=", "order_paid")
      .execute();
  const page = async (url: string) => (await fetch(`${base()}${url}`)).text();

  it("are credited once by the reconciler; the checkout says 处理中 until then, 支付成功 after", async () => {
    const { me, no, checkoutUrl } = await approvedWithoutNotification(12);
    const before = await page(checkoutUrl);
    expect(before).toContain("处理中");
    expect(before).toContain('<meta http-equiv="refresh" content="2">');
    expect(before).not.toContain("支付成功");
    expect((await call(me, "GET", `/api/orders/${no}`)).body.state).toBe("pending");

    expect((await reconcileSandboxPayments(api())).credited).toEqual([no]);
    expect((await orderRow(no)).state).toBe("completed");
    expect(await reconcileSandboxPayments(api())).toEqual({ credited: [], refunded: [], setAside: [] });
    expect((await runOrderJob(api())).reconciled).not.toContain(no);
    expect(await paymentsOf(no)).toMatchObject([{ outcome: "credited" }]);
    expect(await paidNotices(me)).toHaveLength(1);
    const after = await page(checkoutUrl);
    expect(after).toContain("支付成功");
    expect(after).not.toContain("http-equiv");
  });

  it("the order job settles them for an order still open, before its time is up", async () => {
    const { no } = await approvedWithoutNotification(13);
    const result = await runOrderJob(api());
    expect(result.reconciled).toContain(no);
    expect(result.paidLate).not.toContain(no);
    expect((await orderRow(no)).state).toBe("completed");
  });

  it("an approval for an order closed meanwhile is refunded, once", async () => {
    const { me, no, checkoutUrl } = await approvedWithoutNotification(14);
    // Closed by the learner before anything was credited (the approval already recorded).
    expect((await cancel(me, no)).status).toBe(200);
    const [a, b] = await Promise.all([reconcileSandboxPayments(api()), reconcileSandboxPayments(api())]);
    expect([...a.refunded, ...b.refunded]).toEqual([no]);
    expect((await orderRow(no)).state).toBe("cancelled");
    expect(await paymentsOf(no)).toMatchObject([{ outcome: "refunded_late" }]);
    const refunds = await db()
      .selectFrom("refunds")
      .selectAll()
      .where("order_id", "=", (await orderRow(no)).id)
      .execute();
    expect(refunds).toMatchObject([{ state: "succeeded" }]);
    expect(await page(checkoutUrl)).toContain("原路退回");
  });

  it("two reconcilers at once (two nodes) credit each approval once", async () => {
    const lost = await Promise.all([15, 16, 17].map((n) => approvedWithoutNotification(n)));
    const runs = await Promise.all([reconcileSandboxPayments(api()), reconcileSandboxPayments(api())]);
    const credited = runs.flatMap((r) => r.credited).sort();
    expect(credited).toEqual(lost.map((l) => l.no).sort());
    for (const { me, no } of lost) {
      expect((await orderRow(no)).state).toBe("completed");
      expect(await paymentsOf(no)).toHaveLength(1);
      expect(await paidNotices(me)).toHaveLength(1);
    }
  });

  it("a node starting up settles them before it serves", async () => {
    const { no } = await approvedWithoutNotification(18);
    const node = await testAppOnSameDatabase(app());
    try {
      expect((await orderRow(no)).state).toBe("completed");
      expect(await paymentsOf(no)).toHaveLength(1);
    } finally {
      // Its own pool on PostgreSQL; on PGlite the database is the first node's and stays open.
      await node.dispose();
    }
  });
});

describe("refunds", () => {
  async function boughtCourse(offset: number) {
    const me = await learner();
    const course = await paidCourse(offset);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    expect((await notifySandbox(no, course.price_cents)).status).toBe(200);
    return { me, course, no };
  }

  it("a course within 7 days and not started: full refund, enrolment removed, once", async () => {
    const { me, no } = await boughtCourse(11);
    const listed = (await call(me, "GET", "/api/orders")).body.items.find((o: { orderNo: string }) => o.orderNo === no);
    expect(listed.refund.allowed).toBe(true);
    const both = await Promise.all([refund(me, no), refund(me, no)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const row = await orderRow(no);
    expect(row).toMatchObject({ state: "refunded", refunded_cents: row.pay_cents });
    expect(await db().selectFrom("enrolments").select("course_id").where("user_id", "=", me.id).execute()).toHaveLength(
      0,
    );
    expect(await db().selectFrom("refunds").select("id").where("order_id", "=", row.id).execute()).toHaveLength(1);
    const detail = await call(me, "GET", `/api/orders/${no}`);
    expect(detail.body.refund).toEqual({ allowed: false, reason: "订单已退款" });
    // The bishan the payment earned is taken back with the refund.
    const ledger = await db()
      .selectFrom("wallet_entries")
      .select(["reason", "amount"])
      .where("user_id", "=", me.id)
      .where("currency", "=", "bishan")
      .orderBy("id")
      .execute();
    expect(ledger.map((e) => e.reason)).toEqual(["order_paid", "order_refund_clawback"]);
    expect(ledger[0]!.amount + ledger[1]!.amount).toBe(0);
  });

  it("every enrolment raises the course's learners and popularity once: paid, replayed, given; the refund takes its own back", async () => {
    const course = await paidCourse(12);
    const counts = () =>
      db()
        .selectFrom("courses")
        .select(["learners_count", "popularity"])
        .where("id", "=", course.id)
        .executeTakeFirstOrThrow();
    const before = await counts();
    const me = await learner();
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const n = newSandboxNotification(no, `SBPOP${seq}`, course.price_cents, new Date());
    const signature = signSandbox(n, paymentSettingsOf(api()).sandboxSecret);
    await Promise.all(
      Array.from({ length: 3 }, () =>
        call(null, "POST", "/api/payments/notify/sandbox", n, { "X-Sandbox-Signature": signature }),
      ),
    );
    expect((await orderRow(no)).state).toBe("completed");
    expect(await counts()).toEqual({ learners_count: before.learners_count + 1, popularity: before.popularity + 1 });
    // Enrolling the same learner again (a gift, say) changes nothing; another learner's gift counts once.
    const friend = await learner();
    const again = await db()
      .transaction()
      .execute(async (trx) => [
        await enrolLearner(trx, me.id, course.id, "gift", new Date()),
        await enrolLearner(trx, friend.id, course.id, "gift", new Date()),
        await enrolLearner(trx, friend.id, course.id, "gift", new Date()),
      ]);
    expect(again.map((e) => e !== null)).toEqual([false, true, false]);
    expect(await counts()).toEqual({ learners_count: before.learners_count + 2, popularity: before.popularity + 2 });
    expect((await refund(me, no)).status).toBe(200);
    expect(await counts()).toEqual({ learners_count: before.learners_count + 1, popularity: before.popularity + 1 });
  });

  it("refuses a started course and one past 7 days, saying why", async () => {
    const started = await boughtCourse(12);
    const lesson = await db()
      .selectFrom("lessons")
      .select("id")
      .where("course_id", "=", started.course.id)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("lesson_progress")
      .values({ user_id: started.me.id, lesson_id: lesson.id, updated_at: new Date() })
      .execute();
    // The order list no longer offers 申请退款 and says why, in the same words the refund answers with.
    const listed = (await call(started.me, "GET", "/api/orders")).body.items.find(
      (o: { orderNo: string }) => o.orderNo === started.no,
    );
    expect(listed.refund).toEqual({ allowed: false, reason: "课程已开始学习，按退款规则不能再申请退款" });
    const r1 = await refund(started.me, started.no);
    expect(r1).toMatchObject({ status: 409, body: { error: { message: "课程已开始学习，按退款规则不能再申请退款" } } });
    const old = await boughtCourse(13);
    later(8 * DAY);
    const r2 = await refund(old.me, old.no);
    expect(r2.status).toBe(409);
    expect(r2.body.error.message).toContain("7 天");
    expect((await orderRow(old.no)).state).toBe("completed");
  });

  it("a book: pay, ship (operators only), confirm; refund before shipping restores stock once", async () => {
    const me = await learner();
    const operator = await learner("operator");
    const book = await bookWithStock(5);
    const addr = await address(me);
    const created = await order(me, { itemType: "book", itemId: book.id, quantity: 2, addressId: addr });
    const no = created.body.order.orderNo;
    expect(created.body.order.address).toMatchObject({ recipient: "王小明", detail: "文三路 100 号 2 幢 301" });
    expect(created.body.order.totalCents).toBe(book.price_cents * 2);
    await notifySandbox(no, book.price_cents * 2);
    expect((await orderRow(no)).state).toBe("awaiting_shipment");
    expect((await call(me, "POST", `/api/orders/${no}/confirm`, undefined, idem())).status).toBe(409);
    const ship = { carrier: "顺丰速运", trackingNo: "SF1234567890" };
    expect((await call(me, "POST", `/api/admin/orders/${no}/ship`, ship)).status).toBe(403);
    expect((await call(operator, "POST", `/api/admin/orders/${no}/ship`, ship)).status).toBe(200);
    expect((await call(operator, "POST", `/api/admin/orders/${no}/ship`, ship)).status).toBe(409);
    const confirmed = await call(me, "POST", `/api/orders/${no}/confirm`, undefined, idem());
    expect(confirmed.body).toMatchObject({ state: "completed", carrier: "顺丰速运", trackingNo: "SF1234567890" });
    const kinds = (await db().selectFrom("notifications").select("kind").where("user_id", "=", me.id).execute()).map(
      (n) => n.kind,
    );
    expect(kinds).toEqual(expect.arrayContaining(["order_paid", "order_shipped"]));

    const second = await order(me, { itemType: "book", itemId: book.id, quantity: 1, addressId: addr });
    await notifySandbox(second.body.order.orderNo, book.price_cents);
    expect(await stockOf(book.id)).toBe(2);
    expect((await refund(me, second.body.order.orderNo, "买重复了")).status).toBe(200);
    expect(await stockOf(book.id)).toBe(3);
    expect((await refund(me, second.body.order.orderNo, "买重复了")).status).toBe(409);
    expect(await stockOf(book.id)).toBe(3);
  });

  it("part of a received order comes back in proportion; the rest later makes it 已退款 with the coupon back", async () => {
    const me = await learner();
    const operator = await learner("operator");
    const book = await bookWithStock(10);
    const t = await db()
      .insertInto("coupon_templates")
      .values({ title: `退货券${++seq}`, kind: "amount", amount_off_cents: 100, scope: "all", valid_days: 10 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const couponId = (await call(me, "POST", "/api/coupons/claim", { templateId: t.id })).body.coupon.id;
    const created = await order(me, {
      itemType: "book",
      itemId: book.id,
      quantity: 3,
      addressId: await address(me),
      couponId,
    });
    const no = created.body.order.orderNo;
    const pay = book.price_cents * 3 - 100;
    await notifySandbox(no, pay);
    expect(await stockOf(book.id)).toBe(7);
    // Before receipt only the whole order can go back.
    expect(
      (await call(me, "POST", `/api/orders/${no}/refund`, { reason: "少要一本", quantity: 1 }, idem())).body,
    ).toMatchObject({ error: { code: "refund_quantity" } });
    await call(operator, "POST", `/api/admin/orders/${no}/ship`, { carrier: "顺丰速运", trackingNo: "SF5550001" });
    await call(me, "POST", `/api/orders/${no}/confirm`, undefined, idem());

    const asked = await call(me, "POST", `/api/orders/${no}/refund`, { reason: "有一本重复了", quantity: 1 }, idem());
    expect(asked.body).toMatchObject({ state: "refunding", refundRequest: { state: "requested", quantity: 1 } });
    expect(await stockOf(book.id)).toBe(7);
    const part = await approve(operator, no);
    expect(part.status).toBe(200);
    const first = Math.floor(pay / 3);
    expect(part.body).toMatchObject({
      state: "partially_refunded",
      stateLabel: "部分退款",
      refundedCents: first,
      refundableQuantity: 2,
    });
    expect(await stockOf(book.id)).toBe(8);
    const coupon = () =>
      db().selectFrom("coupons").select("state").where("id", "=", couponId).executeTakeFirstOrThrow();
    expect((await coupon()).state).toBe("used");
    expect(
      (await call(me, "POST", `/api/orders/${no}/refund`, { reason: "太多了", quantity: 3 }, idem())).body,
    ).toMatchObject({ error: { message: "最多可退 2 件" } });

    await call(me, "POST", `/api/orders/${no}/refund`, { reason: "都不要了" }, idem());
    const rest = await approve(operator, no);
    expect(rest.body).toMatchObject({ state: "refunded", refundedCents: pay, refundableQuantity: 0 });
    expect(await stockOf(book.id)).toBe(10);
    expect((await coupon()).state).toBe("returned");
    const refunds = await db()
      .selectFrom("refunds")
      .select(["amount_cents", "quantity", "state"])
      .where("order_id", "=", (await orderRow(no)).id)
      .orderBy("id")
      .execute();
    expect(refunds).toEqual([
      { amount_cents: first, quantity: 1, state: "succeeded" },
      { amount_cents: pay - first, quantity: 2, state: "succeeded" },
    ]);
    // Bishan: whatever the order earned is gone once all of it is refunded.
    const bishan = await db()
      .selectFrom("wallet_entries")
      .select((eb) => eb.fn.sum<number>("amount").as("net"))
      .where("user_id", "=", me.id)
      .where("currency", "=", "bishan")
      .where("ref_id", "=", String((await orderRow(no)).id))
      .executeTakeFirstOrThrow();
    expect(Number(bishan.net ?? 0)).toBe(0);
    expect((await call(me, "POST", `/api/orders/${no}/refund`, { reason: "再退一次" }, idem())).status).toBe(409);
  });

  it("two partial refunds at once: one goes through, the pieces and money are never over-refunded", async () => {
    const me = await learner();
    const operator = await learner("operator");
    const book = await bookWithStock(10);
    const no = (await order(me, { itemType: "book", itemId: book.id, quantity: 3, addressId: await address(me) })).body
      .order.orderNo;
    await notifySandbox(no, book.price_cents * 3);
    await call(operator, "POST", `/api/admin/orders/${no}/ship`, { carrier: "中通快递", trackingNo: "ZT5550002" });
    await call(me, "POST", `/api/orders/${no}/confirm`, undefined, idem());
    const both = await Promise.all([
      call(me, "POST", `/api/orders/${no}/refund`, { reason: "退两本", quantity: 2 }, idem()),
      call(me, "POST", `/api/orders/${no}/refund`, { reason: "也退两本", quantity: 2 }, idem()),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const approvals = await Promise.all([approve(operator, no), approve(operator, no)]);
    expect(approvals.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await stockOf(book.id)).toBe(9);
    expect((await orderRow(no)).refunded_cents).toBe(Math.floor((book.price_cents * 3 * 2) / 3));
  });

  it("a return of received goods waits for review: rejected or withdrawn puts the order back, approved refunds", async () => {
    const me = await learner();
    const operator = await learner("operator");
    const book = await bookWithStock(10);
    const no = (await order(me, { itemType: "book", itemId: book.id, quantity: 1, addressId: await address(me) })).body
      .order.orderNo;
    await notifySandbox(no, book.price_cents);
    await call(operator, "POST", `/api/admin/orders/${no}/ship`, { carrier: "圆通速递", trackingNo: "YT5550003" });
    const ask = () => call(me, "POST", `/api/orders/${no}/refund`, { reason: "书角有折痕" }, idem());

    // In transit: the request waits; the learner withdraws it and the order is 已发货 again.
    expect((await ask()).body).toMatchObject({ state: "refunding", refundRequest: { stateLabel: "退货待审核" } });
    expect((await ask()).status).toBe(409);
    expect((await call(me, "POST", `/api/admin/orders/${no}/return/approve`, {}, idem())).status).toBe(403);
    const list = await call(operator, "GET", "/api/admin/orders/returns");
    expect(list.body.items.map((i: { orderNo: string }) => i.orderNo)).toContain(no);
    const withdrawn = await call(me, "POST", `/api/orders/${no}/refund/withdraw`, undefined, idem());
    expect(withdrawn.body).toMatchObject({ state: "shipped", refundRequest: { state: "withdrawn" } });
    expect((await call(me, "POST", `/api/orders/${no}/refund/withdraw`, undefined, idem())).status).toBe(409);

    // Received: asked again, rejected with a reason the learner is told; the order is 已完成 again.
    await call(me, "POST", `/api/orders/${no}/confirm`, undefined, idem());
    await ask();
    expect((await call(operator, "POST", `/api/admin/orders/${no}/return/reject`, {})).status).toBe(400);
    const rejected = await call(operator, "POST", `/api/admin/orders/${no}/return/reject`, {
      note: "商品已使用，不符合退货条件",
    });
    expect(rejected.body.order).toMatchObject({
      state: "completed",
      refundRequest: { state: "rejected", reviewNote: "商品已使用，不符合退货条件" },
    });
    const notice = await db()
      .selectFrom("notifications")
      .select("body")
      .where("user_id", "=", me.id)
      .where("title", "=", "退货申请未通过")
      .executeTakeFirstOrThrow();
    expect(notice.body).toContain("商品已使用，不符合退货条件");
    expect(await stockOf(book.id)).toBe(9);

    // Asked once more and approved: refunded, the book back in stock.
    await ask();
    const done = await approve(operator, no);
    expect(done.body).toMatchObject({ state: "refunded", refundedCents: book.price_cents });
    expect(done.body.timeline.map((e: { label: string }) => e.label)).toEqual(
      expect.arrayContaining(["申请退货", "已撤销退货申请", "退货申请未通过", "退货申请已通过", "退款完成"]),
    );
    expect(await stockOf(book.id)).toBe(10);
  });

  it("a course refunds whole only", async () => {
    const me = await learner();
    const course = await paidCourse(26);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    await notifySandbox(no, course.price_cents);
    const res = await call(me, "POST", `/api/orders/${no}/refund`, { reason: "不想学了", quantity: 2 }, idem());
    expect(res).toMatchObject({ status: 400, body: { error: { message: "课程只能整单退款" } } });
  });

  it("the job confirms receipt 7 days after shipping", async () => {
    const me = await learner();
    const operator = await learner("operator");
    const book = await bookWithStock(5);
    const no = (await order(me, { itemType: "book", itemId: book.id, quantity: 1, addressId: await address(me) })).body
      .order.orderNo;
    await notifySandbox(no, book.price_cents);
    await call(operator, "POST", `/api/admin/orders/${no}/ship`, { carrier: "中通快递", trackingNo: "ZT99887766" });
    later(6 * DAY);
    expect((await runOrderJob(api())).confirmed).not.toContain(no);
    later(7 * DAY + 60_000);
    expect((await runOrderJob(api())).confirmed).toContain(no);
    expect((await orderRow(no)).state).toBe("completed");
  });
});

describe("coupons", () => {
  async function template(
    values: { total?: number | null; perUser?: number; threshold?: number; scope?: "all" | "course" | "book" } = {},
  ) {
    const t = await db()
      .insertInto("coupon_templates")
      .values({
        title: `测试券${++seq}`,
        kind: "amount",
        amount_off_cents: 1000,
        threshold_cents: values.threshold ?? 0,
        scope: values.scope ?? "all",
        valid_days: 10,
        total_quantity: values.total ?? null,
        per_user_limit: values.perUser ?? 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return t.id;
  }

  it("the claim centre lists the seeded templates", async () => {
    const res = await call(null, "GET", "/api/coupons/templates");
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThanOrEqual(4);
    expect(res.body.items[0]).toMatchObject({ title: "新人专享券", headline: "无门槛减 10 元", canClaim: true });
  });

  it("per-learner limit and total quantity hold under concurrent claims", async () => {
    const me = await learner();
    const limited = await template({ perUser: 2 });
    const mine = await Promise.all(
      Array.from({ length: 10 }, () => call(me, "POST", "/api/coupons/claim", { templateId: limited })),
    );
    expect(mine.filter((r) => r.status === 201)).toHaveLength(2);
    expect(mine.filter((r) => r.status === 409).every((r) => r.body.error.message.includes("每人限领 2 张"))).toBe(
      true,
    );

    const scarce = await template({ total: 5 });
    const crowd = await Promise.all(Array.from({ length: 12 }, () => learner()));
    const results = await Promise.all(crowd.map((c) => call(c, "POST", "/api/coupons/claim", { templateId: scarce })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.message === "优惠券已被领完")).toBe(true);
    const t = await db()
      .selectFrom("coupon_templates")
      .select("claimed_count")
      .where("id", "=", scarce)
      .executeTakeFirstOrThrow();
    expect(t.claimed_count).toBe(5);
    expect(await db().selectFrom("coupons").select("id").where("template_id", "=", scarce).execute()).toHaveLength(5);
  });

  it("applied to an order (discount snapshotted), returned on cancel, and the notice shows once", async () => {
    const me = await learner();
    const course = await paidCourse(14);
    const small = await template({ scope: "course" });
    const big = await db()
      .insertInto("coupon_templates")
      .values({ title: "八折券", kind: "percent", percent_off: 20, scope: "all", valid_days: 5, per_user_limit: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const bookOnly = await template({ scope: "book" });
    await call(me, "POST", "/api/coupons/claim", { templateId: small });
    const claimedBig = await call(me, "POST", "/api/coupons/claim", { templateId: big.id });
    const claimedBook = await call(me, "POST", "/api/coupons/claim", { templateId: bookOnly });
    const best = await call(me, "GET", `/api/coupons/best?itemType=course&itemId=${course.id}`);
    const expected = Math.floor((course.price_cents * 20) / 100);
    expect(best.body.best).toMatchObject({ discountCents: Math.max(expected, 1000) });
    expect(best.body.applicable.map((a: { coupon: { id: number } }) => a.coupon.id)).not.toContain(
      claimedBook.body.coupon.id,
    );

    const wrongScope = await order(me, { itemType: "course", itemId: course.id, couponId: claimedBook.body.coupon.id });
    expect(wrongScope).toMatchObject({ status: 409, body: { error: { message: "该优惠券不适用于此商品" } } });
    const couponId = claimedBig.body.coupon.id;
    const created = await order(me, { itemType: "course", itemId: course.id, couponId });
    expect(created.status).toBe(201);
    expect(created.body.order).toMatchObject({
      couponDiscountCents: expected,
      payCents: course.price_cents - expected,
      couponTitle: "八折券",
    });
    const other = await learner();
    expect((await order(other, { itemType: "course", itemId: course.id, couponId })).status).toBe(409);
    expect(
      (await call(me, "GET", "/api/coupons/mine?state=已使用")).body.items.map((c: { id: number }) => c.id),
    ).toContain(couponId);

    expect((await cancel(me, created.body.order.orderNo)).status).toBe(200);
    const returned = await call(me, "GET", "/api/coupons/mine?state=已退回");
    expect(returned.body.items).toMatchObject([{ id: couponId, state: "returned", stateLabel: "已退回 · 可再次使用" }]);
    // It can be used again, so it is among the usable ones too, and counted in both tabs.
    const usable = await call(me, "GET", "/api/coupons/mine?state=可用");
    expect(usable.body.items.map((c: { id: number }) => c.id)).toContain(couponId);
    expect(usable.body.counts["已退回"]).toBe(1);
    expect(usable.body.counts["可用"]).toBe(usable.body.items.length);
    const notices = await call(me, "GET", "/api/coupons/return-notices");
    expect(notices.body.items).toMatchObject([{ couponId, orderNo: created.body.order.orderNo, title: "八折券" }]);
    expect((await call(me, "POST", "/api/coupons/return-notices/seen", { couponIds: [couponId] })).body.seen).toBe(1);
    expect((await call(me, "GET", "/api/coupons/return-notices")).body.items).toEqual([]);

    // Usable again: a new order takes it, and paying uses it.
    const reorder = await order(me, { itemType: "course", itemId: course.id, couponId });
    expect(reorder.body.order.couponDiscountCents).toBe(expected);
    await notifySandbox(reorder.body.order.orderNo, course.price_cents - expected);
    const used = await db().selectFrom("coupons").select("state").where("id", "=", couponId).executeTakeFirstOrThrow();
    expect(used.state).toBe("used");
    later(11 * DAY);
    const expired = await call(me, "GET", "/api/coupons/mine?state=已过期");
    expect(expired.body.items.map((c: { id: number }) => c.id)).toContain(
      (
        await db()
          .selectFrom("coupons")
          .select("id")
          .where("user_id", "=", me.id)
          .where("template_id", "=", small)
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  it("changes or removes the coupon of an unpaid order at checkout; the old one is free again", async () => {
    const me = await learner();
    const course = await paidCourse(15);
    const a = (await call(me, "POST", "/api/coupons/claim", { templateId: await template({ scope: "course" }) })).body
      .coupon.id;
    const b = (await call(me, "POST", "/api/coupons/claim", { templateId: await template({ scope: "all" }) })).body
      .coupon.id;
    const created = await order(me, { itemType: "course", itemId: course.id, couponId: a });
    const no = created.body.order.orderNo;
    const swap = await call(me, "POST", `/api/orders/${no}/coupon`, { couponId: b }, idem());
    expect(swap.status).toBe(200);
    expect(swap.body).toMatchObject({ couponDiscountCents: 1000, payCents: course.price_cents - 1000 });
    const states = await db()
      .selectFrom("coupons")
      .select(["id", "state", "order_id"])
      .where("id", "in", [a, b])
      .orderBy("id")
      .execute();
    expect(states).toEqual([
      { id: a, state: "available", order_id: null },
      { id: b, state: "locked", order_id: (await orderRow(no)).id },
    ]);
    const none = await call(me, "POST", `/api/orders/${no}/coupon`, { couponId: null }, idem());
    expect(none.body).toMatchObject({ couponDiscountCents: 0, payCents: course.price_cents, couponTitle: null });
    const other = await learner();
    const foreign = (await call(other, "POST", "/api/coupons/claim", { templateId: await template() })).body.coupon.id;
    expect((await call(me, "POST", `/api/orders/${no}/coupon`, { couponId: foreign }, idem())).status).toBe(409);
    await notifySandbox(no, course.price_cents);
    const late = await call(me, "POST", `/api/orders/${no}/coupon`, { couponId: a }, idem());
    expect(late).toMatchObject({ status: 409, body: { error: { message: "订单已支付或已关闭，不能更换优惠券" } } });
  });
});

describe("coins at checkout", () => {
  async function grantCoins(userId: number, amount: number) {
    await db()
      .transaction()
      .execute((trx) =>
        applyLedgerChange(trx, { userId, currency: "coin", amount, reason: "grant", idempotencyKey: `t${++seq}` }),
      );
  }
  async function coins(userId: number) {
    const w = await db()
      .selectFrom("wallets")
      .select("balance")
      .where("user_id", "=", userId)
      .where("currency", "=", "coin")
      .executeTakeFirst();
    return w?.balance ?? 0;
  }
  async function lines(userId: number, reason: string) {
    return db()
      .selectFrom("wallet_entries")
      .select("amount")
      .where("user_id", "=", userId)
      .where("reason", "=", reason)
      .execute();
  }
  const useCoins = (who: Learner, no: string, use: boolean) =>
    call(who, "POST", `/api/orders/${no}/coins`, { use }, idem());

  it("takes at most 30 % of the price, once however often it is asked, and gives the coins back when taken off", async () => {
    const me = await learner();
    await grantCoins(me.id, 100_000);
    const course = await paidCourse(20);
    const created = await order(me, { itemType: "course", itemId: course.id });
    const no = created.body.order.orderNo;
    const cap = Math.floor(course.price_cents * 0.3);
    expect(created.body.order.coinOffer).toEqual({ balance: 100_000, maxCoins: cap, discountCents: cap });

    const on = await useCoins(me, no, true);
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ coinsUsed: cap, coinDiscountCents: cap, payCents: course.price_cents - cap });
    expect(await coins(me.id)).toBe(100_000 - cap);
    expect((await useCoins(me, no, true)).body.coinsUsed).toBe(cap);
    expect(await coins(me.id)).toBe(100_000 - cap);

    const off = await useCoins(me, no, false);
    expect(off.body).toMatchObject({ coinsUsed: 0, coinDiscountCents: 0, payCents: course.price_cents });
    expect(await coins(me.id)).toBe(100_000);
    expect((await lines(me.id, "order_coin_deduction")).map((l) => l.amount)).toEqual([-cap]);
    expect((await lines(me.id, "order_coin_returned")).map((l) => l.amount)).toEqual([cap]);
  });

  it("uses what the learner has when it is less than the cap, and refuses with no coins", async () => {
    const poor = await learner();
    const course = await paidCourse(21);
    const no = (await order(poor, { itemType: "course", itemId: course.id })).body.order.orderNo;
    expect(await useCoins(poor, no, true)).toMatchObject({
      status: 409,
      body: { error: { code: "no_coins", message: "金币余额不足" } },
    });
    await grantCoins(poor.id, 37);
    expect((await useCoins(poor, no, true)).body).toMatchObject({ coinsUsed: 37, payCents: course.price_cents - 37 });
    expect(await coins(poor.id)).toBe(0);
  });

  it("cancelling twice at once returns the coins once; the payment is for the reduced amount and a refund returns them", async () => {
    const me = await learner();
    await grantCoins(me.id, 500);
    const first = await paidCourse(22);
    const no = (await order(me, { itemType: "course", itemId: first.id })).body.order.orderNo;
    await useCoins(me, no, true);
    expect(await coins(me.id)).toBe(0);
    const both = await Promise.all([cancel(me, no), cancel(me, no)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await coins(me.id)).toBe(500);
    expect(await lines(me.id, "order_coin_returned")).toHaveLength(1);

    const second = await paidCourse(23);
    const o2 = (await order(me, { itemType: "course", itemId: second.id })).body.order.orderNo;
    const withCoins = (await useCoins(me, o2, true)).body;
    expect(withCoins.payCents).toBe(second.price_cents - 500);
    // The old amount is no longer the order's: the provider's notice of it is not credited.
    expect((await notifySandbox(o2, second.price_cents)).status).toBe(400);
    expect((await orderRow(o2)).state).toBe("pending");
    expect((await notifySandbox(o2, withCoins.payCents)).status).toBe(200);
    expect((await orderRow(o2)).state).toBe("completed");
    expect((await useCoins(me, o2, false)).status).toBe(409);
    const back = await refund(me, o2);
    expect(back.body.state).toBe("refunded");
    expect(back.body.refundedCents).toBe(second.price_cents - 500);
    expect(await coins(me.id)).toBe(500);
  });

  it("a coupon that leaves no room for the coins sends them back (at least 1 fen is always paid)", async () => {
    const me = await learner();
    await grantCoins(me.id, 100_000);
    const course = await paidCourse(25);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    await useCoins(me, no, true);
    const t = await db()
      .insertInto("coupon_templates")
      .values({
        title: `大额券${++seq}`,
        kind: "amount",
        amount_off_cents: course.price_cents - 100,
        scope: "all",
        valid_days: 10,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const coupon = (await call(me, "POST", "/api/coupons/claim", { templateId: t.id })).body.coupon.id;
    const swapped = await call(me, "POST", `/api/orders/${no}/coupon`, { couponId: coupon }, idem());
    expect(swapped.body).toMatchObject({ coinsUsed: 0, couponDiscountCents: course.price_cents - 100, payCents: 100 });
    expect(await coins(me.id)).toBe(100_000);
    expect((await useCoins(me, no, true)).body).toMatchObject({ coinsUsed: 99, payCents: 1 });
    expect(await coins(me.id)).toBe(100_000 - 99);
  });

  it("many requests to use coins at once debit the order once", async () => {
    const me = await learner();
    await grantCoins(me.id, 100_000);
    const course = await paidCourse(24);
    const no = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
    const results = await Promise.all(Array.from({ length: 10 }, () => useCoins(me, no, true)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const cap = Math.floor(course.price_cents * 0.3);
    expect(await lines(me.id, "order_coin_deduction")).toEqual([{ amount: -cap }]);
    expect(await coins(me.id)).toBe(100_000 - cap);
    expect((await orderRow(no)).pay_cents).toBe(course.price_cents - cap);
  });
});
