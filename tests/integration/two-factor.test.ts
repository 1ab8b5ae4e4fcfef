/**
 * Two-factor login for staff (decision 072) through the API: setting it up with the QR code's
 * secret, the login's second step (no session before it), recovery codes (stored hashed, one use
 * each), a code's time step never taken twice, code checks counted and limited, operators of the
 * `pro` site sent to set it up before anything else, and the reset by another operator and by the
 * `user:reset-2fa` command.
 */
import { Secret, TOTP } from "otpauth";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetTwoFactorOf } from "../../api/modules/admin/accounts-admin";
import { hashPassword } from "../../api/modules/auth/passwords";
import { BROWSER_UA, testApp } from "./helpers";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "Brush-and-ink-2026";
type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  h = await testApp({}, {}, { TRUST_PROXY_HOPS: "1" });
  h.services!.api.now = () => new Date(clock);
});
afterAll(() => h.dispose());
// A fresh 30-second step for every test, and past the limits' windows of the one before.
beforeEach(() => advance(16 * 60_000));

const advance = (ms: number) => {
  clock += ms;
};
const api = () => h.services!.api;
const db = () => api().database.db;

let seq = 0;
let ipSeq = 0;
/** A browser of its own: cookie jar, client IP, same-origin writes. */
function browser() {
  const agent = request.agent(h.app);
  agent.set("Origin", ORIGIN).set("User-Agent", BROWSER_UA).set("X-Forwarded-For", `203.0.113.${++ipSeq}`);
  return agent;
}
type Browser = ReturnType<typeof browser>;

/** What the authenticator app shows for `secret` at the API's time (`steps` periods later or earlier). */
const appCode = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock + steps * 30_000 });

/** A staff account with an e-mail and password. */
async function staff(role: "teacher" | "operator" | "learner" = "teacher") {
  seq += 1;
  const email = `staff${seq}-${process.pid}@example.cn`;
  const user = await db()
    .insertInto("users")
    .values({
      email,
      password_hash: await hashPassword(PASSWORD),
      nickname: `员工${seq}`,
      role,
      info_completed_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: user.id, email };
}

async function signIn(b: Browser, email: string) {
  return b.post("/api/auth/email/login").send({ email, password: PASSWORD });
}

/** Signs in (without two-factor login yet) and sets it up; the secret and the recovery codes. */
async function enrolled(role: "teacher" | "operator" = "teacher") {
  const who = await staff(role);
  const b = browser();
  expect((await signIn(b, who.email)).body).toEqual({ status: "ok", next: null });
  const setup = await b.post("/api/me/two-factor/setup").send({});
  expect(setup.status).toBe(200);
  const secret: string = setup.body.secret;
  const enabled = await b.post("/api/me/two-factor/enable").send({ code: appCode(secret) });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { ...who, b, secret, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

const viewerOf = async (b: Browser) => (await b.get("/api/auth/me")).body.viewer;
const hasSessionCookie = (res: request.Response) =>
  ([] as string[]).concat(res.headers["set-cookie"] ?? []).some((c) => c.startsWith("sid=") && !c.startsWith("sid=;"));

describe("setting up two-factor login", () => {
  it("a teacher scans the QR code (or types the secret), confirms with a first code and gets ten recovery codes once", async () => {
    const who = await staff("teacher");
    const b = browser();
    await signIn(b, who.email);
    expect((await b.get("/api/me/two-factor")).body).toEqual({
      enabled: false,
      required: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const setup = await b.post("/api/me/two-factor/setup").send({});
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const uri = new URL(setup.body.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(setup.body.secret);
    expect(uri.searchParams.get("issuer")).toBe(api().settings.siteName);

    // Not on until a code from the app matched: logging in still takes the password alone.
    expect((await signIn(browser(), who.email)).body.status).toBe("ok");
    const wrong = await b.post("/api/me/two-factor/enable").send({ code: appCode(setup.body.secret, 5) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("two_factor_invalid");
    const enabled = await b.post("/api/me/two-factor/enable").send({ code: appCode(setup.body.secret) });
    expect(enabled.status).toBe(200);
    const codes: string[] = enabled.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/);

    // Stored only as scrypt hashes: the codes themselves are nowhere in the database.
    const stored = await db().selectFrom("recovery_codes").select("code_hash").where("user_id", "=", who.id).execute();
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^scrypt\$/);
      for (const code of codes) expect(code_hash).not.toContain(code.replace("-", ""));
    }
    expect((await b.get("/api/me/two-factor")).body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect((await b.post("/api/me/two-factor/setup").send({})).status).toBe(409);
    const notices = await db().selectFrom("notifications").select("title").where("user_id", "=", who.id).execute();
    expect(notices.map((n) => n.title)).toContain("两步验证已开启");
    const audit = await db().selectFrom("audit_log").select("action").where("actor_id", "=", who.id).execute();
    expect(audit.map((a) => a.action)).toContain("user.two_factor.enable");
  });

  it("is for staff: a learner's account has none of it", async () => {
    const who = await staff("learner");
    const b = browser();
    await signIn(b, who.email);
    expect((await b.get("/api/me/two-factor")).status).toBe(403);
    expect((await b.post("/api/me/two-factor/setup").send({})).status).toBe(403);
  });

  it("renewing the recovery codes takes an app code and voids the old ones; turning it off takes a code too", async () => {
    const { b, secret, recoveryCodes, id } = await enrolled();
    advance(30_000);
    expect((await b.post("/api/me/two-factor/recovery-codes").send({ code: "000000" })).status).toBe(400);
    const renewed = await b.post("/api/me/two-factor/recovery-codes").send({ code: appCode(secret) });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect(renewed.body.recoveryCodes).not.toContain(recoveryCodes[0]);
    // An old recovery code no longer turns it off; a new one does.
    expect((await b.post("/api/me/two-factor/disable").send({ code: recoveryCodes[0] })).status).toBe(400);
    const off = await b.post("/api/me/two-factor/disable").send({ code: renewed.body.recoveryCodes[0] });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect(await db().selectFrom("totp_factors").select("user_id").where("user_id", "=", id).execute()).toEqual([]);
  });
});

describe("signing in with two-factor login", () => {
  it("the password leads to the second step; the session starts only after the app's code", async () => {
    const { email, secret, id } = await enrolled();
    advance(30_000);
    const b = browser();
    const first = await signIn(b, email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: "two_factor" });
    expect(hasSessionCookie(first)).toBe(false);
    expect(await viewerOf(b)).toBeNull();
    // Without the browser's pending login (another browser) the code is worth nothing.
    const elsewhere = await browser()
      .post("/api/auth/two-factor/verify")
      .send({ code: appCode(secret) });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.code).toBe("login_expired");

    const wrong = await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret, 4) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("two_factor_invalid");
    expect(await viewerOf(b)).toBeNull();
    const done = await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret) });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: "ok", next: null });
    expect(hasSessionCookie(done)).toBe(true);
    expect((await viewerOf(b)).id).toBe(id);
    // Password and app code: the new session may make guarded changes at once.
    expect((await b.get("/api/auth/step-up")).body).toMatchObject({ password: true, code: true });
    expect((await b.get("/api/auth/step-up")).body.until).not.toBeNull();
    // The pending login is used up.
    advance(30_000);
    expect((await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret) })).status).toBe(400);
  });

  it("a code login (SMS) of a two-factor account also needs the second step", async () => {
    const { id, secret } = await enrolled("operator");
    const phone = `136${String(10_000_000 + id).slice(-8)}`;
    await db().updateTable("users").set({ phone }).where("id", "=", id).execute();
    advance(30_000);
    const b = browser();
    expect((await b.post("/api/auth/sms/send").send({ phone })).status).toBe(200);
    const text =
      api()
        .outbox!.list()
        .find((m) => m.to === phone)?.text ?? "";
    const sms = /(\d{6})/.exec(text)![1];
    const first = await b.post("/api/auth/sms/login").send({ phone, code: sms });
    expect(first.body).toEqual({ status: "two_factor" });
    expect(await viewerOf(b)).toBeNull();
    expect((await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret) })).body.status).toBe("ok");
    expect((await viewerOf(b)).id).toBe(id);
  });

  it("the same code (the same time step) is taken once, also by two logins at the same moment", async () => {
    const { email, secret } = await enrolled();
    advance(30_000);
    const [one, two] = [browser(), browser()];
    await signIn(one, email);
    await signIn(two, email);
    const code = appCode(secret);
    const answers = await Promise.all([
      one.post("/api/auth/two-factor/verify").send({ code }),
      two.post("/api/auth/two-factor/verify").send({ code }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.error.code).toBe("two_factor_reused");
    // An older step, still within the allowed drift, is refused too; the next step works.
    const late = answers[0]!.status === 400 ? one : two;
    const older = await late.post("/api/auth/two-factor/verify").send({ code: appCode(secret, -1) });
    expect(older.body.error.code).toBe("two_factor_reused");
    advance(30_000);
    expect((await late.post("/api/auth/two-factor/verify").send({ code: appCode(secret) })).status).toBe(200);
  });

  it("a recovery code signs in once; it does not count as a recent proof", async () => {
    const { email, recoveryCodes, id } = await enrolled();
    const b = browser();
    await signIn(b, email);
    const used = await b.post("/api/auth/two-factor/verify").send({ code: recoveryCodes[3]!.toUpperCase() });
    expect(used.status).toBe(200);
    expect((await viewerOf(b)).id).toBe(id);
    expect((await b.get("/api/me/two-factor")).body.recoveryCodesLeft).toBe(9);
    const notices = await db().selectFrom("notifications").select("body").where("user_id", "=", id).execute();
    expect(notices.map((n) => n.body).join()).toMatch(/还剩 9 个/);

    const again = browser();
    await signIn(again, email);
    const reused = await again.post("/api/auth/two-factor/verify").send({ code: recoveryCodes[3] });
    expect(reused.status).toBe(400);
    expect(await viewerOf(again)).toBeNull();

    // Signed in with a code (not the password) and a recovery code: guarded changes ask first.
    const phone = `135${String(10_000_000 + id).slice(-8)}`;
    await db().updateTable("users").set({ phone }).where("id", "=", id).execute();
    const c = browser();
    await c.post("/api/auth/sms/send").send({ phone });
    const sms = /(\d{6})/.exec(
      api()
        .outbox!.list()
        .find((m) => m.to === phone)?.text ?? "",
    )![1];
    expect((await c.post("/api/auth/sms/login").send({ phone, code: sms })).body.status).toBe("two_factor");
    expect((await c.post("/api/auth/two-factor/verify").send({ code: recoveryCodes[4] })).status).toBe(200);
    expect((await c.get("/api/auth/step-up")).body.until).toBeNull();
  });

  it("code checks are counted: five wrong codes end the login, and the right one is refused after", async () => {
    const { email, secret } = await enrolled();
    advance(30_000);
    const b = browser();
    await signIn(b, email);
    for (let i = 0; i < 5; i++) {
      const res = await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret, 10 + i) });
      expect(res.status).toBe(400);
    }
    const limited = await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret) });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(await viewerOf(b)).toBeNull();
    // A new login (the password again) gets its own five, within the account's own ceiling.
    const fresh = browser();
    await signIn(fresh, email);
    expect((await fresh.post("/api/auth/two-factor/verify").send({ code: appCode(secret) })).status).toBe(200);
  });

  it("across logins, the account's ceiling holds (ten checks in 15 minutes)", async () => {
    const { email, secret } = await enrolled();
    // The counters' windows are fixed quarters of an hour: start at the beginning of one.
    clock = Math.ceil(clock / 900_000) * 900_000 + 1000;
    let refused = 0;
    for (let i = 0; i < 4; i++) {
      const b = browser();
      await signIn(b, email);
      for (let j = 0; j < 3; j++) {
        const res = await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret, 20 + j) });
        if (res.status === 429) refused += 1;
        else expect(res.status).toBe(400);
      }
    }
    expect(refused).toBe(2);
    const b = browser();
    await signIn(b, email);
    expect((await b.post("/api/auth/two-factor/verify").send({ code: appCode(secret) })).status).toBe(429);
  });
});

describe("losing the phone", () => {
  it("another operator resets it in the console (after a step-up); the owner signs in with the password alone", async () => {
    const owner = await enrolled("operator");
    const other = await enrolled("operator");
    advance(11 * 60_000);
    const reset = () =>
      other.b.post(`/api/admin/users/${owner.id}/two-factor/reset`).send({ reason: "手机丢失，本人来电" });
    const refused = await reset();
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("step_up_required");
    expect((await other.b.post("/api/auth/step-up").send({ method: "code", code: appCode(other.secret) })).status).toBe(
      200,
    );
    const done = await reset();
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ changed: true, user: { id: owner.id, twoFactor: false } });
    const audit = await db()
      .selectFrom("audit_log")
      .select(["action", "actor_id", "reason"])
      .where("target_id", "=", String(owner.id))
      .where("action", "=", "user.two_factor.reset")
      .execute();
    expect(audit).toEqual([{ action: "user.two_factor.reset", actor_id: other.id, reason: "手机丢失，本人来电" }]);
    expect((await signIn(browser(), owner.email)).body).toEqual({ status: "ok", next: null });
    // One's own is not reset here.
    const self = await other.b.post(`/api/admin/users/${other.id}/two-factor/reset`).send({ reason: "自己重置" });
    expect(self.status).toBe(409);
  });

  it("a login waiting for its code when the reset happens cannot finish", async () => {
    const owner = await enrolled("teacher");
    advance(30_000);
    const b = browser();
    expect((await signIn(b, owner.email)).body.status).toBe("two_factor");
    expect(await resetTwoFactorOf(api().database, { email: owner.email }, api().now())).toEqual({
      userId: owner.id,
      reset: true,
    });
    expect((await b.post("/api/auth/two-factor/verify").send({ code: appCode(owner.secret) })).status).toBe(400);
    expect((await signIn(browser(), owner.email)).body.status).toBe("ok");
    expect(await resetTwoFactorOf(api().database, { email: owner.email }, api().now())).toEqual({
      userId: owner.id,
      reset: false,
    });
    await expect(resetTwoFactorOf(api().database, { email: "nobody@example.cn" })).rejects.toThrow(/no account/);
    // The command line's reset is in the audit log, once (the second changed nothing).
    const audited = await api()
      .database.db.selectFrom("audit_log")
      .select(["actor_id", "actor_role", "action"])
      .where("target_type", "=", "user")
      .where("target_id", "=", String(owner.id))
      .where("action", "=", "user.two_factor.reset")
      .execute();
    expect(audited).toEqual([{ actor_id: null, actor_role: "system", action: "user.two_factor.reset" }]);
  });
});

describe("operators of the pro site", () => {
  let pro: Harness;
  beforeAll(async () => {
    pro = await testApp({}, {}, { TRUST_PROXY_HOPS: "1" });
    // The `pro` rule alone; the rest of the test app stays as tests have it.
    pro.services!.api.settings.operatorsNeedTwoFactor = true;
  });
  afterAll(() => pro.dispose());

  it("are sent to set it up before anything else works, and cannot turn it off", async () => {
    const email = `pro-operator-${process.pid}@example.cn`;
    await pro
      .services!.database.db.insertInto("users")
      .values({
        email,
        password_hash: await hashPassword(PASSWORD),
        nickname: "运营",
        role: "operator",
        info_completed_at: new Date(),
      })
      .execute();
    const b = request.agent(pro.app);
    b.set("Origin", ORIGIN).set("User-Agent", BROWSER_UA);
    expect((await b.post("/api/auth/email/login").send({ email, password: PASSWORD })).body.status).toBe("ok");
    expect((await b.get("/api/auth/me")).body.viewer.twoFactorRequired).toBe(true);
    const desk = await b.get("/api/admin/orders/returns");
    expect(desk.status).toBe(403);
    expect(desk.body.error.code).toBe("two_factor_required");
    expect(desk.body.error.message).toMatch(/须先开启两步验证/);
    expect((await b.patch("/api/me/profile").send({ nickname: "新名字" })).status).toBe(403);
    expect((await b.get("/api/me/two-factor")).body).toMatchObject({ enabled: false, required: true });
    // Pages go to the security page first.
    const home = await b.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe("/my/security");

    const setup = await b.post("/api/me/two-factor/setup").send({});
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.body.secret) });
    expect((await b.post("/api/me/two-factor/enable").send({ code })).status).toBe(200);
    expect((await b.get("/api/auth/me")).body.viewer.twoFactorRequired).toBeUndefined();
    expect((await b.get("/api/admin/orders/returns")).status).toBe(200);
    expect((await b.get("/")).status).toBe(200);
    const off = await b.post("/api/me/two-factor/disable").send({ code });
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe("two_factor_required");
  });
});
