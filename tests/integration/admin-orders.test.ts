/**
 * The operators' order desk and dashboard (/api/admin/orders, /api/admin/dashboard): search and
 * filters over every learner's orders, the detail with payments and refunds, shipping, return
 * reviews, retrying a refused refund and refunds by hand — each audited, the money moves
 * idempotent and paid out once under concurrent duplicates (on PostgreSQL the requests really
 * overlap: each goes over its own socket and pooled connection).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { chinaDate } from "../../shared/china-time";
import { SandboxGateway } from "../../api/providers/payments/sandbox";
import { runJobTick } from "../../api/jobs/registry";
import { commerceHarness, idem, type Learner } from "./commerce";

const { api, db, learner, call, notifySandbox, paidCourse, orderRow } = commerceHarness("135");
let seq = 0;

afterEach(() => {
  vi.restoreAllMocks();
});

const order = (who: Learner, body: Record<string, unknown>) => call(who, "POST", "/api/orders", body, idem());

async function address(who: Learner): Promise<number> {
  const res = await call(who, "POST", "/api/orders/addresses", {
    recipient: "李小白",
    phone: "13912345678",
    region: "江苏省 南京市 鼓楼区",
    detail: "中山路 1 号",
  });
  return res.body.address.id;
}

async function paidBook(me: Learner, quantity = 1) {
  const book = await db()
    .selectFrom("books")
    .select(["id", "price_cents", "title"])
    .where("status", "=", "published")
    .orderBy("id")
    .limit(1)
    .offset(++seq % 20)
    .executeTakeFirstOrThrow();
  await db().updateTable("books").set({ stock: 50 }).where("id", "=", book.id).execute();
  const created = await order(me, { itemType: "book", itemId: book.id, quantity, addressId: await address(me) });
  const no: string = created.body.order.orderNo;
  expect((await notifySandbox(no, created.body.order.payCents)).status).toBe(200);
  return { no, book, payCents: created.body.order.payCents as number };
}

async function paidCourseOrder(me: Learner, offset: number) {
  const course = await paidCourse(offset);
  const no: string = (await order(me, { itemType: "course", itemId: course.id })).body.order.orderNo;
  expect((await notifySandbox(no, course.price_cents)).status).toBe(200);
  return { no, course };
}

async function auditOf(targetId: string) {
  return db().selectFrom("audit_log").selectAll().where("target_id", "=", targetId).orderBy("id").execute();
}

const ship = (operator: Learner, no: string, body = { carrier: "顺丰速运", trackingNo: "SF7000000001" }) =>
  call(operator, "POST", `/api/admin/orders/${no}/ship`, body);

describe("the order list", () => {
  it("finds orders by number, phone, e-mail and item, filters by state, kind and China date, sorts and pages on the server", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const email = `buyer${process.pid}${++seq}@example.cn`;
    await db().updateTable("users").set({ email }).where("id", "=", me.id).execute();
    const { no: bookNo, book } = await paidBook(me);
    const { no: courseNo, course } = await paidCourseOrder(me, 3);
    const { phone } = await db().selectFrom("users").select("phone").where("id", "=", me.id).executeTakeFirstOrThrow();

    const list = (params: string) => call(operator, "GET", `/api/admin/orders?${params}`);
    const numbers = (res: { body: { rows: { orderNo: string }[] } }) => res.body.rows.map((r) => r.orderNo);

    const byNo = await list(`q=${bookNo}`);
    expect(byNo.status).toBe(200);
    expect(byNo.body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(byNo.body.rows[0]).toMatchObject({
      orderNo: bookNo,
      userId: me.id,
      title: book.title,
      state: "awaiting_shipment",
      stateLabel: "待发货",
      physical: true,
      returnRequested: false,
    });
    expect(numbers(await list(`q=${phone}`)).sort()).toEqual([bookNo, courseNo].sort());
    expect(numbers(await list(`q=${encodeURIComponent(email.toUpperCase())}`)).sort()).toEqual(
      [bookNo, courseNo].sort(),
    );
    expect(numbers(await list(`q=${encodeURIComponent(course.title)}&userId=${me.id}`))).toEqual([courseNo]);
    // LIKE wildcards in the search are taken literally.
    expect((await list(`q=${encodeURIComponent("%")}&userId=${me.id}`)).body.total).toBe(0);

    expect(numbers(await list(`userId=${me.id}&kind=book`))).toEqual([bookNo]);
    expect(numbers(await list(`userId=${me.id}&kind=course`))).toEqual([courseNo]);
    expect(numbers(await list(`userId=${me.id}&state=completed`))).toEqual([courseNo]);
    const today = chinaDate(api().now());
    expect((await list(`userId=${me.id}&from=${today}&to=${today}`)).body.total).toBe(2);
    expect((await list(`userId=${me.id}&to=2020-01-01`)).body.total).toBe(0);

    const asc = await list(`userId=${me.id}&sort=payCents&dir=asc&pageSize=20`);
    const pays = asc.body.rows.map((r: { payCents: number }) => r.payCents);
    expect(pays).toEqual([...pays].sort((a, b) => a - b));
    const page2 = await list(`pageSize=20&page=2&sort=createdAt&dir=desc`);
    const page1 = await list(`pageSize=20&page=1&sort=createdAt&dir=desc`);
    expect(page2.body.page).toBe(2);
    expect(numbers(page1).filter((n: string) => numbers(page2).includes(n))).toEqual([]);

    for (const bad of ["state=lost", "kind=car", "from=2026-13-45", "pageSize=7", "sort=password"])
      expect((await list(bad)).status, bad).toBe(400);
  });

  it("refuses learners and teachers, and the old operator calls under /api/orders are gone", async () => {
    const me = await learner();
    const teacher = await learner();
    await db().updateTable("users").set({ role: "teacher" }).where("id", "=", teacher.id).execute();
    const { no } = await paidBook(me);
    for (const who of [me, teacher]) {
      expect((await call(who, "GET", "/api/admin/orders")).status).toBe(403);
      expect((await call(who, "GET", `/api/admin/orders/${no}`)).status).toBe(403);
      expect((await ship(who, no)).status).toBe(403);
    }
    expect((await call(null, "GET", "/api/admin/orders")).status).toBe(401);
    const operator = await learner("operator");
    expect(
      (await call(operator, "POST", `/api/orders/${no}/ship`, { carrier: "顺丰速运", trackingNo: "SF1" })).status,
    ).toBe(404);
    expect((await orderRow(no)).state).toBe("awaiting_shipment");
  });
});

describe("shipping and returns", () => {
  it("ships a book order once; the learner sees it shipped; the audit log has who and what", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const { no } = await paidBook(me, 2);
    const detail = await call(operator, "GET", `/api/admin/orders/${no}`);
    expect(detail.body).toMatchObject({
      learner: { id: me.id },
      actions: { ship: true, reviewReturn: false, retryRefundId: null, refund: { allowed: true, maxQuantity: 2 } },
    });
    expect(detail.body.payments).toHaveLength(1);
    expect((await ship(operator, no, { carrier: "顺", trackingNo: "SF1" })).status).toBe(400);

    const both = await Promise.all([ship(operator, no), ship(operator, no)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const done = both.find((r) => r.status === 200)!;
    expect(done.body).toMatchObject({
      order: { state: "shipped", carrier: "顺丰速运", trackingNo: "SF7000000001" },
      actions: { ship: false },
    });
    const seen = await call(me, "GET", `/api/orders/${no}`);
    expect(seen.body).toMatchObject({ state: "shipped", stateLabel: "已发货", trackingNo: "SF7000000001" });
    const audit = await auditOf(no);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: operator.id, action: "order.ship", target_type: "order" });
    expect(JSON.stringify(audit[0]!.after)).toContain("SF7000000001");
  });

  it("a return: the operator rejects with a reason the learner reads, then approves a new request; money moves once", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const { no, payCents } = await paidBook(me);
    expect((await ship(operator, no)).status).toBe(200);
    const ask = () => call(me, "POST", `/api/orders/${no}/refund`, { reason: "封面破损" }, idem());
    expect((await ask()).body.state).toBe("refunding");

    const waiting = await call(operator, "GET", "/api/admin/orders/returns");
    expect(waiting.body.items.map((i: { orderNo: string }) => i.orderNo)).toContain(no);
    expect((await call(operator, "GET", `/api/admin/orders?state=return_requested&q=${no}`)).body.total).toBe(1);
    expect((await call(operator, "GET", `/api/admin/orders/${no}`)).body.actions.reviewReturn).toBe(true);

    const reject = (body: unknown) => call(operator, "POST", `/api/admin/orders/${no}/return/reject`, body);
    expect((await reject({})).status).toBe(400);
    const rejected = await reject({ note: "商品已拆封使用" });
    expect(rejected.status).toBe(200);
    expect(rejected.body.order).toMatchObject({
      state: "shipped",
      refundRequest: { state: "rejected", reviewNote: "商品已拆封使用" },
    });
    expect((await reject({ note: "商品已拆封使用" })).status).toBe(409);
    const mine = await call(me, "GET", `/api/orders/${no}`);
    expect(mine.body.refundRequest).toMatchObject({ stateLabel: "退货申请未通过", reviewNote: "商品已拆封使用" });

    await ask();
    const approve = (headers: Record<string, string>) =>
      call(operator, "POST", `/api/admin/orders/${no}/return/approve`, { note: "同意退货" }, headers);
    expect((await approve({})).status).toBe(400); // no Idempotency-Key
    const refundSpy = vi.spyOn(SandboxGateway.prototype, "refund");
    const key = idem();
    const results = await Promise.all([approve(key), approve(key), approve(idem()), approve(idem())]);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(refundSpy).toHaveBeenCalledTimes(1);
    expect((await orderRow(no)).refunded_cents).toBe(payCents);
    const replay = await approve(key);
    expect([200, 409]).toContain(replay.status);
    expect(refundSpy).toHaveBeenCalledTimes(1);
    expect((await call(me, "GET", `/api/orders/${no}`)).body).toMatchObject({ state: "refunded" });
    const actions = (await auditOf(no)).map((a) => a.action);
    expect(actions).toEqual(["order.ship", "order.return.reject", "order.return.approve"]);
  });
});

describe("refunds by hand and retries", () => {
  it("refunds a course within the rules; concurrent duplicates (same key or not) pay out once", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const { no, course } = await paidCourseOrder(me, 5);
    const refundSpy = vi.spyOn(SandboxGateway.prototype, "refund");
    const refund = (headers: Record<string, string>) =>
      call(operator, "POST", `/api/admin/orders/${no}/refund`, { reason: "学员来电要求退款" }, headers);
    expect((await refund({})).status).toBe(400);
    const key = idem();
    const results = await Promise.all([
      refund(key),
      refund(key),
      refund(key),
      refund(idem()),
      refund(idem()),
      refund(idem()),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(refundSpy).toHaveBeenCalledTimes(1);
    const row = await orderRow(no);
    expect(row).toMatchObject({ state: "refunded", refunded_cents: course.price_cents });
    const refunds = await db().selectFrom("refunds").selectAll().where("order_id", "=", row.id).execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ state: "succeeded", reviewed_by: operator.id });
    const enrolled = await db()
      .selectFrom("enrolments")
      .select("course_id")
      .where("user_id", "=", me.id)
      .where("course_id", "=", course.id)
      .execute();
    expect(enrolled).toEqual([]);
    const audit = await auditOf(no);
    expect(audit.map((a) => a.action)).toEqual(["order.refund"]);
    expect(audit[0]).toMatchObject({ actor_id: operator.id, reason: "学员来电要求退款" });
    // The rules still hold for operators: nothing left to refund.
    const again = await refund(idem());
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("订单已退款");
  });

  it("a refund the provider refuses shows on the dashboard and in the list; a retry pays it once", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const { no, payCents } = await paidBook(me);
    const before = (await call(operator, "GET", "/api/admin/dashboard")).body;
    const refused = vi.spyOn(SandboxGateway.prototype, "refund").mockResolvedValue({ ok: false, refundId: "" });
    const first = await call(operator, "POST", `/api/admin/orders/${no}/refund`, { reason: "缺货，主动退款" }, idem());
    expect(first.status).toBe(502);
    expect((await orderRow(no)).state).toBe("awaiting_shipment");
    const detail = await call(operator, "GET", `/api/admin/orders/${no}`);
    const failedId = detail.body.refunds.at(-1).id;
    expect(detail.body.refunds.at(-1)).toMatchObject({ state: "failed", stateLabel: "退款失败" });
    expect(detail.body.actions.retryRefundId).toBe(failedId);
    expect((await call(operator, "GET", `/api/admin/orders?state=refund_failed&q=${no}`)).body.total).toBe(1);
    const after = (await call(operator, "GET", "/api/admin/dashboard")).body;
    expect(after.refundsFailed).toBe(before.refundsFailed + 1);

    refused.mockRestore();
    const paid = vi.spyOn(SandboxGateway.prototype, "refund");
    const retry = (headers: Record<string, string>, refundId = failedId) =>
      call(operator, "POST", `/api/admin/orders/${no}/refund/retry`, { refundId }, headers);
    expect((await retry(idem(), failedId + 999)).status).toBe(409);
    const results = await Promise.all([retry(idem()), retry(idem()), retry(idem())]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(paid).toHaveBeenCalledTimes(1);
    expect(await orderRow(no)).toMatchObject({ state: "refunded", refunded_cents: payCents });
    const stock = await db().selectFrom("refunds").select("state").where("id", "=", failedId).executeTakeFirstOrThrow();
    expect(stock.state).toBe("succeeded");
    expect((await call(operator, "GET", "/api/admin/dashboard")).body.refundsFailed).toBe(before.refundsFailed);
    expect((await auditOf(no)).map((a) => a.action)).toEqual(["order.refund", "order.refund.retry"]);
  });
});

describe("the dashboard", () => {
  it("counts today's orders and revenue by the China day, what waits, and jobs whose last run failed", async () => {
    const operator = await learner("operator");
    const me = await learner();
    const before = (await call(operator, "GET", "/api/admin/dashboard")).body;
    expect(before.day).toBe(chinaDate(api().now()));
    const { payCents } = await paidBook(me);
    await order(me, { itemType: "course", itemId: (await paidCourse(7)).id });
    const failing = {
      name: `admin-test-failing-${process.pid}`,
      everyMs: 60_000,
      run: () => Promise.reject(new Error("boom")),
    };
    const { registerJob } = await import("../../api/jobs/registry");
    registerJob(failing);
    expect(await runJobTick(api(), failing)).toBe("failed");

    const after = await call(operator, "GET", "/api/admin/dashboard");
    expect(after.status).toBe(200);
    expect(after.body.ordersToday).toBe(before.ordersToday + 2);
    expect(after.body.paidToday).toBe(before.paidToday + 1);
    expect(after.body.revenueTodayCents).toBe(before.revenueTodayCents + payCents);
    expect(after.body.toShip).toBe(before.toShip + 1);
    expect(after.body.failedJobs).toEqual(
      expect.arrayContaining([expect.objectContaining({ job: failing.name, error: "boom", failedRuns: 1 })]),
    );
    // The demo data has homework waiting in the teachers' queues: its oldest submission is given.
    const oldest = await db()
      .selectFrom("homework_attempts")
      .select((eb) => [eb.fn.countAll<string>().as("n"), eb.fn.min("submitted_at").as("at")])
      .where("state", "=", "waiting")
      .executeTakeFirstOrThrow();
    expect(after.body.homeworkWaiting).toBe(Number(oldest.n));
    expect(after.body.homeworkOldestAt).toBe(oldest.at ? new Date(oldest.at as Date).toISOString() : null);
    expect((await call(me, "GET", "/api/admin/dashboard")).status).toBe(403);
  });
});
