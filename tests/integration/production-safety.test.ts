/**
 * Production safety through the app in process: buying switched off while no payment provider is
 * configured (pro without PAYMENT_PROVIDER), the 测试支付 banner while the sandbox takes payments,
 * accounts from `user:create` that must change their one-time password first, roles granted
 * and revoked, and login codes refused (503) while pro has nothing to deliver them by. (A real `pro` start and the commands themselves: production-start.test.ts.)
 */
import { randomUUID } from "node:crypto";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountCommandError,
  changeRole,
  createAccount,
  oneTimePassword,
} from "../../api/modules/admin/accounts-admin";
import { verifyAuditChain } from "../../api/modules/audit/chain";
import { CHANNEL_UNAVAILABLE } from "../../api/modules/auth/otp";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { createApp } from "../../server/app";
import { type AppConfig, loadConfig } from "../../server/config";
import type { Services } from "../../api/index";
import { openServices } from "../../server/services";
import {
  PAYMENTS_OFF_MESSAGE,
  PAYMENTS_OFF_ORDER_MESSAGE,
  SANDBOX_PAYMENT_NOTICE,
} from "../../shared/contracts/payments";
import { testDatabase } from "../db";
import { BROWSER_UA, clientDir, testApp, capturedLogger } from "./helpers";

const ORIGIN = "http://localhost:3000";
type Harness = Awaited<ReturnType<typeof testApp>>;
let seq = 0;

async function learnerCookie(h: Harness): Promise<string> {
  const api = h.services!.api;
  const phone = `136${String(10_000_000 + ++seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`;
  const user = await api.database.db
    .insertInto("users")
    .values({ phone, nickname: `学员${seq}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  const token = await createSession(api.database, user.id, { userAgent: "vitest", ip: "127.0.0.1" });
  return `${sessionCookieName(api.settings.cookies)}=${token}`;
}

async function paidCourseId(h: Harness): Promise<number> {
  const row = await h
    .services!.database.db.selectFrom("courses")
    .select("id")
    .where("price_cents", ">", 0)
    .where("status", "=", "published")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("pro without a payment provider: buying is off", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await testApp(
      { deployEnv: "pro", testFixtures: false, payments: { provider: "none" } },
      {},
      {},
      { catalogue: true },
    );
  });
  afterAll(() => h.dispose());

  it("offers no payment method and the sandbox endpoints answer 404", async () => {
    const methods = await request(h.app).get("/api/payments/methods");
    expect(methods.body).toEqual({ methods: [] });
    const checkout = await request(h.app).get(`/api/payments/sandbox/checkout/${randomUUID()}`);
    expect(checkout.status).toBe(404);
    for (const decision of ["approve", "decline", "fail"]) {
      const res = await request(h.app)
        .post(`/api/payments/sandbox/checkout/${randomUUID()}/${decision}`)
        .set("Origin", ORIGIN);
      expect(res.status, decision).toBe(404);
    }
    const notify = await request(h.app).post("/api/payments/notify/sandbox").set("Origin", ORIGIN).send({});
    expect(notify.status).toBe(404);
  });

  it("refuses orders, gifts and groups with a clear Chinese message", async () => {
    const cookie = await learnerCookie(h);
    const courseId = await paidCourseId(h);
    const post = (path: string, body: unknown) =>
      request(h.app)
        .post(path)
        .set({ Origin: ORIGIN, Cookie: cookie, "Idempotency-Key": randomUUID() })
        .send(body as object);
    const order = await post("/api/orders", { itemType: "course", itemId: courseId, quantity: 1 });
    expect(order.status).toBe(403);
    expect(order.body.error).toEqual({ code: "payments_off", message: PAYMENTS_OFF_ORDER_MESSAGE });
    const gift = await post("/api/gifts", { courseId, message: "送你一门课" });
    expect(gift.status).toBe(403);
    expect(gift.body.error.code).toBe("payments_off");
    const campaign = await h.services!.database.db.selectFrom("group_campaigns").select("id").executeTakeFirst();
    if (campaign) {
      const group = await post("/api/groups", { campaignId: campaign.id });
      expect(group.status).toBe(403);
      expect(group.body.error.code).toBe("payments_off");
    }
    const count = await h
      .services!.database.db.selectFrom("orders")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("the course page disables its buy button and says why", async () => {
    const cookie = await learnerCookie(h);
    const res = await request(h.app)
      .get(`/course/${await paidCourseId(h)}`)
      .set({ "User-Agent": BROWSER_UA, Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.text).toContain(PAYMENTS_OFF_MESSAGE);
    expect(res.text).toMatch(/<button[^>]*disabled=""[^>]*>立即购买<\/button>/);
    expect(res.text).toContain('"payments":"off"');
    expect(res.text).not.toContain(SANDBOX_PAYMENT_NOTICE);
  });
});

describe("sandbox payments say plainly that they are test payments", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await testApp({}, {}, {}, { catalogue: true });
  });
  afterAll(() => h.dispose());

  it("on the orders page, the payment page and the hosted checkout", async () => {
    const cookie = await learnerCookie(h);
    const orders = await request(h.app).get("/my/order").set({ "User-Agent": BROWSER_UA, Cookie: cookie });
    expect(orders.status).toBe(200);
    expect(orders.text).toContain(SANDBOX_PAYMENT_NOTICE);

    const created = await request(h.app)
      .post("/api/orders")
      .set({ Origin: ORIGIN, Cookie: cookie, "Idempotency-Key": randomUUID() })
      .send({ itemType: "course", itemId: await paidCourseId(h), quantity: 1 });
    expect(created.status).toBe(201);
    const orderNo = created.body.order.orderNo as string;
    const payment = await request(h.app)
      .get(`/payment?order=${orderNo}`)
      .set({ "User-Agent": BROWSER_UA, Cookie: cookie });
    expect(payment.text).toContain(SANDBOX_PAYMENT_NOTICE);
    expect(payment.text).not.toContain('data-testid="buying-off"');

    const started = await request(h.app)
      .post(`/api/payments/${orderNo}/start`)
      .set({ Origin: ORIGIN, Cookie: cookie })
      .send({ method: "sandbox" });
    expect(started.status).toBe(200);
    const checkout = await request(h.app).get(new URL(started.body.redirectUrl as string, ORIGIN).pathname);
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain(SANDBOX_PAYMENT_NOTICE);
  });
});

describe("accounts made by user:create", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await testApp({}, {}, { TRUST_PROXY_HOPS: "1" });
  });
  afterAll(() => h.dispose());

  it("one-time passwords are long, random and follow the password rules", () => {
    const passwords = new Set(Array.from({ length: 50 }, oneTimePassword));
    expect(passwords.size).toBe(50);
    for (const p of passwords) expect(p).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{20}$/);
  });

  it("an operator must set a new password after the first login, before anything else", async () => {
    const database = h.services!.database;
    const { user, password } = await createAccount(database, {
      role: "operator",
      email: "First.Operator@Example.cn",
      phone: "138 0013 9000",
    });
    expect(user).toMatchObject({ role: "operator", email: "first.operator@example.cn", phone: "13800139000" });
    await expect(createAccount(database, { role: "teacher", email: "first.operator@example.cn" })).rejects.toThrow(
      AccountCommandError,
    );

    const agent = request.agent(h.app);
    agent.set("Origin", ORIGIN).set("User-Agent", BROWSER_UA).set("X-Forwarded-For", "198.51.100.77");
    const login = await agent.post("/api/auth/email/login").send({ email: "first.operator@example.cn", password });
    expect(login.status).toBe(200);
    const me = await agent.get("/api/auth/me");
    expect(me.body.viewer.passwordChangeRequired).toBe(true);

    // Everything but reading one's own account, logging in/out and the password change is refused.
    const returns = await agent.get("/api/admin/orders/returns");
    expect(returns.status).toBe(403);
    expect(returns.body.error.code).toBe("password_change_required");
    expect(returns.body.error.message).toMatch(/请先修改初始密码/);
    const profile = await agent.patch("/api/me").send({ nickname: "新名字" });
    expect(profile.status).toBe(403);
    expect((await agent.get("/api/me")).status).toBe(200);

    // Pages send the browser to the security page, which shows the change step.
    const home = await agent.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe("/my/security");
    const security = await agent.get("/my/security");
    expect(security.status).toBe(200);
    expect(security.text).toContain("password-change-required");

    const same = await agent.post("/api/me/password").send({ current: password, password });
    expect(same.status).toBe(400);
    const changed = await agent.post("/api/me/password").send({ current: password, password: "Brush-and-ink-2026" });
    expect(changed.status).toBe(200);
    expect((await agent.get("/api/auth/me")).body.viewer.passwordChangeRequired).toBeUndefined();
    expect((await agent.get("/api/admin/orders/returns")).status).toBe(200);
    expect((await agent.get("/")).status).toBe(200);
  });

  it("roles are granted and revoked, and the change is reported", async () => {
    const database = h.services!.database;
    await createAccount(database, { role: "learner", phone: "13800139001" });
    const phone = { phone: "13800139001" };
    expect(await changeRole(database, phone, { grant: "teacher" })).toMatchObject({
      before: "learner",
      after: "teacher",
    });
    expect(await changeRole(database, phone, { grant: "operator" })).toMatchObject({
      before: "teacher",
      after: "operator",
    });
    // An operator already has every teacher permission: granting teacher changes nothing.
    expect(await changeRole(database, phone, { grant: "teacher" })).toMatchObject({
      before: "operator",
      after: "operator",
    });
    expect(await changeRole(database, phone, { revoke: "teacher" })).toMatchObject({ after: "operator" });
    expect(await changeRole(database, phone, { revoke: "operator" })).toMatchObject({
      before: "operator",
      after: "learner",
    });
    const row = await database.db
      .selectFrom("users")
      .select("role")
      .where("phone", "=", "13800139001")
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("learner");
    // The command line's changes are in the audit log, as the console's are; no change, no row.
    const { id } = await database.db
      .selectFrom("users")
      .select("id")
      .where("phone", "=", "13800139001")
      .executeTakeFirstOrThrow();
    const audited = await database.db
      .selectFrom("audit_log")
      .select(["actor_id", "actor_name", "actor_role", "action", "before", "after"])
      .where("target_type", "=", "user")
      .where("target_id", "=", String(id))
      .orderBy("id")
      .execute();
    const commandLine = { actor_id: null, actor_name: "服务器命令行", actor_role: "system" };
    expect(audited).toEqual([
      { ...commandLine, action: "user.create", before: null, after: { role: "learner" } },
      { ...commandLine, action: "user.role.grant", before: { role: "learner" }, after: { role: "teacher" } },
      { ...commandLine, action: "user.role.grant", before: { role: "teacher" }, after: { role: "operator" } },
      { ...commandLine, action: "user.role.revoke", before: { role: "operator" }, after: { role: "learner" } },
    ]);
    expect((await verifyAuditChain(database.db)).broken).toBeNull();
    await expect(changeRole(database, { phone: "13800139999" }, { grant: "teacher" })).rejects.toThrow(/no account/);
    await expect(changeRole(database, phone, { grant: "teacher", revoke: "operator" })).rejects.toThrow(/exactly one/);
    await expect(changeRole(database, phone, { grant: "admin" as never })).rejects.toThrow(/teacher, operator/);
  });
});

describe("pro without an SMS provider or mail transport: code requests say so", () => {
  type Opened = { app: Harness["app"]; services: Services; lines: Record<string, unknown>[]; dispose(): Promise<void> };

  /** The app with a log that is kept (the messenger's and the API's) and the given environment. */
  async function appWithLog(overrides: Partial<AppConfig>): Promise<Opened> {
    const config = loadConfig(
      { NODE_ENV: "test", DATA_DIR: "test-results/data" },
      { clientDir, testFixtures: false, ...overrides },
    );
    const { logger, lines } = capturedLogger();
    const handle = await testDatabase();
    const services = await openServices(config, logger, handle.database);
    const created = await createApp(config, { logger, services });
    created.readiness.markReady();
    return { app: created.app, services, lines, dispose: () => handle.dispose() };
  }

  const send = (o: Opened, path: string, body: object) =>
    request(o.app).post(path).set({ Origin: ORIGIN, "User-Agent": BROWSER_UA }).send(body);

  it("answers 503 with a Chinese message, sends and counts nothing, and logs the variable to set", async () => {
    const pro = await appWithLog({ deployEnv: "pro", payments: { provider: "none" } });
    try {
      const sms = await send(pro, "/api/auth/sms/send", { phone: "13800138000" });
      expect(sms.status).toBe(503);
      expect(sms.body.error).toEqual({ code: "sms_unavailable", message: CHANNEL_UNAVAILABLE.sms });
      expect(sms.body.error.message).toMatch(/^短信服务暂未开通/);
      for (const purpose of ["login", "register"]) {
        const mail = await send(pro, "/api/auth/email/send", { email: "learner@example.com", purpose });
        expect(mail.status, purpose).toBe(503);
        expect(mail.body.error).toEqual({ code: "email_unavailable", message: CHANNEL_UNAVAILABLE.email });
      }
      const reset = await send(pro, "/api/auth/reset/send", { channel: "sms", target: "13800138000" });
      expect(reset.status).toBe(503);

      const { db } = pro.services.database;
      const challenges = await db.selectFrom("otp_challenges").select("id").execute();
      expect(challenges, "no code was made").toEqual([]);
      const counted = await db.selectFrom("rate_limits").select("key").where("key", "like", "otp:%").execute();
      expect(counted, "nothing counted against the visitor's caps").toEqual([]);

      const refusals = pro.lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("code not sent"));
      expect(refusals.map((l) => `${l.channel} ${l.purpose}`)).toEqual([
        "sms login",
        "email login",
        "email register",
        "sms reset",
      ]);
      expect(refusals[0]).toMatchObject({ level: 50, channel: "sms", setting: "SMS_PROVIDER" });
      expect(refusals[0]!.msg).toContain("set SMS_PROVIDER");
      expect(refusals[1]).toMatchObject({ level: 50, channel: "email", setting: "MAIL_TRANSPORT" });
      expect(refusals[1]!.msg).toContain("set MAIL_TRANSPORT");
      expect(JSON.stringify(pro.lines)).not.toContain("13800138000");
      expect(pro.lines.some((l) => l.msg === "message sent")).toBe(false);
    } finally {
      await pro.dispose();
    }
  });

  it("outside pro the development outbox still takes the codes", async () => {
    const local = await appWithLog({ deployEnv: "test" });
    try {
      const sms = await send(local, "/api/auth/sms/send", { phone: "13800138001" });
      expect(sms.status).toBe(200);
      expect(sms.body.status).toBe("sent");
      expect(local.services.api.outbox?.list()[0]).toMatchObject({ channel: "sms", to: "13800138001" });
    } finally {
      await local.dispose();
    }
  });
});
