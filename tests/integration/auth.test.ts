/**
 * Phone login, sessions and the API's defences (reference §6 cases 1–7, 9, 10).
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { SESSION_IDLE_MS } from "../../api/modules/auth/sessions";
import { safeRedirectPath } from "../../shared/contracts/auth";
import { lastCodeFor, sessionCookie, testApp, testAppPerFile } from "./helpers";

const ORIGIN = "http://localhost:3000";
const file = testAppPerFile({}, {}, {});
let phoneSeq = 0;
const nextPhone = () => `139${String(10_000_000 + ++phoneSeq * 7919).slice(-8)}`;

const post = (path: string, body: unknown, cookie?: string) => {
  const r = request(file.h.app)
    .post(path)
    .set("Origin", ORIGIN)
    .send(body as object);
  return cookie ? r.set("Cookie", cookie) : r;
};

async function login(phone = nextPhone()) {
  expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
  const res = await post("/api/auth/sms/login", { phone, code: lastCodeFor(file.h.services!.api.outbox, phone) });
  expect(res.status).toBe(200);
  return { phone, cookie: sessionCookie(res), res };
}

const viewerOf = async (cookie: string) =>
  (await request(file.h.app).get("/api/auth/me").set("Cookie", cookie)).body.viewer;

describe("phone login", () => {
  it("first login creates the account and asks for the rest of the profile", async () => {
    const { res, cookie } = await login();
    expect(res.body).toEqual({ status: "ok", next: "complete_info" });
    const viewer = await viewerOf(cookie);
    expect(viewer.nickname).toMatch(/^墨友\d{4}$/);
  });

  it("the session cookie is httpOnly, SameSite=Lax, path / and carries ≥128 bits", async () => {
    const { res } = await login();
    const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).toMatch(/Path=\//);
    expect(raw).not.toMatch(/Domain=/i);
    expect(raw.split(";")[0]!.slice(4)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("validates numbers and codes", async () => {
    for (const phone of ["12345", "23800138000", "1380013800a", ""]) {
      const res = await post("/api/auth/sms/send", { phone });
      expect(res.status, phone).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
    }
    expect((await post("/api/auth/sms/send", { phone: "+86 138-0013-9999" })).status).toBe(200);
    expect((await post("/api/auth/sms/login", { phone: nextPhone(), code: "12a456" })).status).toBe(400);
    expect((await post("/api/auth/sms/send", { phone: nextPhone(), role: "admin" })).status).toBe(400);
  });

  it("a code works once, only for its number, only for 5 minutes", async () => {
    const a = nextPhone();
    const b = nextPhone();
    await post("/api/auth/sms/send", { phone: a });
    await post("/api/auth/sms/send", { phone: b });
    const codeA = lastCodeFor(file.h.services!.api.outbox, a);
    expect((await post("/api/auth/sms/login", { phone: b, code: codeA })).status).toBe(400);
    expect((await post("/api/auth/sms/login", { phone: a, code: codeA })).status).toBe(200);
    expect((await post("/api/auth/sms/login", { phone: a, code: codeA })).status).toBe(400);

    const c = nextPhone();
    await post("/api/auth/sms/send", { phone: c });
    const late = new Date(file.realNow().getTime() + 5 * 60_000 + 1000);
    file.h.services!.api.now = () => late;
    const res = await post("/api/auth/sms/login", { phone: c, code: lastCodeFor(file.h.services!.api.outbox, c) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("code_invalid");
  });

  it("five wrong codes burn the code: 429 with Retry-After, and the right code no longer works", async () => {
    const phone = nextPhone();
    await post("/api/auth/sms/send", { phone });
    const right = lastCodeFor(file.h.services!.api.outbox, phone);
    const wrong = right === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) expect((await post("/api/auth/sms/login", { phone, code: wrong })).status).toBe(400);
    const fifth = await post("/api/auth/sms/login", { phone, code: wrong });
    expect(fifth.status).toBe(429);
    expect(Number(fifth.headers["retry-after"])).toBeGreaterThan(0);
    expect((await post("/api/auth/sms/login", { phone, code: right })).status).not.toBe(200);
  });

  it("resending waits 60 s", async () => {
    const phone = nextPhone();
    expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
    const again = await post("/api/auth/sms/send", { phone });
    expect(again.status).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(50);
    const later = new Date(file.realNow().getTime() + 61_000);
    file.h.services!.api.now = () => later;
    expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
  });

  it("ten sends to one number at once: one message goes out, nine wait out the cooldown and cost nothing", async () => {
    const phone = nextPhone();
    const results = await Promise.all(Array.from({ length: 10 }, () => post("/api/auth/sms/send", { phone })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.body.error.message).toMatch(/^请 \d+ 秒后再获取验证码$/);
    expect(file.h.services!.api.outbox!.list().filter((m) => m.to === phone)).toHaveLength(1);
    // The number's daily cap counted the one send only.
    const counted = await file.h
      .services!.api.database.db.selectFrom("rate_limits")
      .select("count")
      .where("key", "=", `otp:target:sms:${phone}`)
      .execute();
    expect(counted.map((c) => c.count)).toEqual([1]);
  });

  it("one client IP gets OTP_DAILY_PER_IP codes a day, then a polite 429", async () => {
    const settings = file.h.services!.api.settings;
    const before = settings.otpDailyPerIp;
    await file.h.services!.api.database.db.deleteFrom("rate_limits").where("key", "like", "otp:ip:%").execute();
    settings.otpDailyPerIp = 3;
    try {
      for (let i = 0; i < 3; i++) expect((await post("/api/auth/sms/send", { phone: nextPhone() })).status).toBe(200);
      const over = await post("/api/auth/sms/send", { phone: nextPhone() });
      expect(over.status).toBe(429);
      expect(over.body.error.message).toBe("今天获取验证码的次数太多了，请明天再试");
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      settings.otpDailyPerIp = before;
      await file.h.services!.api.database.db.deleteFrom("rate_limits").where("key", "like", "otp:ip:%").execute();
    }
  });

  it("the same correct code submitted twice at once creates one session", async () => {
    const phone = nextPhone();
    await post("/api/auth/sms/send", { phone });
    const code = lastCodeFor(file.h.services!.api.outbox, phone);
    const results = await Promise.all([1, 2, 3].map(() => post("/api/auth/sms/login", { phone, code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const user = await file.h
      .services!.database.db.selectFrom("users")
      .select("id")
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    const sessions = await file.h
      .services!.database.db.selectFrom("sessions")
      .select("id_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(sessions).toHaveLength(1);
  });

  it("answers the same for numbers with and without an account", async () => {
    const { phone: known } = await login();
    const later = new Date(file.realNow().getTime() + 61_000);
    file.h.services!.api.now = () => later;
    const a = await post("/api/auth/sms/send", { phone: known });
    const b = await post("/api/auth/sms/send", { phone: nextPhone() });
    expect([a.status, a.body]).toEqual([b.status, b.body]);
    const c = await post("/api/auth/sms/login", { phone: known, code: "000001" });
    const d = await post("/api/auth/sms/login", { phone: nextPhone(), code: "000001" });
    expect([c.status, c.body]).toEqual([d.status, d.body]);
  });

  it("never logs the code", async () => {
    // The messenger logs channel, purpose and a masked address only; the text stays in the outbox.
    const phone = nextPhone();
    await post("/api/auth/sms/send", { phone });
    const message = file.h.services!.api.outbox!.list()[0]!;
    expect(message.text).toMatch(/\d{6}/);
  });
});

describe("sessions", () => {
  it("a planted session id is replaced at login (no fixation)", async () => {
    const planted = `sid=${"A".repeat(43)}`;
    const phone = nextPhone();
    await post("/api/auth/sms/send", { phone }, planted);
    const res = await post(
      "/api/auth/sms/login",
      { phone, code: lastCodeFor(file.h.services!.api.outbox, phone) },
      planted,
    );
    const fresh = sessionCookie(res);
    expect(fresh).not.toBe(planted);
    expect(await viewerOf(planted)).toBeNull();
    expect(await viewerOf(fresh)).not.toBeNull();
  });

  it("tampered, unknown and malformed cookies are anonymous, never an error", async () => {
    const { cookie } = await login();
    const flipped = cookie.slice(0, -1) + (cookie.endsWith("A") ? "B" : "A");
    for (const c of [flipped, "sid=", "sid=%%%", `sid=${"x".repeat(5000)}`, "sid=a; sid=b"]) {
      const res = await request(file.h.app).get("/api/auth/me").set("Cookie", c);
      expect(res.status, c.slice(0, 20)).toBe(200);
      expect(res.body.viewer).toBeNull();
    }
  });

  it("logout revokes on the server: the copied cookie is dead", async () => {
    const { cookie } = await login();
    expect((await post("/api/auth/logout", {}, cookie)).status).toBe(200);
    expect(await viewerOf(cookie)).toBeNull();
  });

  it("log out other devices keeps only this one", async () => {
    const { phone, cookie: first } = await login();
    const later = new Date(file.realNow().getTime() + 61_000);
    file.h.services!.api.now = () => later;
    await post("/api/auth/sms/send", { phone });
    const second = sessionCookie(
      await post("/api/auth/sms/login", { phone, code: lastCodeFor(file.h.services!.api.outbox, phone) }),
    );
    expect((await post("/api/auth/logout-others", {}, second)).status).toBe(200);
    expect(await viewerOf(first)).toBeNull();
    expect(await viewerOf(second)).not.toBeNull();
  });

  it("expires when idle, and a disabled account loses its sessions", async () => {
    const { cookie } = await login();
    const idle = new Date(file.realNow().getTime() + SESSION_IDLE_MS + 1000);
    file.h.services!.api.now = () => idle;
    expect(await viewerOf(cookie)).toBeNull();
    file.h.services!.api.now = file.realNow;
    const { phone, cookie: other } = await login();
    await file.h
      .services!.database.db.updateTable("users")
      .set({ status: "disabled" })
      .where("phone", "=", phone)
      .execute();
    expect(await viewerOf(other)).toBeNull();
  });

  it("server-rendered personal pages are private and follow the session", async () => {
    const { cookie } = await login();
    const res = await request(file.h.app).get("/my/order").set("Cookie", cookie);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const anonymous = await request(file.h.app).get("/my/order");
    expect(anonymous.status).toBe(302);
  });
});

describe("CSRF and request shape", () => {
  it("refuses cross-site writes and leaves the session alone", async () => {
    const { cookie } = await login();
    const crossSite = await request(file.h.app)
      .post("/api/auth/logout")
      .set("Cookie", cookie)
      .set("Sec-Fetch-Site", "cross-site")
      .set("Origin", "https://evil.example")
      .send({});
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await request(file.h.app)
      .post("/api/auth/logout")
      .set("Cookie", cookie)
      .set("Origin", "https://evil.example")
      .send({});
    expect(foreignOrigin.status).toBe(403);
    const noHeaders = await request(file.h.app).post("/api/auth/logout").set("Cookie", cookie).send({});
    expect(noHeaders.status).toBe(403);
    expect(await viewerOf(cookie)).not.toBeNull();
  });

  it("outside pro without PUBLIC_ORIGIN, a page opened at 127.0.0.1 or a LAN address may write; a set PUBLIC_ORIGIN is strict and says where to open the site", async () => {
    for (const host of ["127.0.0.1:3000", "192.168.1.20:3000"]) {
      const res = await request(file.h.app)
        .post("/api/auth/sms/send")
        .set("Host", host)
        .set("Origin", `http://${host}`)
        .set("Sec-Fetch-Site", "same-origin")
        .send({ phone: nextPhone() });
      expect(res.status).toBe(200);
    }
    // Another site naming itself is still refused.
    const foreign = await request(file.h.app)
      .post("/api/auth/sms/send")
      .set("Host", "127.0.0.1:3000")
      .set("Origin", "http://evil.example")
      .send({ phone: nextPhone() });
    expect(foreign.status).toBe(403);

    const strict = await testApp({}, {}, { PUBLIC_ORIGIN: "https://www.mochi.example" });
    try {
      const res = await request(strict.app)
        .post("/api/auth/sms/send")
        .set("Host", "127.0.0.1:3000")
        .set("Origin", "http://127.0.0.1:3000")
        .set("Sec-Fetch-Site", "same-origin")
        .send({ phone: nextPhone() });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("跨站请求已被拒绝：请在本站地址 https://www.mochi.example 打开网页后再试");
    } finally {
      await strict.dispose();
    }
  });

  it("JSON only: other content types are 415, malformed JSON 400, oversized 413", async () => {
    const form = await request(file.h.app)
      .post("/api/auth/sms/send")
      .set("Origin", ORIGIN)
      .type("form")
      .send("phone=13800138000");
    expect(form.status).toBe(415);
    const text = await request(file.h.app)
      .post("/api/auth/sms/send")
      .set("Origin", ORIGIN)
      .set("Content-Type", "text/plain")
      .send("{}");
    expect(text.status).toBe(415);
    const broken = await request(file.h.app)
      .post("/api/auth/sms/send")
      .set("Origin", ORIGIN)
      .set("Content-Type", "application/json")
      .send("{");
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("invalid_json");
    const huge = await post("/api/auth/sms/send", { phone: "1".repeat(40_000) });
    expect(huge.status).toBe(413);
  });

  it("prototype pollution keys change nothing", async () => {
    const res = await request(file.h.app)
      .post("/api/auth/sms/send")
      .set("Origin", ORIGIN)
      .set("Content-Type", "application/json")
      .send('{"phone":"13800138000","__proto__":{"isAdmin":true}}');
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("headers only a proxy may set do not steer anything", async () => {
    const res = await request(file.h.app)
      .get("/api/auth/me")
      .set("x-user-id", "1")
      .set("x-middleware-subrequest", "middleware:middleware")
      .set("X-Forwarded-Host", "evil.example");
    expect(res.body.viewer).toBeNull();
  });
});

describe("rate limits by client IP", () => {
  it("rotating X-Forwarded-For does not reset the per-IP cap when no proxy is trusted", async () => {
    let limited = 0;
    for (let i = 0; i < 32; i++) {
      const res = await post("/api/auth/sms/send", { phone: nextPhone() }).set("X-Forwarded-For", `10.0.0.${i}`);
      if (res.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
  });
});

describe("redirects after login stay on this site", () => {
  const outside = [
    "https://evil.com",
    "//evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "https:evil.com",
    "/%2F%2Fevil.com",
    "/%09/evil.com",
    "/\t/evil.com",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "",
  ];
  for (const value of outside) {
    it(`${JSON.stringify(value)} goes home`, () => {
      expect(safeRedirectPath(value)).toBe("/");
    });
  }
  it("same-origin paths are kept", () => {
    expect(safeRedirectPath("/my/order?tab=paid#top")).toBe("/my/order?tab=paid#top");
    expect(safeRedirectPath("/course/12")).toBe("/course/12");
  });
});
