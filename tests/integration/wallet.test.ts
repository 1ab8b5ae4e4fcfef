/**
 * /api/wallet over HTTP against a real socket: check-in on an injected clock, the one-way
 * exchange, the exchange mall (stock, per-learner limits, fulfilment and the automatic return
 * when it fails), idempotency keys, the records, and the ledger invariant under concurrent load.
 * Run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { applyLedgerChange } from "../../api/modules/wallet/ledger";
import { failRedemption, STALE_REDEMPTION_MS, sweepStaleRedemptions } from "../../api/modules/wallet/exchange-mall";
import { commerceHarness } from "./commerce";
import { closeServer, listen, TestBrowser, testApp } from "./helpers";

const { api, db, base, realNow } = commerceHarness();
let serial = 0;
const key = () => crypto.randomUUID();

/** A learner signed in through the phone-code login, as the site does it. */
async function smsLearner(): Promise<TestBrowser & { id: number }> {
  const phone = `136${String(10_000_000 + process.pid * 7 + ++serial).slice(-8)}`;
  const browser = new TestBrowser(base());
  expect((await browser.json("POST", "/api/auth/sms/send", { phone })).status).toBe(200);
  const message = api()
    .outbox!.list()
    .find((m) => m.to === phone);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  const login = await browser.json("POST", "/api/auth/sms/login", { phone, code });
  expect(login.status).toBe(200);
  const me = await browser.json("GET", "/api/me");
  return Object.assign(browser, { id: me.body.profile.id as number });
}

/** Many learners at once: a user row and a session each (the login itself is tested elsewhere). */
async function learner(): Promise<TestBrowser & { id: number }> {
  serial++;
  const row = await db()
    .insertInto("users")
    .values({ phone: `135${String(20_000_000 + process.pid * 11 + serial).slice(-8)}`, nickname: `兑换${serial}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  const token = await createSession(api().database, row.id, { userAgent: "test", ip: "127.0.0.1" });
  const browser = new TestBrowser(base());
  browser.cookies.set(sessionCookieName(api().settings.cookies), token);
  return Object.assign(browser, { id: row.id });
}

const grant = (b: TestBrowser, currency: "coin" | "bishan", amount: number) =>
  b.json("POST", "/api/wallet/__test/grant", { currency, amount });
const exchange = (b: TestBrowser, bishan: number, k = key()) =>
  b.json("POST", "/api/wallet/exchange", { bishan }, { "Idempotency-Key": k });
const redeem = (b: TestBrowser, itemId: number, body: unknown = {}, k = key()) =>
  b.json("POST", `/api/wallet/items/${itemId}/redeem`, body, { "Idempotency-Key": k });

async function balanceOf(userId: number, currency: "coin" | "bishan") {
  const row = await db()
    .selectFrom("wallets")
    .select("balance")
    .where("user_id", "=", userId)
    .where("currency", "=", currency)
    .executeTakeFirst();
  return row?.balance ?? 0;
}
async function ledgerSum(userId: number, currency: "coin" | "bishan") {
  const row = await db()
    .selectFrom("wallet_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)).as("sum"))
    .where("user_id", "=", userId)
    .where("currency", "=", currency)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}
const entriesOf = (userId: number) =>
  db().selectFrom("wallet_entries").selectAll().where("user_id", "=", userId).orderBy("id").execute();

async function makeItem(values: {
  kind?: "commodity" | "book" | "coupon" | "course";
  refId?: number;
  currency?: "coin" | "bishan";
  price?: number;
  stock?: number;
  limit?: number;
}) {
  const row = await db()
    .insertInto("exchange_items")
    .values({
      title: `测试物品${++serial}`,
      kind: values.kind ?? "coupon",
      ref_id: values.refId ?? (await couponTemplate()),
      currency: values.currency ?? "coin",
      price: values.price ?? 100,
      stock: values.stock ?? 100,
      per_user_limit: values.limit ?? 100,
      cover_char: "试",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
async function couponTemplate() {
  const row = await db()
    .insertInto("coupon_templates")
    .values({ title: "测试券", kind: "amount", amount_off_cents: 500, valid_days: 7, claimable: false })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
const stockOf = async (itemId: number) =>
  (await db().selectFrom("exchange_items").select("stock").where("id", "=", itemId).executeTakeFirstOrThrow()).stock;

describe("access", () => {
  it("needs a session for everything personal, and keeps answers private", async () => {
    const anonymous = new TestBrowser(base());
    const calls = await Promise.all([
      anonymous.json("GET", "/api/wallet"),
      anonymous.json("POST", "/api/wallet/check-in", {}),
      anonymous.json("POST", "/api/wallet/exchange", { bishan: 1 }, { "Idempotency-Key": key() }),
      anonymous.json("GET", "/api/wallet/entries?currency=coin"),
      anonymous.json("POST", "/api/wallet/items/1/redeem", {}, { "Idempotency-Key": key() }),
      anonymous.json("POST", "/api/wallet/__test/grant", { currency: "coin", amount: 5 }),
    ]);
    for (const [i, res] of calls.entries()) {
      expect(res.status, `call ${i}`).toBe(401);
      expect(res.body.error.message).toBe("请先登录");
    }
    const items = await anonymous.json("GET", "/api/wallet/items");
    expect(items.status).toBe(200);
    expect(items.headers.get("cache-control")).toBe("private, no-store");
  });

  it("has no grant endpoint without test fixtures", async () => {
    const plain = await testApp({}, {}, { TEST_FIXTURES: "0" });
    const listening = await listen(plain.app);
    try {
      const b = new TestBrowser(listening.base);
      const token = await createSession(
        plain.services!.api.database,
        await (async () => {
          const row = await plain
            .services!.api.database.db.insertInto("users")
            .values({ phone: "13500000001", nickname: "无夹具" })
            .returning("id")
            .executeTakeFirstOrThrow();
          return row.id;
        })(),
        { userAgent: "test", ip: "127.0.0.1" },
      );
      b.cookies.set(sessionCookieName(plain.services!.api.settings.cookies), token);
      const res = await b.json("POST", "/api/wallet/__test/grant", { currency: "coin", amount: 100 });
      expect(res.status).toBe(404);
      expect((await b.json("GET", "/api/wallet")).body.balances).toEqual({ coin: 0, bishan: 0 });
    } finally {
      await closeServer(listening.server);
      await plain.dispose();
    }
  });
});

describe("daily check-in", () => {
  it("pays once per China-time day, and says so politely the second time", async () => {
    const b = await smsLearner();
    api().now = () => new Date("2026-11-22T15:30:00Z"); // 23:30 in Beijing
    const first = await b.json("POST", "/api/wallet/check-in", {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ already: false, earned: 5, balance: 5 });
    const again = await b.json("POST", "/api/wallet/check-in", {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ already: true, earned: 0, balance: 5, message: "今天已经签到过了，明天再来吧" });
    const wallet = await b.json("GET", "/api/wallet");
    expect(wallet.body.checkedInToday).toBe(true);
    expect(wallet.body.today.find((t: { rule: string }) => t.rule === "daily_check_in")).toMatchObject({
      earned: 5,
      dailyCap: 5,
    });
    expect(wallet.body.rate).toEqual({ coinsPerBishan: 100, maxBishanPerExchange: 100 });

    api().now = () => new Date("2026-11-22T16:30:00Z"); // 00:30 on the 23rd in Beijing
    expect((await b.json("GET", "/api/wallet")).body.checkedInToday).toBe(false);
    const racing = await Promise.all(Array.from({ length: 5 }, () => b.json("POST", "/api/wallet/check-in", {})));
    expect(racing.filter((r) => r.body.already === false)).toHaveLength(1);
    expect(await balanceOf(b.id, "coin")).toBe(10);
    const lines = await b.json("GET", "/api/wallet/entries?currency=coin");
    expect(lines.body.items.map((l: { reasonName: string; amount: number; balanceAfter: number }) => l)).toMatchObject([
      {
        reason: "daily_check_in",
        reasonName: "每日签到",
        amount: 5,
        balanceAfter: 10,
        ref: { label: "2026-11-23 签到" },
      },
      {
        reason: "daily_check_in",
        reasonName: "每日签到",
        amount: 5,
        balanceAfter: 5,
        ref: { label: "2026-11-22 签到" },
      },
    ]);
  });
});

describe("exchange coins for bishan", () => {
  it("moves both legs in one step with one exchange id", async () => {
    const b = await learner();
    await grant(b, "coin", 350);
    const res = await exchange(b, 3);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ coinsSpent: 300, bishanGained: 3, balances: { coin: 50, bishan: 3 } });
    const lines = (await entriesOf(b.id)).filter((e) => e.ref_type === "exchange");
    expect(lines.map((l) => [l.currency, l.amount, l.reason])).toEqual([
      ["coin", -300, "exchange_out"],
      ["bishan", 3, "exchange_in"],
    ]);
    expect(lines[0]!.ref_id).toBe(res.body.exchangeId);
    expect(lines[1]!.ref_id).toBe(res.body.exchangeId);
  });

  it("refuses bad amounts in Chinese, a missing key, and a short balance without touching anything", async () => {
    const b = await learner();
    await grant(b, "coin", 150);
    const cases: [unknown, string][] = [
      [{ bishan: 0 }, "至少兑换 1 个笔山"],
      [{ bishan: 101 }, "一次最多兑换 100 个笔山"],
      [{ bishan: 1.5 }, "笔山只能按整数兑换"],
      [{ bishan: "2" }, "请输入要兑换的笔山数量"],
      [{ bishan: 1, coins: 1 }, "不支持的字段：coins"],
    ];
    for (const [body, message] of cases) {
      const res = await b.json("POST", "/api/wallet/exchange", body, { "Idempotency-Key": key() });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const noKey = await b.json("POST", "/api/wallet/exchange", { bishan: 1 });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.message).toContain("Idempotency-Key");
    const short = await exchange(b, 2);
    expect(short.status).toBe(409);
    expect(short.body.error.message).toBe("金币余额不足：需要 200 金币，当前 150 金币");
    expect(await balanceOf(b.id, "coin")).toBe(150);
    expect(await balanceOf(b.id, "bishan")).toBe(0);
  });

  it("balance 100, 20 concurrent exchanges of 100 coins: exactly one succeeds, balance 0", async () => {
    const b = await learner();
    await grant(b, "coin", 100);
    const results = await Promise.all(Array.from({ length: 20 }, () => exchange(b, 1)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe("金币余额不足：兑换 1 个笔山需要 100 金币，当前 0 金币");
    }
    expect(await balanceOf(b.id, "coin")).toBe(0);
    expect(await balanceOf(b.id, "bishan")).toBe(1);
    expect(await ledgerSum(b.id, "coin")).toBe(0);
    expect(await ledgerSum(b.id, "bishan")).toBe(1);
  });

  it("one Idempotency-Key: the same answer again with one ledger entry; another body is 422", async () => {
    const b = await learner();
    await grant(b, "coin", 500);
    const k = key();
    const first = await exchange(b, 2, k);
    const second = await exchange(b, 2, k);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const reused = await exchange(b, 3, k);
    expect(reused.status).toBe(422);
    expect(reused.body.error.message).toBe("该幂等键已用于另一个请求，请勿重复使用");
    const lines = (await entriesOf(b.id)).filter((e) => e.reason === "exchange_out");
    expect(lines).toHaveLength(1);
    expect(await balanceOf(b.id, "coin")).toBe(300);
  });

  it("one Idempotency-Key sent 10 times at once: one exchange happens", async () => {
    const b = await learner();
    await grant(b, "coin", 1000);
    const k = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => exchange(b, 1, k)));
    const ran = results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true");
    expect(ran).toHaveLength(1);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(await balanceOf(b.id, "coin")).toBe(900);
    expect(await balanceOf(b.id, "bishan")).toBe(1);
  });
});

describe("the exchange mall", () => {
  it("lists the seeded items of every kind with price, stock, limit and what this learner redeemed", async () => {
    const b = await learner();
    const res = await b.json("GET", "/api/wallet/items");
    expect(res.status).toBe(200);
    const kinds = new Set(res.body.items.map((i: { kind: string }) => i.kind));
    expect([...kinds].sort()).toEqual(["book", "commodity", "coupon", "course"]);
    const currencies = new Set(res.body.items.map((i: { currency: string }) => i.currency));
    expect([...currencies].sort()).toEqual(["bishan", "coin"]);
    const coupon = res.body.items.find((i: { kind: string }) => i.kind === "coupon");
    await grant(b, "coin", coupon.price);
    expect((await redeem(b, coupon.id)).status).toBe(200);
    const after = await b.json("GET", `/api/wallet/items/${coupon.id}`);
    expect(after.body.item).toMatchObject({ redeemed: 1, stock: coupon.stock - 1 });
    expect(after.body.balances).toEqual({ coin: 0, bishan: 0 });
    expect((await b.json("GET", "/api/wallet/items/999999")).status).toBe(404);
    expect((await b.json("GET", "/api/wallet/items/abc")).body.error.message).toBe("兑换物品不存在或已下架");
  });

  it("a coupon item issues a coupon into the learner's packs, valid for the template's days", async () => {
    const b = await learner();
    const now = new Date("2026-11-22T02:00:00Z");
    api().now = () => now;
    const item = await makeItem({ kind: "coupon", price: 40 });
    await grant(b, "coin", 100);
    const res = await redeem(b, item);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      redemption: { state: "completed", failure: null },
      balances: { coin: 60 },
      message: "兑换成功，优惠券已放入你的卡包",
    });
    const coupon = await db()
      .selectFrom("coupons")
      .selectAll()
      .where("id", "=", res.body.redemption.couponId)
      .executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ user_id: b.id, source: "exchange", state: "available" });
    expect(new Date(coupon.valid_until).getTime()).toBe(now.getTime() + 7 * 86_400_000);
  });

  it("a course item enrols; a learner who has the course is refused before being charged", async () => {
    const b = await learner();
    const course = await db().selectFrom("courses").select("id").orderBy("id", "desc").executeTakeFirstOrThrow();
    const item = await makeItem({ kind: "course", refId: course.id, currency: "bishan", price: 5, limit: 3 });
    await grant(b, "bishan", 12);
    const res = await redeem(b, item);
    expect(res.status).toBe(200);
    expect(res.body.redemption.courseId).toBe(course.id);
    const enrolment = await db()
      .selectFrom("enrolments")
      .selectAll()
      .where("user_id", "=", b.id)
      .where("course_id", "=", course.id)
      .executeTakeFirst();
    expect(enrolment?.source).toBe("exchange");
    const again = await redeem(b, item);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("你已拥有这门课程，无需兑换");
    expect(await balanceOf(b.id, "bishan")).toBe(7);
    expect(await stockOf(item)).toBe(99);
  });

  it("a physical item needs a valid address, and keeps a snapshot of it", async () => {
    const b = await learner();
    const commodity = await db().selectFrom("commodities").select("id").executeTakeFirstOrThrow();
    const item = await makeItem({ kind: "commodity", refId: commodity.id, price: 30 });
    await grant(b, "coin", 30);
    const missing = await redeem(b, item, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("实物兑换请填写收货地址");
    const good = { recipient: "王羲之", phone: "13912345678", region: "浙江省 绍兴市 越城区", detail: "兰亭路 1 号" };
    const bad: [object, string][] = [
      [{ ...good, recipient: "" }, "请填写收件人"],
      [{ ...good, recipient: "名".repeat(21) }, "收件人最多 20 个字"],
      [{ ...good, phone: "12345" }, "请输入正确的手机号"],
      [{ ...good, region: "" }, "请填写所在地区（省 市 区）"],
      [{ ...good, detail: "一号" }, "请填写详细地址（至少 4 个字）"],
      [{ ...good, extra: 1 }, "不支持的字段：extra"],
    ];
    for (const [address, message] of bad) {
      const res = await redeem(b, item, { address });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await balanceOf(b.id, "coin")).toBe(30);
    const res = await redeem(b, item, { address: { ...good, phone: "+86 139-1234-5678" } });
    expect(res.status).toBe(200);
    expect(res.body.redemption.state).toBe("completed");
    const row = await db()
      .selectFrom("exchange_redemptions")
      .selectAll()
      .where("id", "=", res.body.redemption.id)
      .executeTakeFirstOrThrow();
    expect(row.address).toEqual({ ...good, phone: "13912345678" });
    expect(row.state).toBe("completed");
  });

  it("balance 100, 20 concurrent redemptions of a 100-coin item: exactly one succeeds, balance 0", async () => {
    const b = await learner();
    const item = await makeItem({ price: 100, stock: 50, limit: 50 });
    await grant(b, "coin", 100);
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(b, item)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.error.message).toBe("金币余额不足");
    expect(await balanceOf(b.id, "coin")).toBe(0);
    expect(await ledgerSum(b.id, "coin")).toBe(0);
    expect(await stockOf(item)).toBe(49);
    const redemptions = await db()
      .selectFrom("exchange_redemptions")
      .select("id")
      .where("item_id", "=", item)
      .execute();
    expect(redemptions).toHaveLength(1);
  });

  it("stock 3, 30 learners at once: exactly 3 get one, the rest hear 已兑完 and keep their coins", async () => {
    const N = 3;
    const item = await makeItem({ price: 10, stock: N, limit: 1 });
    const learners = await Promise.all(Array.from({ length: 10 * N }, () => learner()));
    for (const b of learners) await grant(b, "coin", 10);
    const results = await Promise.all(learners.map((b) => redeem(b, item)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(N);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe("已兑完");
    }
    expect(await stockOf(item)).toBe(0);
    const coins = await Promise.all(learners.map((b) => balanceOf(b.id, "coin")));
    expect(coins.filter((c) => c === 0)).toHaveLength(N);
    expect(coins.filter((c) => c === 10)).toHaveLength(9 * N);
  });

  it("the per-learner limit holds when one learner redeems 10 times at once", async () => {
    const b = await learner();
    const item = await makeItem({ price: 10, stock: 100, limit: 2 });
    await grant(b, "coin", 1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => redeem(b, item)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe("每人限兑 2 件，你已兑换过了");
    }
    expect(await stockOf(item)).toBe(98);
    expect(await balanceOf(b.id, "coin")).toBe(980);
  });

  it("a redemption whose fulfilment fails returns the currency and the stock, exactly once", async () => {
    const b = await learner();
    const template = await couponTemplate();
    const item = await makeItem({ kind: "coupon", refId: template, currency: "bishan", price: 4, stock: 5, limit: 1 });
    await db().deleteFrom("coupon_templates").where("id", "=", template).execute();
    await grant(b, "bishan", 10);
    const res = await redeem(b, item);
    expect(res.status).toBe(200);
    expect(res.body.redemption).toMatchObject({ state: "failed", failure: "优惠券已停止发放", couponId: null });
    expect(res.body.message).toBe("兑换失败：优惠券已停止发放。已自动退回 4 笔山");
    expect(res.body.balances.bishan).toBe(10);
    expect(await stockOf(item)).toBe(5);
    const lines = (await entriesOf(b.id)).filter((e) => e.currency === "bishan");
    expect(lines.map((l) => [l.reason, l.amount, l.balance_after])).toEqual([
      ["grant", 10, 10],
      ["redeem", -4, 6],
      ["redeem_returned", 4, 10],
    ]);
    // Returning it again (a retry, a second node) changes nothing.
    expect(await failRedemption(api(), res.body.redemption.id, "again")).toBe(false);
    expect(await balanceOf(b.id, "bishan")).toBe(10);
    expect(await stockOf(item)).toBe(5);
    // A failed redemption does not count against the limit of one.
    await db()
      .updateTable("exchange_items")
      .set({ ref_id: await couponTemplate() })
      .where("id", "=", item)
      .execute();
    const retry = await redeem(b, item);
    expect(retry.body.redemption.state).toBe("completed");
    expect(await balanceOf(b.id, "bishan")).toBe(6);
    const records = await b.json("GET", "/api/wallet/entries?currency=bishan");
    expect(records.body.items.map((l: { reasonName: string }) => l.reasonName)).toEqual([
      "兑换商城",
      "兑换失败退回",
      "兑换商城",
      "平台发放",
    ]);
    expect(records.body.items[1].ref.label).toMatch(/^兑换：测试物品/);
  });

  it("a redemption a crash left pending is returned by the redemption sweep after 10 minutes, once with two runs at once", async () => {
    const b = await learner();
    const item = await makeItem({ price: 30, stock: 4, limit: 2 });
    await grant(b, "coin", 100);
    // What step 1 of a redemption leaves behind when the process dies before fulfilment.
    const redemption = await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable("exchange_items")
          .set((eb) => ({ stock: eb("stock", "-", 1) }))
          .where("id", "=", item)
          .execute();
        const row = await trx
          .insertInto("exchange_redemptions")
          .values({ user_id: b.id, item_id: item, currency: "coin", price: 30, created_at: realNow() })
          .returning("id")
          .executeTakeFirstOrThrow();
        await applyLedgerChange(trx, {
          userId: b.id,
          currency: "coin",
          amount: -30,
          reason: "redeem",
          refType: "redemption",
          refId: row.id,
          idempotencyKey: String(row.id),
        });
        return row.id;
      });
    expect(await balanceOf(b.id, "coin")).toBe(70);
    expect(await sweepStaleRedemptions(api())).not.toContain(redemption);
    const at = new Date(realNow().getTime() + STALE_REDEMPTION_MS + 1000);
    api().now = () => at;
    const runs = await Promise.all([sweepStaleRedemptions(api()), sweepStaleRedemptions(api())]);
    expect(runs.flat().filter((id) => id === redemption)).toEqual([redemption]);
    expect(await balanceOf(b.id, "coin")).toBe(100);
    expect(await stockOf(item)).toBe(4);
    const row = await db()
      .selectFrom("exchange_redemptions")
      .select(["state", "failure"])
      .where("id", "=", redemption)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "failed", failure: "发放超时未完成，已自动退回" });
  });

  it("the same redeem key twice redeems once and answers the same", async () => {
    const b = await learner();
    const item = await makeItem({ price: 10, limit: 5 });
    await grant(b, "coin", 100);
    const k = key();
    const first = await redeem(b, item, {}, k);
    const second = await redeem(b, item, {}, k);
    expect(second.body).toEqual(first.body);
    expect(await balanceOf(b.id, "coin")).toBe(90);
  });
});

describe("records", () => {
  it("lists every line newest first, 20 a page, with reason, linked object and balance after", async () => {
    const b = await learner();
    for (let i = 0; i < 24; i++) await grant(b, "coin", 100);
    const res = await exchange(b, 2);
    expect(res.status).toBe(200);
    const page1 = await b.json("GET", "/api/wallet/entries?currency=coin");
    expect(page1.body).toMatchObject({ total: 25, page: 1, pageSize: 20, balance: 2200 });
    expect(page1.body.items).toHaveLength(20);
    expect(page1.body.items[0]).toMatchObject({
      amount: -200,
      balanceAfter: 2200,
      reasonName: "兑换笔山",
      ref: { type: "exchange", id: res.body.exchangeId, label: "200 金币兑换 2 笔山" },
    });
    const page2 = await b.json("GET", "/api/wallet/entries?currency=coin&page=2");
    expect(page2.body.items).toHaveLength(5);
    expect(page2.body.items.at(-1)).toMatchObject({ amount: 100, balanceAfter: 100, reasonName: "平台发放" });
    const ids = [...page1.body.items, ...page2.body.items].map((l: { id: number }) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const bishan = await b.json("GET", "/api/wallet/entries?currency=bishan");
    expect(bishan.body.items).toMatchObject([{ amount: 2, balanceAfter: 2, reasonName: "金币兑换" }]);
    expect((await b.json("GET", "/api/wallet/entries?currency=gold")).body.error.message).toBe("请选择金币或笔山");
    expect((await b.json("GET", "/api/wallet/entries?currency=coin&page=0")).body.error.message).toBe("页码不正确");
  });
});

describe("ledger invariant", () => {
  it("every balance equals the sum of its ledger after a random concurrent load", async () => {
    const learners = await Promise.all(Array.from({ length: 4 }, () => learner()));
    const items = [
      await makeItem({ price: 70, stock: 6, limit: 3 }),
      await makeItem({ currency: "bishan", price: 2, stock: 8, limit: 4 }),
    ];
    for (const b of learners) await grant(b, "coin", 400);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const jobs = Array.from({ length: 80 }, () => {
      const b = learners[rand(learners.length)]!;
      switch (rand(5)) {
        case 0:
          return grant(b, "coin", 1 + rand(150));
        case 1:
          return exchange(b, 1 + rand(3));
        case 2:
          return redeem(b, items[0]!);
        case 3:
          return redeem(b, items[1]!);
        default:
          return b.json("POST", "/api/wallet/check-in", {});
      }
    });
    const results = await Promise.all(jobs);
    for (const r of results) expect([200, 409]).toContain(r.status);
    for (const b of learners) {
      for (const currency of ["coin", "bishan"] as const) {
        const balance = await balanceOf(b.id, currency);
        expect(balance).toBeGreaterThanOrEqual(0);
        expect(balance).toBe(await ledgerSum(b.id, currency));
        const last = await db()
          .selectFrom("wallet_entries")
          .select("balance_after")
          .where("user_id", "=", b.id)
          .where("currency", "=", currency)
          .orderBy("id", "desc")
          .executeTakeFirst();
        expect(last?.balance_after ?? 0).toBe(balance);
      }
    }
    for (const item of items) {
      const completed = await db()
        .selectFrom("exchange_redemptions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("item_id", "=", item)
        .where("state", "=", "completed")
        .executeTakeFirstOrThrow();
      expect((await stockOf(item)) + Number(completed.n)).toBe(item === items[0] ? 6 : 8);
    }
  });
});
