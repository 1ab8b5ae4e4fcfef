/**
 * The login dialog's other panels through the API: e-mail (password or code), registration,
 * retrieve account, device protection and complete info (reference §6 cases 4–7, 9).
 */
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PASSWORD_LIMITS } from "../../api/modules/auth/password-guard";
import { verifyPassword } from "../../api/modules/auth/passwords";
import { PHONE_ONLY_RESET } from "../../shared/contracts/auth";
import { BROWSER_UA, testApp } from "./helpers";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "Ink-stone-2026";
type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  // One proxy hop, so each simulated browser has its own client IP (per-IP send caps).
  h = await testApp({}, {}, { TRUST_PROXY_HOPS: "1" });
  h.services!.api.now = () => new Date(clock);
});
afterAll(() => h.dispose());
// Past every resend cooldown left by the previous test.
beforeEach(() => advance(61_000));

const advance = (ms: number) => {
  clock += ms;
};
const db = () => h.services!.database.db;

let seq = 0;
const nextEmail = (name = "learner") => `${name}${++seq}@example.com`;
const nextPhone = () => `137${String(10_000_000 + ++seq * 7919).slice(-8)}`;

/** A browser of its own: cookie jar, client IP, same-origin writes. */
let ipSeq = 0;
function browser() {
  const agent = request.agent(h.app);
  agent.set("Origin", ORIGIN).set("User-Agent", BROWSER_UA).set("X-Forwarded-For", `198.51.100.${++ipSeq}`);
  return agent;
}
type Browser = ReturnType<typeof browser>;

const outbox = () => h.services!.api.outbox!.list();
const latestTo = (to: string, purpose: string) => outbox().find((m) => m.to === to && m.purpose === purpose);
const codeIn = (text: string | undefined) => /(?<!\d)(\d{6})(?!\d)/.exec(text ?? "")?.[1];
function codeFor(to: string, purpose: string): string {
  const code = codeIn(latestTo(to, purpose)?.text);
  if (!code) throw new Error(`no ${purpose} code sent to ${to}`);
  return code;
}
const otherCode = (code: string) => (code === "000000" ? "111111" : "000000");

const viewer = async (b: Browser) => (await b.get("/api/auth/me")).body.viewer;
const viewerWith = async (cookie: string) =>
  (await request(h.app).get("/api/auth/me").set("Cookie", cookie)).body.viewer;
function cookiesOf(res: request.Response): string[] {
  return ([] as string[]).concat(res.headers["set-cookie"] ?? []);
}
function sessionCookieOf(res: request.Response): string | undefined {
  return cookiesOf(res)
    .find((c) => c.startsWith("sid=") && !c.startsWith("sid=;"))
    ?.split(";")[0];
}

async function register(b = browser(), email = nextEmail(), password = PASSWORD) {
  const sent = await b.post("/api/auth/email/send").send({ email, purpose: "register" });
  expect(sent.status).toBe(200);
  const res = await b.post("/api/auth/email/register").send({ email, code: codeFor(email, "register"), password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { b, email, password, res, cookie: sessionCookieOf(res)! };
}

async function phoneLogin(b: Browser, phone: string) {
  expect((await b.post("/api/auth/sms/send").send({ phone })).status).toBe(200);
  return b.post("/api/auth/sms/login").send({ phone, code: codeFor(phone, "login") });
}

const userByEmail = (email: string) =>
  db().selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
const noticesOf = (userId: number) =>
  db().selectFrom("notifications").selectAll().where("user_id", "=", userId).orderBy("id").execute();

describe("input validation", () => {
  it("rejects malformed e-mail addresses and purposes", async () => {
    const b = browser();
    for (const email of ["not-an-email", "a@", "@example.com", "", "a b@example.com", 42, `${"x".repeat(250)}@a.cn`]) {
      const res = await b.post("/api/auth/email/send").send({ email, purpose: "login" });
      expect(res.status, String(email)).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
    }
    for (const purpose of ["bind", "device", "", undefined]) {
      const res = await b.post("/api/auth/email/send").send({ email: nextEmail(), purpose });
      expect(res.status, String(purpose)).toBe(400);
    }
    expect(outbox().some((m) => m.to === "not-an-email")).toBe(false);
  });

  it("rejects weak passwords in Chinese, without using up the registration code", async () => {
    const b = browser();
    const email = nextEmail("inkwell");
    const local = email.split("@")[0]!;
    await b.post("/api/auth/email/send").send({ email, purpose: "register" });
    const code = codeFor(email, "register");
    const weak: [string, RegExp][] = [
      ["short1", /至少 8 位/],
      ["abcdefghij", /数字/],
      ["1234567890", /字母/],
      [`a1${"x".repeat(63)}`, /最多 64 位/],
      [local, /邮箱名/],
      [local.toUpperCase(), /邮箱名/],
    ];
    for (const [password, message] of weak) {
      const res = await b.post("/api/auth/email/register").send({ email, code, password });
      expect(res.status, password).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
      expect(res.body.error.message, password).toMatch(message);
    }
    const ok = await b.post("/api/auth/email/register").send({ email, code, password: PASSWORD });
    expect(ok.status).toBe(201);
  });

  it("rejects unknown fields on every endpoint", async () => {
    const b = browser();
    const email = nextEmail();
    const cases: [string, object][] = [
      ["/api/auth/email/send", { email, purpose: "login", role: "operator" }],
      ["/api/auth/email/login", { email, password: PASSWORD, remember: true }],
      ["/api/auth/email/code-login", { email, code: "123456", x: 1 }],
      ["/api/auth/email/register", { email, code: "123456", password: PASSWORD, role: "operator" }],
      ["/api/auth/reset/send", { channel: "email", target: email, purpose: "login" }],
      ["/api/auth/reset", { channel: "email", target: email, code: "123456", password: PASSWORD, userId: 1 }],
      ["/api/auth/device/send", { userId: 1 }],
      ["/api/auth/device/verify", { code: "123456", trusted: true }],
    ];
    for (const [path, body] of cases) {
      const res = await b.post(path).send(body);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code, path).toBe("invalid_input");
    }
    expect(outbox().some((m) => m.to === email)).toBe(false);
  });

  it("rejects bad channels, targets and codes", async () => {
    const b = browser();
    for (const body of [
      { channel: "fax", target: "13700000000" },
      { channel: "sms", target: "not-a-phone" },
      { channel: "email", target: "13712345678" },
      { channel: "sms" },
    ]) {
      expect((await b.post("/api/auth/reset/send").send(body)).status, JSON.stringify(body)).toBe(400);
    }
    for (const code of ["12345", "1234567", "12a456", ""]) {
      const res = await b.post("/api/auth/email/code-login").send({ email: nextEmail(), code });
      expect(res.status, code).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
    }
    const reset = await b
      .post("/api/auth/reset")
      .send({ channel: "email", target: nextEmail(), code: "123456", password: "password" });
    expect(reset.status).toBe(400);
    expect(reset.body.error.message).toMatch(/数字/);
  });

  it("accepts JSON only (415) and writes from our own pages only (403)", async () => {
    const email = nextEmail();
    const plain = await request(h.app)
      .post("/api/auth/email/login")
      .set("Origin", ORIGIN)
      .set("Content-Type", "text/plain")
      .send(JSON.stringify({ email, password: PASSWORD }));
    expect(plain.status).toBe(415);
    const form = await request(h.app)
      .post("/api/auth/email/send")
      .set("Origin", ORIGIN)
      .type("form")
      .send({ email, purpose: "login" });
    expect(form.status).toBe(415);
    const crossSite = await request(h.app)
      .post("/api/auth/email/send")
      .set("Origin", "https://evil.example")
      .send({ email, purpose: "login" });
    expect(crossSite.status).toBe(403);
    expect(outbox().some((m) => m.to === email)).toBe(false);
  });
});

describe("e-mail registration and login", () => {
  it("registers, then logs in with the password, then with a code", async () => {
    const b = browser();
    const email = nextEmail();
    const sent = await b.post("/api/auth/email/send").send({ email, purpose: "register" });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: "sent", cooldownSeconds: 60 });
    const message = latestTo(email, "register")!;
    expect(message.channel).toBe("email");
    expect(message.text).toContain("墨池课堂");
    expect(message.text).toContain("注册");

    const registered = await b.post("/api/auth/email/register").send({
      email: `  ${email.toUpperCase()} `,
      code: codeFor(email, "register"),
      password: PASSWORD,
      nickname: "小墨",
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ status: "ok", next: "complete_info" });
    expect((await viewer(b)).nickname).toBe("小墨");
    const user = await userByEmail(email);
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain(PASSWORD);

    const other = browser();
    const wrong = await other.post("/api/auth/email/login").send({ email, password: "Wrong-pass-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({ code: "credentials_invalid", message: "邮箱或密码错误" });
    expect(await viewer(other)).toBeNull();
    const byPassword = await other
      .post("/api/auth/email/login")
      .send({ email: email.toUpperCase(), password: PASSWORD });
    expect(byPassword.status).toBe(200);
    expect(byPassword.body).toEqual({ status: "ok", next: "complete_info" });
    expect((await viewer(other)).id).toBe(user.id);

    advance(61_000);
    const third = browser();
    expect((await third.post("/api/auth/email/send").send({ email, purpose: "login" })).status).toBe(200);
    const code = codeFor(email, "login");
    expect(latestTo(email, "login")!.text).toContain("登录");
    const byCode = await third.post("/api/auth/email/code-login").send({ email, code });
    expect(byCode.status).toBe(200);
    expect((await viewer(third)).id).toBe(user.id);
    const replay = await browser().post("/api/auth/email/code-login").send({ email, code });
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe("code_invalid");
  });

  it("gives a new account a generated nickname that does not reveal the address", async () => {
    const { b, email } = await register(browser(), nextEmail("zhangsan"));
    const nickname = (await viewer(b)).nickname as string;
    expect(nickname).toMatch(/^墨友\d{4}$/);
    expect(nickname).not.toContain(email.split("@")[0]!.slice(-4));
  });

  it("a registration code taken by a concurrent sign-up ends in 409, and no second account", async () => {
    const b = browser();
    const email = nextEmail();
    await b.post("/api/auth/email/send").send({ email, purpose: "register" });
    await db().insertInto("users").values({ email, nickname: "先到者" }).execute();
    const res = await b
      .post("/api/auth/email/register")
      .send({ email, code: codeFor(email, "register"), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("email_taken");
    expect(await viewer(b)).toBeNull();
    const rows = await db().selectFrom("users").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(1);
  });

  /** Moves the clock to just past the start of a 15-minute window, so a test's counts stay in one. */
  const startOfWindow = () => {
    clock = Math.ceil(clock / 900_000) * 900_000 + 1000;
  };
  const passwordLogin = (b: Browser, email: string, password: string) =>
    b.post("/api/auth/email/login").send({ email, password });

  it("a stranger's wrong passwords refuse that client only: the owner still logs in from a clean address at once", async () => {
    startOfWindow();
    const { email } = await register();
    const stranger = browser();
    for (let i = 0; i < 5; i++) expect((await passwordLogin(stranger, email, `Guess-${i}-x`)).status).toBe(400);
    const blocked = await passwordLogin(stranger, email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toMatch(/^密码错误次数太多，请 \d+ 分钟后再试，或用验证码登录$/);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    // The stranger keeps being refused; refused tries are not checked and do not count.
    for (let i = 0; i < 20; i++) expect((await passwordLogin(stranger, email, `More-${i}-x`)).status).toBe(429);
    const counted = await db()
      .selectFrom("rate_limits")
      .select(["key", "count"])
      .where("key", "like", `login:password:%${email}%`)
      .execute();
    expect(Object.fromEntries(counted.map((r) => [r.key.split(":")[2], r.count]))).toEqual({ pair: 5, failures: 5 });
    // Right after the burst: the owner's password from a clean address, and a code from the stranger's.
    expect((await passwordLogin(browser(), email, PASSWORD)).status).toBe(200);
    advance(61_000); // past the registration code's resend cooldown
    expect((await stranger.post("/api/auth/email/send").send({ email, purpose: "login" })).status).toBe(200);
    const byCode = await stranger.post("/api/auth/email/code-login").send({ email, code: codeFor(email, "login") });
    expect(byCode.status).toBe(200);
    advance(15 * 60_000);
    expect((await passwordLogin(browser(), email, PASSWORD)).status).toBe(200);
  });

  it("the owner's own browser gets in even from the stranger's address (a shared NAT)", async () => {
    startOfWindow();
    const { b: owner, email } = await register();
    const stranger = browser();
    const nat = "198.51.100.250";
    for (let i = 0; i < 5; i++)
      expect((await passwordLogin(stranger, email, `Guess-${i}-n`).set("X-Forwarded-For", nat)).status).toBe(400);
    expect((await passwordLogin(stranger, email, PASSWORD).set("X-Forwarded-For", nat)).status).toBe(429);
    // A browser this account signed in on (its device cookie) is a source of its own.
    expect((await passwordLogin(owner, email, PASSWORD).set("X-Forwarded-For", nat)).status).toBe(200);
    // A browser without that cookie on the same address is the stranger's source.
    expect((await passwordLogin(browser(), email, PASSWORD).set("X-Forwarded-For", nat)).status).toBe(429);
  });

  it("only failures count: one address's right passwords never run into the per-IP limit", async () => {
    startOfWindow();
    const { email } = await register();
    const school = "198.51.100.251";
    for (let i = 0; i < PASSWORD_LIMITS.perIp + 5; i++) {
      const res = await passwordLogin(browser(), email, PASSWORD).set("X-Forwarded-For", school);
      expect(res.status, `login ${i + 1}`).toBe(200);
    }
  });

  it("ten guesses at once from one client: five are checked, five refused", async () => {
    startOfWindow();
    const { email } = await register();
    const stranger = browser();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => passwordLogin(stranger, email, `Guess-${i}-y`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
  });

  it("one address spraying many accounts is refused on all of them once it made 30 failures", async () => {
    startOfWindow();
    const sprayer = "198.51.100.252";
    const { b: owner, email: ownersEmail } = await register();
    const targets: string[] = [];
    for (let i = 0; i < 8; i++) targets.push((await register()).email);
    for (let i = 0; i < PASSWORD_LIMITS.perIp; i++) {
      const res = await passwordLogin(browser(), targets[i % targets.length]!, `Spray-${i}-z`).set(
        "X-Forwarded-For",
        sprayer,
      );
      expect(res.status, `guess ${i + 1}`).toBe(400);
    }
    const refused = await passwordLogin(browser(), ownersEmail, "Spray-new-z").set("X-Forwarded-For", sprayer);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe("登录尝试太频繁，请稍后再试，或用验证码登录");
    // Elsewhere nothing changed, and the owner's own browser is no sprayer.
    expect((await passwordLogin(browser(), targets[0]!, PASSWORD)).status).toBe(200);
    expect((await passwordLogin(owner, ownersEmail, PASSWORD).set("X-Forwarded-For", sprayer)).status).toBe(200);
  });

  it("many strangers: each further one gets a single guess, the owner still gets in, and is told once", async () => {
    startOfWindow();
    const { email } = await register();
    const user = await userByEmail(email);
    advance(61_000); // past the registration code's resend cooldown
    for (let s = 0; s < 4; s++) {
      const stranger = browser();
      for (let i = 0; i < 5; i++) expect((await passwordLogin(stranger, email, `Spray-${s}-${i}`)).status).toBe(400);
    }
    // 20 failures: from now on a source has one failed try on this account in the window.
    const fifth = browser();
    expect((await passwordLogin(fifth, email, "Spray-last-1")).status).toBe(400);
    const again = await passwordLogin(fifth, email, "Spray-last-2");
    expect(again.status).toBe(429);
    expect(again.body.error.message).toBe("这个账号最近密码错误次数太多，请稍后再试，或用验证码登录");
    // The owner, from an address that made no failures, gets in at once; and by code from anywhere.
    expect((await passwordLogin(browser(), email, PASSWORD)).status).toBe(200);
    const owner = browser();
    expect((await owner.post("/api/auth/email/send").send({ email, purpose: "login" })).status).toBe(200);
    const byCode = await owner.post("/api/auth/email/code-login").send({ email, code: codeFor(email, "login") });
    expect(byCode.status).toBe(200);
    // Told once (a notice and an e-mail), however many failures piled up.
    const warnings = (await noticesOf(user.id)).filter((n) => n.title === "账号安全提醒：多次密码错误");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.body).toContain("用验证码登录不受影响");
    expect(outbox().filter((m) => m.to === email && m.purpose === "security")).toHaveLength(1);
  });

  it("disabled accounts cannot log in, even with the right password", async () => {
    const { email } = await register();
    await db().updateTable("users").set({ status: "disabled" }).where("email", "=", email).execute();
    const res = await browser().post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("account_disabled");
  });
});

describe("no account enumeration", () => {
  it("sending a login or registration code answers the same for known and unknown addresses", async () => {
    const { email: known } = await register();
    advance(61_000);
    const unknown = nextEmail();
    const b = browser();

    const knownLogin = await b.post("/api/auth/email/send").send({ email: known, purpose: "login" });
    const unknownLogin = await b.post("/api/auth/email/send").send({ email: unknown, purpose: "login" });
    expect([knownLogin.status, knownLogin.body]).toEqual([unknownLogin.status, unknownLogin.body]);
    expect(codeIn(latestTo(known, "login")?.text)).toBeDefined();
    // The unknown address learns why, but gets nothing it could log in with.
    const note = latestTo(unknown, "login")!;
    expect(codeIn(note.text)).toBeUndefined();
    expect(note.text).toContain("还没有注册");

    // Cooldowns count alike too: a second send at once is 429 for both.
    const knownAgain = await b.post("/api/auth/email/send").send({ email: known, purpose: "login" });
    const unknownAgain = await b.post("/api/auth/email/send").send({ email: unknown, purpose: "login" });
    expect(knownAgain.status).toBe(429);
    expect([knownAgain.status, knownAgain.body.error.code]).toEqual([
      unknownAgain.status,
      unknownAgain.body.error.code,
    ]);

    advance(61_000);
    const fresh = nextEmail();
    const knownRegister = await b.post("/api/auth/email/send").send({ email: known, purpose: "register" });
    const freshRegister = await b.post("/api/auth/email/send").send({ email: fresh, purpose: "register" });
    expect([knownRegister.status, knownRegister.body]).toEqual([freshRegister.status, freshRegister.body]);
    expect(codeIn(latestTo(known, "register")?.text)).toBeUndefined();
    expect(latestTo(known, "register")!.text).toContain("已经注册");
    expect(codeIn(latestTo(fresh, "register")?.text)).toBeDefined();
  });

  it("logging in fails identically for an unknown address and a wrong password", async () => {
    const { email: known } = await register();
    const b = browser();
    const wrongPassword = await b.post("/api/auth/email/login").send({ email: known, password: "Not-the-1" });
    const unknownAddress = await b.post("/api/auth/email/login").send({ email: nextEmail(), password: "Not-the-1" });
    expect(wrongPassword.status).toBe(400);
    expect([wrongPassword.status, wrongPassword.body]).toEqual([unknownAddress.status, unknownAddress.body]);

    const wrongCode = await b.post("/api/auth/email/code-login").send({ email: known, code: "000001" });
    const noAccount = await b.post("/api/auth/email/code-login").send({ email: nextEmail(), code: "000001" });
    expect(wrongCode.status).toBe(400);
    expect([wrongCode.status, wrongCode.body]).toEqual([noAccount.status, noAccount.body]);
  });

  it("a wrong password and an unknown address take about the same time", async () => {
    const { email: known } = await register();
    const b = browser();
    const timings = { known: [] as number[], unknown: [] as number[] };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    for (let i = 0; i < 21; i++) {
      // Stay under the password-guess limits (per address and per client, 15-minute windows).
      if (i % 5 === 4) advance(15 * 60_000);
      for (const kind of ["known", "unknown"] as const) {
        const started = performance.now();
        const res = await b
          .post("/api/auth/email/login")
          .send({ email: kind === "known" ? known : nextEmail(), password: "Not-the-1" });
        timings[kind].push(performance.now() - started);
        expect(res.status).toBe(400);
      }
    }
    const [knownMs, unknownMs] = [median(timings.known), median(timings.unknown)];
    expect(Math.abs(knownMs - unknownMs), `medians ${knownMs.toFixed(1)} / ${unknownMs.toFixed(1)} ms`).toBeLessThan(
      50,
    );
  });

  it("retrieve-account codes answer the same whether the phone or e-mail has an account", async () => {
    const phone = nextPhone();
    expect((await phoneLogin(browser(), phone)).status).toBe(200);
    advance(61_000);
    const stranger = nextPhone();
    const b = browser();
    const known = await b.post("/api/auth/reset/send").send({ channel: "sms", target: phone });
    const unknown = await b.post("/api/auth/reset/send").send({ channel: "sms", target: stranger });
    expect(known.status).toBe(200);
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
    expect(codeIn(latestTo(phone, "reset")?.text)).toBeDefined();
    // No SMS at all to a number without an account (it costs money and tells nothing).
    expect(outbox().some((m) => m.to === stranger)).toBe(false);

    const noAccount = await b
      .post("/api/auth/reset")
      .send({ channel: "sms", target: stranger, code: "000001", password: PASSWORD });
    const wrongCode = await b
      .post("/api/auth/reset")
      .send({ channel: "sms", target: phone, code: "000001", password: PASSWORD });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.error.code).toBe("code_invalid");
    expect([noAccount.status, noAccount.body]).toEqual([wrongCode.status, wrongCode.body]);

    const email = nextEmail();
    const viaEmail = await b.post("/api/auth/reset/send").send({ channel: "email", target: email });
    expect([viaEmail.status, viaEmail.body]).toEqual([known.status, known.body]);
    expect(codeIn(latestTo(email, "reset")?.text)).toBeUndefined();
  });
});

describe("retrieve account", () => {
  it("by phone, for an account without e-mail: no password it could not use, the answer says to log in by code", async () => {
    const phone = nextPhone();
    expect((await phoneLogin(browser(), phone)).status).toBe(200);
    advance(61_000);
    const helper = browser();
    expect((await helper.post("/api/auth/reset/send").send({ channel: "sms", target: phone })).status).toBe(200);
    const res = await helper
      .post("/api/auth/reset")
      .send({ channel: "sms", target: phone, code: codeFor(phone, "reset"), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "phone_code_login", message: PHONE_ONLY_RESET });
    const user = await db().selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
  });

  it("by phone: sets the password, signs every device out and leaves a notice", async () => {
    const phone = nextPhone();
    const old = browser();
    const login = await phoneLogin(old, phone);
    const oldCookie = sessionCookieOf(login)!;
    // An account with an e-mail too: the password is for the e-mail login.
    await db().updateTable("users").set({ email: nextEmail() }).where("phone", "=", phone).execute();
    expect(await viewerWith(oldCookie)).not.toBeNull();

    advance(61_000);
    const helper = browser();
    expect((await helper.post("/api/auth/reset/send").send({ channel: "sms", target: phone })).status).toBe(200);
    const message = latestTo(phone, "reset")!;
    expect(message.channel).toBe("sms");
    expect(message.text).toMatch(/墨池课堂.*找回账号/);
    const res = await helper
      .post("/api/auth/reset")
      .send({ channel: "sms", target: `+86 ${phone}`, code: codeFor(phone, "reset"), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });

    expect(await viewerWith(oldCookie)).toBeNull();
    expect(await viewer(old)).toBeNull();
    const user = await db().selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(await verifyPassword(PASSWORD, user.password_hash)).toBe(true);
    expect((await noticesOf(user.id)).map((n) => [n.kind, n.title])).toContainEqual(["security", "密码已重置"]);
  });

  it("by e-mail: the new password works, the old one and every old session do not", async () => {
    const { email, cookie: first } = await register();
    const second = browser();
    const secondLogin = await second.post("/api/auth/email/login").send({ email, password: PASSWORD });
    const secondCookie = sessionCookieOf(secondLogin)!;
    expect(await viewerWith(secondCookie)).not.toBeNull();

    advance(61_000);
    const helper = browser();
    expect((await helper.post("/api/auth/email/send").send({ email, purpose: "reset" })).status).toBe(200);
    const newPassword = "Brush-and-ink-9";
    const res = await helper
      .post("/api/auth/reset")
      .send({ channel: "email", target: email, code: codeFor(email, "reset"), password: newPassword });
    expect(res.status).toBe(200);

    expect(await viewerWith(first)).toBeNull();
    expect(await viewerWith(secondCookie)).toBeNull();
    const oldPassword = await browser().post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(oldPassword.status).toBe(400);
    const fresh = browser();
    expect((await fresh.post("/api/auth/email/login").send({ email, password: newPassword })).status).toBe(200);
    expect(await viewer(fresh)).not.toBeNull();

    // The reset code is used up.
    const again = await helper
      .post("/api/auth/reset")
      .send({ channel: "email", target: email, code: codeFor(email, "reset"), password: "Another-one-7" });
    expect(again.status).toBe(400);
  });

  it("a login that was waiting for device confirmation dies with the old password", async () => {
    const { email } = await register();
    await db().updateTable("users").set({ device_protection: true }).where("email", "=", email).execute();
    const attacker = browser();
    const pending = await attacker.post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(pending.body.status).toBe("device_verification");

    advance(61_000);
    const owner = browser();
    await owner.post("/api/auth/reset/send").send({ channel: "email", target: email });
    await owner
      .post("/api/auth/reset")
      .send({ channel: "email", target: email, code: codeFor(email, "reset"), password: "Brush-and-ink-9" });
    const send = await attacker.post("/api/auth/device/send").send({});
    expect(send.status).toBe(400);
    expect(send.body.error.code).toBe("login_expired");
  });
});

describe("codes are bound to their purpose and address", () => {
  it("a reset code cannot log in, and a login code cannot reset", async () => {
    const { email } = await register();
    advance(61_000);
    const b = browser();
    await b.post("/api/auth/reset/send").send({ channel: "email", target: email });
    const resetCode = codeFor(email, "reset");
    const asLogin = await b.post("/api/auth/email/code-login").send({ email, code: resetCode });
    expect(asLogin.status).toBe(400);
    expect(asLogin.body.error.code).toBe("code_invalid");
    expect(await viewer(b)).toBeNull();

    advance(61_000);
    await b.post("/api/auth/email/send").send({ email, purpose: "login" });
    const loginCode = codeFor(email, "login");
    const asReset = await b
      .post("/api/auth/reset")
      .send({ channel: "email", target: email, code: loginCode, password: "Brush-and-ink-9" });
    expect(asReset.status).toBe(400);
    expect(asReset.body.error.code).toBe("code_invalid");
    // Both codes still work for what they were sent for.
    expect((await b.post("/api/auth/email/code-login").send({ email, code: loginCode })).status).toBe(200);
    const reset = await b
      .post("/api/auth/reset")
      .send({ channel: "email", target: email, code: resetCode, password: "Brush-and-ink-9" });
    expect(reset.status).toBe(200);
  });

  it("an SMS reset code is not an SMS login code", async () => {
    const phone = nextPhone();
    await phoneLogin(browser(), phone);
    advance(61_000);
    const b = browser();
    await b.post("/api/auth/reset/send").send({ channel: "sms", target: phone });
    const res = await b.post("/api/auth/sms/login").send({ phone, code: codeFor(phone, "reset") });
    expect(res.status).toBe(400);
    expect(await viewer(b)).toBeNull();
  });

  it("a code sent to address A does nothing for address B", async () => {
    const { email: a } = await register();
    const { email: b } = await register();
    advance(61_000);
    const client = browser();
    await client.post("/api/auth/email/send").send({ email: a, purpose: "login" });
    const codeA = codeFor(a, "login");
    const wrongAddress = await client.post("/api/auth/email/code-login").send({ email: b, code: codeA });
    expect(wrongAddress.status).toBe(400);
    expect(await viewer(client)).toBeNull();

    const newAddress = nextEmail();
    await client.post("/api/auth/email/send").send({ email: newAddress, purpose: "register" });
    const registerB = await client
      .post("/api/auth/email/register")
      .send({ email: nextEmail(), code: codeFor(newAddress, "register"), password: PASSWORD });
    expect(registerB.status).toBe(400);
    expect(registerB.body.error.code).toBe("code_invalid");

    advance(61_000);
    await client.post("/api/auth/reset/send").send({ channel: "email", target: a });
    const resetB = await client
      .post("/api/auth/reset")
      .send({ channel: "email", target: b, code: codeFor(a, "reset"), password: "Brush-and-ink-9" });
    expect(resetB.status).toBe(400);
    expect((await client.post("/api/auth/email/code-login").send({ email: a, code: codeA })).status).toBe(200);
  });
});

describe("device protection", () => {
  it("a new browser must be confirmed with a code before it gets a session", async () => {
    const { email } = await register();
    const user = await userByEmail(email);
    await db().updateTable("users").set({ device_protection: true }).where("id", "=", user.id).execute();
    const noticesBefore = (await noticesOf(user.id)).length;

    const b = browser();
    const login = await b.post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(login.status).toBe(200);
    const [name, domain] = email.split("@");
    expect(login.body).toEqual({
      status: "device_verification",
      channel: "email",
      maskedTarget: `${name!.slice(0, 1)}***@${domain}`,
    });
    expect(sessionCookieOf(login)).toBeUndefined();
    expect(await viewer(b)).toBeNull();
    const did = cookiesOf(login).find((c) => c.startsWith("did="))!;
    expect(did).toMatch(/HttpOnly/i);
    expect(did).toMatch(/SameSite=Lax/i);
    expect(Number(/Max-Age=(\d+)/i.exec(did)?.[1])).toBeGreaterThanOrEqual(365 * 86_400 - 1);
    expect(cookiesOf(login).find((c) => c.startsWith("pending_login="))).toMatch(/HttpOnly/i);
    // Only the hash of the browser's key is stored.
    const key = did.split(";")[0]!.slice(4);
    const stored = await db().selectFrom("devices").select("device_key_hash").execute();
    expect(stored.map((d) => d.device_key_hash)).not.toContain(key);

    advance(61_000);
    const sent = await b.post("/api/auth/device/send").send({});
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: "sent", cooldownSeconds: 60 });
    const code = codeFor(email, "device");
    expect(latestTo(email, "device")!.text).toContain("新设备");

    const wrong = await b.post("/api/auth/device/verify").send({ code: otherCode(code) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("code_invalid");
    expect(await viewer(b)).toBeNull();

    const verified = await b.post("/api/auth/device/verify").send({ code });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ status: "ok", next: "complete_info" });
    expect((await viewer(b)).id).toBe(user.id);
    const notices = (await noticesOf(user.id)).slice(noticesBefore);
    expect(notices.map((n) => [n.kind, n.title, n.body])).toContainEqual([
      "security",
      "新设备登录",
      "Chrome 156 · Linux",
    ]);
    const session = await db()
      .selectFrom("sessions")
      .innerJoin("devices", "devices.id", "sessions.device_id")
      .select(["devices.trusted_at"])
      .where("sessions.user_id", "=", user.id)
      .where("sessions.revoked_at", "is", null)
      .orderBy("sessions.created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(session.trusted_at).not.toBeNull();

    // The pending login is used up; the browser is trusted from now on.
    expect((await b.post("/api/auth/device/verify").send({ code })).status).toBe(400);
    const again = await b.post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(again.body).toEqual({ status: "ok", next: "complete_info" });

    // Another browser still has to confirm.
    const other = await browser().post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(other.body.status).toBe("device_verification");
  });

  it("prefers the bound phone, and phone logins go through the same check", async () => {
    const phone = nextPhone();
    expect((await phoneLogin(browser(), phone)).status).toBe(200);
    await db().updateTable("users").set({ device_protection: true }).where("phone", "=", phone).execute();

    advance(61_000);
    const b = browser();
    const login = await phoneLogin(b, phone);
    expect(login.body).toEqual({
      status: "device_verification",
      channel: "sms",
      maskedTarget: `${phone.slice(0, 3)}****${phone.slice(-4)}`,
    });
    expect(await viewer(b)).toBeNull();
    advance(61_000);
    expect((await b.post("/api/auth/device/send").send({})).status).toBe(200);
    const verified = await b.post("/api/auth/device/verify").send({ code: codeFor(phone, "device") });
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe("ok");
    expect(await viewer(b)).not.toBeNull();
  });

  it("the pending login belongs to the browser that started it", async () => {
    const { email } = await register();
    await db().updateTable("users").set({ device_protection: true }).where("email", "=", email).execute();
    const b = browser();
    const login = await b.post("/api/auth/email/login").send({ email, password: PASSWORD });
    const pendingCookie = cookiesOf(login)
      .find((c) => c.startsWith("pending_login="))!
      .split(";")[0]!;
    // The pending cookie alone, in a browser with another device key: refused.
    const thief = await request(h.app)
      .post("/api/auth/device/send")
      .set("Origin", ORIGIN)
      .set("Cookie", `${pendingCookie}; did=${"A".repeat(43)}`)
      .send({});
    expect(thief.status).toBe(400);
    expect(thief.body.error.code).toBe("login_expired");
    // No pending login at all.
    expect((await browser().post("/api/auth/device/send").send({})).status).toBe(400);
    expect((await browser().post("/api/auth/device/verify").send({ code: "123456" })).status).toBe(400);

    // A pending login lasts 10 minutes.
    advance(10 * 60_000 + 1000);
    const late = await b.post("/api/auth/device/send").send({});
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe("login_expired");
  });

  it("without protection, logins record the device and announce new ones", async () => {
    const { email, b: first } = await register();
    const user = await userByEmail(email);
    // The account's very first browser is not news.
    expect(await noticesOf(user.id)).toHaveLength(0);
    expect((await first.post("/api/auth/email/login").send({ email, password: PASSWORD })).status).toBe(200);
    expect(await noticesOf(user.id)).toHaveLength(0);

    const second = browser();
    expect((await second.post("/api/auth/email/login").send({ email, password: PASSWORD })).status).toBe(200);
    expect((await noticesOf(user.id)).map((n) => n.title)).toEqual(["新设备登录"]);
    expect((await viewer(second)).unreadNotices).toBe(1);
    const devices = await db().selectFrom("devices").selectAll().where("user_id", "=", user.id).execute();
    expect(devices).toHaveLength(2);
    expect(devices.every((d) => d.name === "Chrome 156 · Linux" && d.trusted_at === null)).toBe(true);
    const sessions = await db().selectFrom("sessions").select("device_id").where("user_id", "=", user.id).execute();
    expect(sessions.every((s) => s.device_id !== null)).toBe(true);
  });
});

describe("complete info", () => {
  it("saves the profile, and the next login no longer asks for it", async () => {
    const { b, email } = await register();
    const res = await b
      .post("/api/auth/info")
      .send({ nickname: "  墨香  ", avatarUrl: "/avatar/u1/face.png", gender: "female", region: "浙江 杭州" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      viewer: expect.objectContaining({ nickname: "墨香", avatarUrl: "/avatar/u1/face.png" }),
    });
    const user = await userByEmail(email);
    expect([user.gender, user.region]).toEqual(["female", "浙江 杭州"]);
    expect(user.info_completed_at).not.toBeNull();
    const again = await b.post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(again.body).toEqual({ status: "ok", next: null });
  });

  it("can be skipped, and then is not asked again", async () => {
    const { b, email } = await register();
    const skipped = await b.post("/api/auth/info/skip").send({});
    expect(skipped.status).toBe(200);
    expect(skipped.body).toEqual({ status: "ok" });
    expect((await userByEmail(email)).info_skipped_at).not.toBeNull();
    const again = await b.post("/api/auth/email/login").send({ email, password: PASSWORD });
    expect(again.body).toEqual({ status: "ok", next: null });
  });

  it("needs a session", async () => {
    const b = browser();
    expect((await b.post("/api/auth/info").send({ nickname: "墨香" })).status).toBe(401);
    expect((await b.post("/api/auth/info/skip").send({})).status).toBe(401);
  });

  it("rejects bad values and leaves the profile as it was", async () => {
    const { b, email } = await register();
    const bad: object[] = [
      { nickname: "" },
      { nickname: "   " },
      { nickname: "墨".repeat(21) },
      { nickname: "墨\u0007香" },
      { nickname: "墨\u202e香" },
      { nickname: "墨香", avatarUrl: "https://evil.example/a.png" },
      { nickname: "墨香", avatarUrl: "/avatar/../admin.png" },
      { nickname: "墨香", avatarUrl: "javascript:alert(1)" },
      { nickname: "墨香", gender: "other" },
      { nickname: "墨香", region: "地".repeat(41) },
      { nickname: "墨香", role: "operator" },
      {},
    ];
    for (const body of bad) {
      const res = await b.post("/api/auth/info").send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
    }
    expect((await b.post("/api/auth/info/skip").send({ x: 1 })).status).toBe(400);
    const user = await userByEmail(email);
    expect(user.info_completed_at).toBeNull();
    expect(user.role).toBe("learner");
    expect((await b.post("/api/auth/info").send({ nickname: "墨".repeat(20) })).status).toBe(200);
  });
});
