/**
 * The operator's exchange mall and shipping list over HTTP: items and stock (guarded changes,
 * right while learners redeem at the same moment), physical redemptions with an address from the
 * learner's address book, shipping with carrier and tracking number, the learner's 兑换记录 and
 * confirmation, the automatic receipt, and role checks. PGlite and, with TEST_DATABASE_URL,
 * PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { confirmOverdueDeliveries } from "../../api/modules/wallet/delivery";
import { commerceHarness, DAY, idem, type Learner } from "./commerce";

const { api, db, call, learner, later } = commerceHarness("158");

async function anyBook() {
  return db().selectFrom("books").select(["id", "title"]).orderBy("id").executeTakeFirstOrThrow();
}

async function newItem(operator: Learner, over: Record<string, unknown> = {}) {
  const book = await anyBook();
  const res = await call(operator, "POST", "/api/admin/mall/items", {
    title: `测试兑换书 ${Math.random().toString(36).slice(2, 7)}`,
    summary: "运营新建",
    kind: "book",
    refId: book.id,
    currency: "coin",
    price: 100,
    perUserLimit: 1,
    coverChar: "书",
    stock: 3,
    ...over,
  });
  expect(res.status).toBe(201);
  return res.body as { id: number; stock: number; title: string };
}

async function richLearner(coins = 1000) {
  const who = await learner();
  expect((await call(who, "POST", "/api/wallet/__test/grant", { currency: "coin", amount: coins })).status).toBe(200);
  return who;
}

async function savedAddress(who: Learner) {
  const res = await call(who, "POST", "/api/orders/addresses", {
    recipient: "王小墨",
    phone: "13912345678",
    region: "浙江省 杭州市 西湖区",
    detail: "文三路 100 号 2 单元",
  });
  expect(res.status).toBe(201);
  return res.body.address.id as number;
}

describe("roles", () => {
  it("refuses anonymous callers, learners and teachers on every admin mall endpoint", async () => {
    const student = await learner();
    const teacherRow = await learner();
    await db().updateTable("users").set({ role: "teacher" }).where("id", "=", teacherRow.id).execute();
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/admin/mall/items"],
      ["POST", "/api/admin/mall/items", {}],
      ["POST", "/api/admin/mall/items/1/stock", { delta: 1, reason: "补货" }],
      ["GET", "/api/admin/shipping"],
      ["POST", "/api/admin/shipping/1/ship", { carrier: "顺丰速运", trackingNo: "SF1234567" }],
    ];
    for (const [method, path, body] of calls) {
      expect((await call(null, method, path, body)).status).toBe(401);
      expect((await call(student, method, path, body)).status).toBe(403);
      expect((await call(teacherRow, method, path, body)).status).toBe(403);
    }
  });
});

describe("items and stock", () => {
  it("creates, edits, lists and filters items; the reference must exist", async () => {
    const op = await learner("operator");
    const item = await newItem(op);
    expect(item).toMatchObject({ stock: 3, kind: "book", active: true, redeemedCount: 0 });

    const bad = await call(op, "POST", "/api/admin/mall/items", {
      title: "不存在的书",
      kind: "book",
      refId: 2_000_000_000,
      currency: "coin",
      price: 10,
      perUserLimit: 1,
      coverChar: "无",
      stock: 1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("不存在");

    const invalid = await call(op, "POST", "/api/admin/mall/items", { title: "x", kind: "book" });
    expect(invalid.status).toBe(400);

    const edited = await call(op, "PUT", `/api/admin/mall/items/${item.id}`, {
      title: `${item.title}（改）`,
      summary: "",
      kind: "book",
      refId: (await anyBook()).id,
      currency: "bishan",
      price: 8,
      perUserLimit: 2,
      coverChar: "改",
      active: false,
      position: 5,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ currency: "bishan", price: 8, active: false, stock: 3 });
    // Off the shelf: learners no longer see it.
    expect((await call(null, "GET", `/api/wallet/items/${item.id}`)).status).toBe(404);

    const off = await call(op, "GET", `/api/admin/mall/items?active=off&q=${encodeURIComponent("（改）")}&pageSize=50`);
    expect(off.status).toBe(200);
    expect(off.body.rows.map((r: { id: number }) => r.id)).toContain(item.id);
    const on = await call(op, "GET", "/api/admin/mall/items?active=on&pageSize=100");
    expect(on.body.rows.every((r: { active: boolean }) => r.active)).toBe(true);
    expect(on.body.total).toBeGreaterThan(0);
    const sorted = await call(op, "GET", "/api/admin/mall/items?sort=price&dir=asc&pageSize=100");
    const prices = sorted.body.rows.map((r: { price: number }) => r.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect((await call(op, "GET", "/api/admin/mall/items?pageSize=7")).status).toBe(400);
  });

  it("changes stock by a delta with a reason, never below zero", async () => {
    const op = await learner("operator");
    const item = await newItem(op);
    const up = await call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: 5, reason: "补货" });
    expect(up.status).toBe(200);
    expect(up.body.stock).toBe(8);
    const tooMany = await call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: -9, reason: "盘点" });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toContain("库存只有 8 件");
    expect((await call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: -2 })).status).toBe(400);
    expect((await call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: 0, reason: "无" })).status).toBe(
      400,
    );
    const down = await call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: -8, reason: "盘点" });
    expect(down.body.stock).toBe(0);
    const trail = await db()
      .selectFrom("audit_log")
      .select(["action", "before", "after", "reason", "actor_id"])
      .where("target_type", "=", "exchange_item")
      .where("target_id", "=", String(item.id))
      .orderBy("id")
      .execute();
    expect(trail.map((a) => [a.action, a.before, a.after, a.reason])).toEqual([
      ["mall.item.create", null, expect.objectContaining({ stock: 3 }), null],
      ["mall.item.stock", { stock: 3 }, { stock: 8 }, "补货"],
      ["mall.item.stock", { stock: 8 }, { stock: 0 }, "盘点"],
    ]);
    expect(trail.every((a) => a.actor_id === op.id)).toBe(true);
  });

  it("keeps stock exact while learners redeem and the operator restocks at the same moment", async () => {
    const op = await learner("operator");
    const item = await newItem(op, { stock: 4, price: 10 });
    const learners = await Promise.all(Array.from({ length: 12 }, () => richLearner(100)));
    const results = await Promise.all([
      ...learners.map((who) =>
        call(who, "POST", `/api/wallet/items/${item.id}/redeem`, { address: address() }, idem()),
      ),
      call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: 3, reason: "补货" }),
      call(op, "POST", `/api/admin/mall/items/${item.id}/stock`, { delta: -1, reason: "破损" }),
    ]);
    const redeemed = results.slice(0, 12).filter((r) => r.status === 200).length;
    const soldOut = results.slice(0, 12).filter((r) => r.status === 409).length;
    expect(redeemed + soldOut).toBe(12);
    const restocked = results[12]!.status === 200 ? 3 : 0;
    const removed = results[13]!.status === 200 ? 1 : 0;
    expect(results[12]!.status).toBe(200);
    const row = await db()
      .selectFrom("exchange_items")
      .select("stock")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row.stock).toBeGreaterThanOrEqual(0);
    expect(row.stock).toBe(4 + restocked - removed - redeemed);
    const completed = await db()
      .selectFrom("exchange_redemptions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("item_id", "=", item.id)
      .where("state", "=", "completed")
      .where("delivery_state", "=", "awaiting_shipment")
      .executeTakeFirstOrThrow();
    expect(Number(completed.n)).toBe(redeemed);
    expect(redeemed).toBeGreaterThanOrEqual(3);
  });
});

const address = () => ({ recipient: "李同学", phone: "13700001111", region: "北京市 海淀区", detail: "学院路 30 号" });

describe("shipping redeemed goods", () => {
  it("redeems to a saved address, ships with tracking, the learner sees it and confirms", async () => {
    const op = await learner("operator");
    const item = await newItem(op);
    const who = await richLearner();
    const addressId = await savedAddress(who);
    const dashboard = async () => (await call(op, "GET", "/api/admin/dashboard")).body.redemptionsToShip as number;
    const waitingBefore = await dashboard();

    const redeemed = await call(who, "POST", `/api/wallet/items/${item.id}/redeem`, { addressId }, idem());
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.redemption.state).toBe("completed");
    const id = redeemed.body.redemption.id as number;

    // Someone else's address book is not theirs to use.
    const other = await richLearner();
    const stolen = await call(other, "POST", `/api/wallet/items/${item.id}/redeem`, { addressId }, idem());
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.code).toBe("address_required");

    const mine = await call(who, "GET", "/api/wallet/redemptions");
    expect(mine.status).toBe(200);
    expect(mine.body.items[0]).toMatchObject({
      id,
      title: item.title,
      deliveryState: "awaiting_shipment",
      trackingNo: null,
      address: { recipient: "王小墨", phone: "13912345678", region: "浙江省 杭州市 西湖区" },
    });

    const waiting = await call(
      op,
      "GET",
      "/api/admin/shipping?state=awaiting_shipment&pageSize=100&q=" + encodeURIComponent(item.title),
    );
    expect(waiting.status).toBe(200);
    expect(waiting.body.rows).toHaveLength(1);
    expect(waiting.body.rows[0]).toMatchObject({ id, userId: who.id, address: { recipient: "王小墨" } });

    // The dashboard counts it among the goods to ship, until it is shipped.
    expect(await dashboard()).toBe(waitingBefore + 1);

    // Receipt cannot be confirmed before shipping.
    expect((await call(who, "POST", `/api/wallet/redemptions/${id}/confirm`)).status).toBe(409);

    const bad = await call(op, "POST", `/api/admin/shipping/${id}/ship`, { carrier: "顺", trackingNo: "x" });
    expect(bad.status).toBe(400);
    const ship = { carrier: "顺丰速运", trackingNo: "SF1002003004" };
    const shipped = await call(op, "POST", `/api/admin/shipping/${id}/ship`, ship);
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({ deliveryState: "shipped", carrier: "顺丰速运", trackingNo: "SF1002003004" });
    const again = await call(op, "POST", `/api/admin/shipping/${id}/ship`, ship);
    expect(again.status).toBe(409);
    expect(await dashboard()).toBe(waitingBefore);
    expect((await call(op, "POST", "/api/admin/shipping/2000000000/ship", ship)).status).toBe(404);

    const notices = await db()
      .selectFrom("notifications")
      .select(["title", "body"])
      .where("user_id", "=", who.id)
      .where("kind", "=", "exchange_shipped")
      .execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain("SF1002003004");

    const after = await call(who, "GET", "/api/wallet/redemptions");
    expect(after.body.items[0]).toMatchObject({
      deliveryState: "shipped",
      carrier: "顺丰速运",
      trackingNo: "SF1002003004",
    });
    // Another learner cannot confirm it.
    expect((await call(other, "POST", `/api/wallet/redemptions/${id}/confirm`)).status).toBe(404);
    const confirmed = await call(who, "POST", `/api/wallet/redemptions/${id}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.deliveryState).toBe("delivered");
    expect((await call(who, "POST", `/api/wallet/redemptions/${id}/confirm`)).status).toBe(409);
    const delivered = await call(op, "GET", "/api/admin/shipping?state=delivered&pageSize=100&q=SF1002003004");
    expect(delivered.body.rows.map((r: { id: number }) => r.id)).toEqual([id]);
    const audit = await db()
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("target_type", "=", "exchange_redemption")
      .where("target_id", "=", String(id))
      .execute();
    expect(audit).toEqual([
      {
        action: "redemption.ship",
        after: { deliveryState: "shipped", carrier: "顺丰速运", trackingNo: "SF1002003004" },
      },
    ]);
  });

  it("leaves coupons and courses out of shipping; the operator marks receipt; the sweep confirms old shipments", async () => {
    const op = await learner("operator");
    const template = await db()
      .selectFrom("coupon_templates")
      .select("id")
      .where("retired_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const coupon = await newItem(op, { kind: "coupon", refId: template.id, title: `券 ${Date.now()}` });
    const who = await richLearner();
    const got = await call(who, "POST", `/api/wallet/items/${coupon.id}/redeem`, {}, idem());
    expect(got.status).toBe(200);
    const row = await db()
      .selectFrom("exchange_redemptions")
      .select("delivery_state")
      .where("id", "=", got.body.redemption.id)
      .executeTakeFirstOrThrow();
    expect(row.delivery_state).toBeNull();
    expect(
      (
        await call(op, "POST", `/api/admin/shipping/${got.body.redemption.id}/ship`, {
          carrier: "中通快递",
          trackingNo: "ZT12345678",
        })
      ).status,
    ).toBe(404);

    const book = await newItem(op);
    const a = await richLearner();
    const b = await richLearner();
    const ra = await call(a, "POST", `/api/wallet/items/${book.id}/redeem`, { address: address() }, idem());
    const rb = await call(b, "POST", `/api/wallet/items/${book.id}/redeem`, { address: address() }, idem());
    for (const [r, no] of [
      [ra, "ZT10000001"],
      [rb, "ZT10000002"],
    ] as const)
      expect(
        (
          await call(op, "POST", `/api/admin/shipping/${r.body.redemption.id}/ship`, {
            carrier: "中通快递",
            trackingNo: no,
          })
        ).status,
      ).toBe(200);
    const marked = await call(op, "POST", `/api/admin/shipping/${ra.body.redemption.id}/delivered`);
    expect(marked.status).toBe(200);
    expect(marked.body.deliveryState).toBe("delivered");
    expect((await call(op, "POST", `/api/admin/shipping/${ra.body.redemption.id}/delivered`)).status).toBe(409);

    later(8 * DAY);
    expect(await confirmOverdueDeliveries(api())).toBeGreaterThanOrEqual(1);
    const swept = await db()
      .selectFrom("exchange_redemptions")
      .select("delivery_state")
      .where("id", "=", rb.body.redemption.id)
      .executeTakeFirstOrThrow();
    expect(swept.delivery_state).toBe("delivered");
  });
});
