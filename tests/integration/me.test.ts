/**
 * The personal centre's API (/api/me, /api/notices): profile and mass assignment (reference §6
 * case 13), avatars (cases 19–20), security changes, devices and sessions, account deletion
 * with the cooling-off period on an injected clock, notices, and the OpenAPI document.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eraseDueAccounts } from "../../api/modules/me/deletion";
import { AVATAR_MAX_BYTES } from "../../shared/contracts/me";
import { BROWSER_UA, testApp, lastCodeFor, sessionCookie } from "./helpers";

const ORIGIN = "http://localhost:3000";
const FIREFOX_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0";
type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let dataDir: string;
let realNow: () => Date;
let phoneSeq = 0;
const nextPhone = () => `137${String(20_000_000 + ++phoneSeq * 7919 + process.pid * 13).slice(-8)}`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "me-test-"));
  h = await testApp({ dataDir });
  realNow = h.services!.api.now;
});
afterAll(async () => {
  await h.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  h.services!.api.now = realNow;
});

const api = () => h.services!.api;
const db = () => api().database.db;

function send(method: "post" | "patch" | "delete", url: string, body?: unknown, cookie?: string) {
  let r = request(h.app)[method](url).set("Origin", ORIGIN);
  if (cookie) r = r.set("Cookie", cookie);
  return body === undefined ? r : r.send(body as object);
}
const post = (url: string, body: unknown, cookie?: string) => send("post", url, body, cookie);
const get = (url: string, cookie?: string) => {
  const r = request(h.app).get(url);
  return cookie ? r.set("Cookie", cookie) : r;
};

/**
 * Lets a test send another code at once: the 60 s per-address cooldown and the per-IP daily cap
 * (every request here comes from one address) are what the auth tests cover, not these.
 */
async function forgetCooldown(target: string) {
  await db()
    .updateTable("otp_challenges")
    .set({ created_at: new Date(0) })
    .where("target", "=", target)
    .execute();
  await db().deleteFrom("rate_limits").where("key", "like", "otp:ip:%").execute();
}

async function login(phone = nextPhone(), userAgent = BROWSER_UA) {
  await forgetCooldown(phone);
  const sent = await post("/api/auth/sms/send", { phone }).set("User-Agent", userAgent);
  expect(sent.status).toBe(200);
  const res = await post("/api/auth/sms/login", { phone, code: lastCodeFor(api().outbox, phone) }).set(
    "User-Agent",
    userAgent,
  );
  expect(res.status).toBe(200);
  const cookie = sessionCookie(res);
  const me = await get("/api/me", cookie);
  return { phone, cookie, id: me.body.profile.id as number };
}

/** Asks for deletion as the page does: a code to the bound phone, then the confirm word and that code. */
async function askDeletion(a: { phone: string; cookie: string }) {
  await forgetCooldown(a.phone);
  expect((await post("/api/me/deletion/code", { channel: "sms" }, a.cookie)).status).toBe(200);
  return post(
    "/api/me/deletion",
    { confirm: "注销", channel: "sms", code: lastCodeFor(api().outbox, a.phone) },
    a.cookie,
  );
}

const userRow = (id: number) => db().selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const noticesOf = (id: number) =>
  db().selectFrom("notifications").selectAll().where("user_id", "=", id).orderBy("id", "desc").execute();

describe("everything under /api/me and /api/notices needs a session", () => {
  it("answers 401 without one", async () => {
    const anonymous = [
      get("/api/me"),
      get("/api/me/devices"),
      get("/api/me/sessions"),
      get("/api/notices"),
      send("patch", "/api/me/profile", { nickname: "x" }),
      post("/api/me/password", { password: "abcd1234" }),
      post("/api/me/phone/send", { phone: "13800138000" }),
      post("/api/me/email/send", { email: "a@example.com" }),
      post("/api/me/device-protection", { enabled: true }),
      send("delete", "/api/me/devices/1"),
      send("delete", "/api/me/sessions/0123456789abcdef"),
      post("/api/me/deletion/code", { channel: "sms" }),
      post("/api/me/deletion", { confirm: "注销", channel: "sms", code: "123456" }),
      post("/api/me/deletion/cancel", {}),
      post("/api/notices/read", {}),
      post("/api/me/avatar", undefined)
        .set("Content-Type", "image/png")
        .send(Buffer.from([0x89, 0x50])),
    ];
    for (const [i, res] of (await Promise.all(anonymous)).entries()) {
      expect(res.status, `request ${i}`).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
  });

  it("headers only a proxy may set do not sign anyone in", async () => {
    const res = await get("/api/me").set("x-user-id", "1").set("x-middleware-subrequest", "middleware:middleware");
    expect(res.status).toBe(401);
  });
});

describe("profile", () => {
  it("shows the profile with the phone masked and what exists today", async () => {
    const { cookie, phone } = await login();
    const res = await get("/api/me", cookie);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const { profile, counts } = res.body;
    expect(profile.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expect(JSON.stringify(res.body)).not.toContain(phone);
    expect(profile).toMatchObject({
      email: null,
      hasPassword: false,
      deviceProtection: false,
      status: "active",
      deletionRequestedAt: null,
      avatarUrl: null,
    });
    expect(profile.nickname).toMatch(/^墨友\d{4}$/);
    expect(Date.parse(profile.createdAt)).not.toBeNaN();
    expect(counts).toEqual({ unreadNotices: expect.any(Number) });
  });

  it("edits nickname, gender, region and intro; empty region and intro clear them", async () => {
    const { cookie, id } = await login();
    const res = await send(
      "patch",
      "/api/me/profile",
      { nickname: "  临池  ", gender: "female", region: "浙江 杭州", intro: "每天写一页小楷。\n周末临帖。" },
      cookie,
    );
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({
      nickname: "临池",
      gender: "female",
      region: "浙江 杭州",
      intro: "每天写一页小楷。\n周末临帖。",
    });
    const cleared = await send("patch", "/api/me/profile", { region: "", intro: null, gender: null }, cookie);
    expect(cleared.body.profile).toMatchObject({ nickname: "临池", region: null, intro: null, gender: null });
    expect((await userRow(id)).region).toBeNull();
  });

  it("refuses every invalid value with a Chinese message", async () => {
    const { cookie } = await login();
    const bad: Array<[unknown, string]> = [
      [{}, "没有要修改的内容"],
      [{ nickname: "" }, "请输入昵称"],
      [{ nickname: "   " }, "请输入昵称"],
      [{ nickname: "墨".repeat(21) }, "昵称最多 20 个字"],
      [{ nickname: "a\u0007b" }, "昵称不能包含控制字符"],
      [{ nickname: 12 }, ""],
      [{ gender: "other" }, "请选择性别"],
      [{ region: "地".repeat(41) }, "地区最多 40 个字"],
      [{ region: "a\nb" }, "地区不能包含换行或控制字符"],
      [{ intro: "字".repeat(201) }, "个人简介最多 200 字"],
      [{ intro: "a\u0000b" }, "个人简介不能包含控制字符"],
      [[], ""],
    ];
    for (const [body, message] of bad) {
      const res = await send("patch", "/api/me/profile", body, cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_input");
      if (message) expect(res.body.error.message, JSON.stringify(body)).toBe(message);
    }
    const ok = await send("patch", "/api/me/profile", { intro: "字".repeat(200) }, cookie);
    expect(ok.status).toBe(200);
  });

  it("mass assignment and prototype pollution are refused and change nothing", async () => {
    const { cookie, id } = await login();
    const before = await userRow(id);
    for (const extra of [
      { role: "operator" },
      { status: "active", nickname: "x" },
      { id: 1 },
      { avatarUrl: "/avatar/../../etc/passwd" },
      { phone: "13800000000" },
      { password_hash: "x" },
      { device_protection: true },
      { balance: 999 },
    ]) {
      const res = await send("patch", "/api/me/profile", { nickname: "改名", ...extra }, cookie);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.message).toMatch(/^不支持的字段/);
    }
    for (const raw of [
      '{"nickname":"x","__proto__":{"isAdmin":true,"role":"operator"}}',
      '{"nickname":"x","constructor":{"prototype":{"isAdmin":true}}}',
    ]) {
      const res = await send("patch", "/api/me/profile", undefined, cookie)
        .set("Content-Type", "application/json")
        .send(raw);
      expect(res.status, raw).toBe(400);
    }
    const polluted = await send("patch", "/api/me/profile?a[__proto__][x]=1", { nickname: "查询" }, cookie);
    expect(polluted.status).toBe(200);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const after = await userRow(id);
    expect(after.role).toBe(before.role);
    expect(after.status).toBe("active");
    expect(after.phone).toBe(before.phone);
    expect(after.nickname).toBe("查询");
  });

  it("takes JSON only, from our own pages", async () => {
    const { cookie } = await login();
    const form = await send("patch", "/api/me/profile", undefined, cookie).type("form").send("nickname=x");
    expect(form.status).toBe(415);
    const foreign = await request(h.app)
      .patch("/api/me/profile")
      .set("Cookie", cookie)
      .set("Origin", "https://evil.example")
      .send({ nickname: "evil" });
    expect(foreign.status).toBe(403);
  });
});

// ---------- avatars ----------

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 178, g: 44, b: 26 } } });

/** A PNG whose header claims `width` × `height` but whose data is a few bytes (a pixel flood). */
function floodPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1 + width * 3))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const upload = (cookie: string, body: Buffer, type: string) =>
  post("/api/me/avatar", undefined, cookie).set("Content-Type", type).send(body);

describe("avatar upload", () => {
  it("re-encodes JPEG, PNG and WebP to a 256 × 256 WebP without EXIF, served as an image", async () => {
    const { cookie, id } = await login();
    const jpeg = await solid(900, 600)
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret-owner", ImageDescription: "home address" } } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const inputs: Array<[Buffer, string]> = [
      [jpeg, "image/jpeg"],
      [await solid(300, 500).png().toBuffer(), "image/png"],
      [await solid(640, 640).webp().toBuffer(), "image/webp"],
    ];
    const urls: string[] = [];
    for (const [buf, type] of inputs) {
      const res = await upload(cookie, buf, type);
      expect(res.status, type).toBe(200);
      expect(res.body.avatarUrl).toMatch(/^\/avatar\/[0-9a-f]{32}\.webp$/);
      urls.push(res.body.avatarUrl);
      const served = await get(res.body.avatarUrl).buffer(true);
      expect(served.status).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-security-policy"]).toContain("sandbox");
      expect(served.headers["content-disposition"]).toMatch(/^inline; filename="avatar\.webp"$/);
      const meta = await sharp(served.body as Buffer).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect((served.body as Buffer).includes(Buffer.from("secret-owner"))).toBe(false);
    }
    expect((await userRow(id)).avatar_url).toBe(urls[2]);
    expect((await get("/api/me", cookie)).body.profile.avatarUrl).toBe(urls[2]);
    // Only the current avatar is kept.
    expect((await get(urls[0]!)).status).toBe(404);
    expect((await get(urls[1]!)).status).toBe(404);
  });

  it("judges the picture by its bytes: sent as application/octet-stream or with no type, it is taken", async () => {
    const { cookie, id } = await login();
    const asBytes = await post("/api/me/avatar", undefined, cookie)
      .set("Content-Type", "application/octet-stream")
      .send(await solid(300, 300).png().toBuffer());
    expect(asBytes.status).toBe(200);
    // A Buffer body goes without a Content-Type header.
    const typeless = await post("/api/me/avatar", undefined, cookie).send(await solid(300, 300).jpeg().toBuffer());
    expect(typeless.status).toBe(200);
    expect((await userRow(id)).avatar_url).toBe(typeless.body.avatarUrl);
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    expect((await post("/api/me/avatar", undefined, cookie).send(html)).status).toBe(415);
    expect((await upload(cookie, html, "application/octet-stream")).status).toBe(415);
  });

  it("refuses HTML, SVG and scripts whatever type they claim (415), and stores nothing", async () => {
    const { cookie, id } = await login();
    const html = Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>',
    );
    const cases: Array<[Buffer, string]> = [
      [html, "image/jpeg"],
      [svg, "image/jpeg"],
      [svg, "image/png"],
      [svg, "image/svg+xml"],
      [Buffer.from("alert(1)"), "image/webp"],
      [html, "image/gif"],
      [html, "text/html"],
      [Buffer.from("GIF89a\x01\x00\x01\x00"), "image/gif"],
    ];
    for (const [body, type] of cases) {
      const res = await upload(cookie, body, type);
      expect(res.status, `${type} ${body.subarray(0, 12).toString()}`).toBe(415);
    }
    expect((await userRow(id)).avatar_url).toBeNull();
  });

  it("a body over 5 MB is 413; a truncated image is 400", async () => {
    const { cookie, id } = await login();
    const big = Buffer.alloc(AVATAR_MAX_BYTES + 1, 0);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const res = await upload(cookie, big, "image/jpeg");
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    const jpeg = await solid(400, 400).jpeg().toBuffer();
    const truncated = await upload(cookie, jpeg.subarray(0, jpeg.length / 3), "image/jpeg");
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.code).toBe("invalid_image");
    expect((await userRow(id)).avatar_url).toBeNull();
  });

  it("a tiny PNG that declares 20 000 × 20 000 pixels is refused before it is decoded", async () => {
    const { cookie } = await login();
    const flood = floodPng(20_000, 20_000);
    expect(flood.length).toBeLessThan(100_000);
    const started = Date.now();
    const res = await upload(cookie, flood, "image/png");
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("image_too_large");
    expect(Date.now() - started).toBeLessThan(2000);
    // One side over 8000 px, even with few pixels in all.
    const tall = await upload(cookie, floodPng(10, 8001), "image/png");
    expect(tall.status).toBe(400);
    expect(tall.body.error.code).toBe("image_too_large");
  });

  it("limits uploads per learner", async () => {
    const { cookie } = await login();
    const png = await solid(32, 32).png().toBuffer();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await upload(cookie, png, "image/png")).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("uploads from another site are refused", async () => {
    const { cookie } = await login();
    const png = await solid(32, 32).png().toBuffer();
    const res = await request(h.app)
      .post("/api/me/avatar")
      .set("Cookie", cookie)
      .set("Sec-Fetch-Site", "cross-site")
      .set("Content-Type", "image/png")
      .send(png);
    expect(res.status).toBe(403);
  });
});

// ---------- security ----------

describe("password", () => {
  it("is set without a current one, then changing it needs the current one and signs out other sessions", async () => {
    const a = await login();
    const b = await login(a.phone, FIREFOX_UA);
    const set = await post("/api/me/password", { password: "moChi2026" }, a.cookie);
    expect(set.status).toBe(200);
    expect((await get("/api/me", a.cookie)).body.profile.hasPassword).toBe(true);
    expect((await get("/api/me", b.cookie)).status).toBe(401);
    const c = await login(a.phone, FIREFOX_UA);

    const missing = await post("/api/me/password", { password: "newPass99" }, a.cookie);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("请输入当前密码");
    const wrong = await post("/api/me/password", { current: "nope12345", password: "newPass99" }, a.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("password_incorrect");
    expect((await get("/api/me", c.cookie)).status).toBe(200);

    const changed = await post("/api/me/password", { current: "moChi2026", password: "newPass99" }, a.cookie);
    expect(changed.status).toBe(200);
    expect((await get("/api/me", a.cookie)).status).toBe(200);
    expect((await get("/api/me", c.cookie)).status).toBe(401);
    const titles = (await noticesOf(a.id)).map((n) => n.title);
    expect(titles).toContain("已设置登录密码");
    expect(titles).toContain("登录密码已修改");
  });

  it("validates the new password", async () => {
    const { cookie } = await login();
    for (const [body, message] of [
      [{ password: "short1" }, "密码至少 8 位"],
      [{ password: "onlyletters" }, "密码需要包含数字"],
      [{ password: "12345678" }, "密码需要包含字母"],
      [{ password: `a1${"x".repeat(63)}` }, "密码最多 64 位"],
      [{ password: "abcd1234", role: "operator" }, ""],
      [{}, ""],
    ] as const) {
      const res = await post("/api/me/password", body, cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (message) expect(res.body.error.message).toBe(message);
    }
  });

  it("guessing the current password is limited per account", async () => {
    const { cookie } = await login();
    expect((await post("/api/me/password", { password: "first1234" }, cookie)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await post("/api/me/password", { current: `wrong${i}xx`, password: "other1234" }, cookie)).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("phone and e-mail binding", () => {
  it("changes the phone with a code sent to the new number", async () => {
    const a = await login();
    const newPhone = nextPhone();
    expect((await post("/api/me/phone/send", { phone: a.phone }, a.cookie)).status).toBe(400);
    const sent = await post("/api/me/phone/send", { phone: newPhone }, a.cookie);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: "sent", cooldownSeconds: 60 });
    const code = lastCodeFor(api().outbox, newPhone);
    const wrong = await post(
      "/api/me/phone",
      { phone: newPhone, code: code === "000000" ? "111111" : "000000" },
      a.cookie,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe("code_invalid");
    const ok = await post("/api/me/phone", { phone: newPhone, code }, a.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body.profile.phone).toBe(`${newPhone.slice(0, 3)}****${newPhone.slice(-4)}`);
    expect((await userRow(a.id)).phone).toBe(newPhone);
    // The code works once, and the new number now signs in to the same account.
    expect((await post("/api/me/phone", { phone: newPhone, code }, a.cookie)).status).toBe(400);
    const again = await login(newPhone);
    expect(again.id).toBe(a.id);
    expect((await noticesOf(a.id)).map((n) => n.title)).toContain("手机号已更换");
  });

  it("a number bound to another account is 409, and a code sent for another account does not work", async () => {
    const a = await login();
    const b = await login();
    await forgetCooldown(b.phone);
    expect((await post("/api/me/phone/send", { phone: b.phone }, a.cookie)).status).toBe(200);
    const taken = await post("/api/me/phone", { phone: b.phone, code: lastCodeFor(api().outbox, b.phone) }, a.cookie);
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("address_taken");
    expect((await userRow(a.id)).phone).toBe(a.phone);

    // A code issued to B for B's own binding is useless to A.
    const target = nextPhone();
    expect((await post("/api/me/phone/send", { phone: target }, b.cookie)).status).toBe(200);
    const stolen = await post("/api/me/phone", { phone: target, code: lastCodeFor(api().outbox, target) }, a.cookie);
    expect(stolen.status).toBe(400);
    expect((await userRow(a.id)).phone).toBe(a.phone);
  });

  it("validates numbers, addresses and codes", async () => {
    const { cookie } = await login();
    for (const body of [{ phone: "123" }, { phone: "23800138000" }, {}, { phone: nextPhone(), extra: 1 }]) {
      expect((await post("/api/me/phone/send", body, cookie)).status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [
      { phone: nextPhone(), code: "12345" },
      { phone: nextPhone(), code: "abcdef" },
      { phone: "1" },
    ]) {
      expect((await post("/api/me/phone", body, cookie)).status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ email: "not-an-email" }, { email: "" }, { email: "a@example.com", purpose: "login" }]) {
      expect((await post("/api/me/email/send", body, cookie)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("binds an e-mail with a code sent to it; the address is shown masked", async () => {
    const a = await login();
    const email = `Learner${phoneSeq}@Example.com`;
    const sent = await post("/api/me/email/send", { email }, a.cookie);
    expect(sent.status).toBe(200);
    const lower = email.toLowerCase();
    const message = api()
      .outbox!.list()
      .find((m) => m.to === lower)!;
    expect(message.channel).toBe("email");
    expect(message.subject).toContain("绑定邮箱");
    const ok = await post("/api/me/email", { email, code: lastCodeFor(api().outbox, lower) }, a.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body.profile.email).toBe(`l***@example.com`);
    expect((await userRow(a.id)).email).toBe(lower);
    expect((await noticesOf(a.id)).map((n) => n.title)).toContain("邮箱已绑定");

    const b = await login();
    await forgetCooldown(lower);
    expect((await post("/api/me/email/send", { email }, b.cookie)).status).toBe(200);
    const taken = await post("/api/me/email", { email, code: lastCodeFor(api().outbox, lower) }, b.cookie);
    expect(taken.status).toBe(409);
  });
});

describe("device protection, devices and sessions", () => {
  it("switches device protection and leaves a notice", async () => {
    const a = await login();
    const on = await post("/api/me/device-protection", { enabled: true }, a.cookie);
    expect(on.status).toBe(200);
    expect(on.body.profile.deviceProtection).toBe(true);
    expect((await userRow(a.id)).device_protection).toBe(true);
    expect((await post("/api/me/device-protection", { enabled: "yes" }, a.cookie)).status).toBe(400);
    expect((await post("/api/me/device-protection", {}, a.cookie)).status).toBe(400);
    const off = await post("/api/me/device-protection", { enabled: false }, a.cookie);
    expect(off.body.profile.deviceProtection).toBe(false);
    const titles = (await noticesOf(a.id)).map((n) => n.title);
    expect(titles).toContain("已开启登录设备保护");
    expect(titles).toContain("已关闭登录设备保护");
  });

  it("lists devices and sessions, and removing a device signs it out", async () => {
    const a = await login();
    const b = await login(a.phone, FIREFOX_UA);
    const devices = await get("/api/me/devices", a.cookie);
    expect(devices.status).toBe(200);
    expect(devices.body.items).toHaveLength(2);
    const mine = devices.body.items.find((d: { current: boolean }) => d.current);
    const other = devices.body.items.find((d: { current: boolean }) => !d.current);
    expect(mine.name).toMatch(/Chrome/);
    expect(other.name).toMatch(/Firefox/);

    const sessions = await get("/api/me/sessions", a.cookie);
    expect(sessions.status).toBe(200);
    expect(sessions.body.items).toHaveLength(2);
    for (const s of sessions.body.items) {
      expect(s.id).toMatch(/^[0-9a-f]{16}$/);
      expect(Object.keys(s).sort()).toEqual(["createdAt", "current", "device", "id", "ip", "lastSeenAt"]);
    }
    expect(sessions.body.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    // The public id is never the cookie value.
    expect(JSON.stringify(sessions.body)).not.toContain(a.cookie.slice(4));

    expect((await send("delete", `/api/me/devices/${mine.id}`, undefined, a.cookie)).status).toBe(400);
    expect((await send("delete", "/api/me/devices/abc", undefined, a.cookie)).status).toBe(404);
    expect((await send("delete", "/api/me/devices/0", undefined, a.cookie)).status).toBe(404);
    const stranger = await login();
    expect((await send("delete", `/api/me/devices/${other.id}`, undefined, stranger.cookie)).status).toBe(404);
    expect((await get("/api/me", b.cookie)).status).toBe(200);

    const removed = await send("delete", `/api/me/devices/${other.id}`, undefined, a.cookie);
    expect(removed.status).toBe(200);
    expect((await get("/api/me", b.cookie)).status).toBe(401);
    expect((await get("/api/me", a.cookie)).status).toBe(200);
    expect((await get("/api/me/devices", a.cookie)).body.items).toHaveLength(1);
    expect((await noticesOf(a.id)).map((n) => n.title)).toContain("已移除登录设备");
  });

  it("signs out one other session by its public id, never the current one or someone else's", async () => {
    const a = await login();
    const b = await login(a.phone, FIREFOX_UA);
    const stranger = await login();
    const items = (await get("/api/me/sessions", a.cookie)).body.items as Array<{ id: string; current: boolean }>;
    const current = items.find((s) => s.current)!;
    const other = items.find((s) => !s.current)!;

    expect((await send("delete", `/api/me/sessions/${current.id}`, undefined, a.cookie)).status).toBe(400);
    expect((await send("delete", "/api/me/sessions/zz", undefined, a.cookie)).status).toBe(404);
    expect((await send("delete", "/api/me/sessions/%25", undefined, a.cookie)).status).toBe(404);
    expect((await send("delete", `/api/me/sessions/${other.id}`, undefined, stranger.cookie)).status).toBe(404);
    expect((await get("/api/me", b.cookie)).status).toBe(200);

    expect((await send("delete", `/api/me/sessions/${other.id}`, undefined, a.cookie)).status).toBe(200);
    expect((await get("/api/me", b.cookie)).status).toBe(401);
    expect((await send("delete", `/api/me/sessions/${other.id}`, undefined, a.cookie)).status).toBe(404);
    const left = (await get("/api/me/sessions", a.cookie)).body.items;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
  });

  it("退出其他设备 leaves only this session", async () => {
    const a = await login();
    const b = await login(a.phone, FIREFOX_UA);
    expect((await post("/api/auth/logout-others", {}, a.cookie)).status).toBe(200);
    expect((await get("/api/me", b.cookie)).status).toBe(401);
    expect((await get("/api/me/sessions", a.cookie)).body.items).toHaveLength(1);
  });
});

describe("account deletion", () => {
  it("needs the confirmation word and a code sent to the bound phone, and can be withdrawn during the cooling-off period", async () => {
    const a = await login();
    for (const body of [
      {},
      { confirm: "删除", channel: "sms", code: "123456" },
      { confirm: "注销", channel: "sms", code: "123456", reason: "x" },
      // No code: the deletion agreement confirms identity with one.
      { confirm: "注销" },
    ]) {
      expect((await post("/api/me/deletion", body, a.cookie)).status, JSON.stringify(body)).toBe(400);
    }
    // No e-mail bound: that channel is refused; a code never sent does not work.
    const noEmail = await post("/api/me/deletion/code", { channel: "email" }, a.cookie);
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.message).toBe("账号没有绑定邮箱");
    const guessed = await post("/api/me/deletion", { confirm: "注销", channel: "sms", code: "000000" }, a.cookie);
    expect(guessed.status).toBe(400);
    expect((await userRow(a.id)).status).toBe("active");
    // The code goes to the bound phone, says what it is for, and works for this account only.
    await forgetCooldown(a.phone);
    expect((await post("/api/me/deletion/code", { channel: "sms" }, a.cookie)).status).toBe(200);
    expect(api().outbox!.list()[0]).toMatchObject({ to: a.phone, purpose: "deletion" });
    expect(api().outbox!.list()[0]!.text).toContain("用于申请注销账号");
    const other = await login();
    const stolen = await post(
      "/api/me/deletion",
      { confirm: "注销", channel: "sms", code: lastCodeFor(api().outbox, a.phone) },
      other.cookie,
    );
    expect(stolen.status).toBe(400);
    const requested = await post(
      "/api/me/deletion",
      { confirm: "注销", channel: "sms", code: lastCodeFor(api().outbox, a.phone) },
      a.cookie,
    );
    expect(requested.status).toBe(200);
    expect(requested.body.status).toBe("deleting");
    const due = Date.parse(requested.body.deletionDueAt) - Date.parse(requested.body.deletionRequestedAt);
    expect(due).toBe(15 * 86_400_000);
    expect((await post("/api/me/deletion/code", { channel: "sms" }, a.cookie)).status).toBe(409);
    const me = (await get("/api/me", a.cookie)).body.profile;
    expect(me.status).toBe("deleting");
    expect(me.deletionDueAt).toBe(requested.body.deletionDueAt);

    const cancelled = await post("/api/me/deletion/cancel", {}, a.cookie);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ status: "active", deletionRequestedAt: null, deletionDueAt: null });
    expect((await post("/api/me/deletion/cancel", {}, a.cookie)).status).toBe(409);
    const titles = (await noticesOf(a.id)).map((n) => n.title);
    expect(titles).toContain("已提交注销申请");
    expect(titles).toContain("已撤销注销申请");

    // Withdrawn: the erasure 16 days on leaves it alone.
    const later = Date.now() + 16 * 86_400_000;
    await eraseDueAccounts(api(), new Date(later));
    expect((await userRow(a.id)).status).toBe("active");
  });

  it("erases the personal data once 15 days have passed, not before", async () => {
    const start = Date.now();
    api().now = () => new Date(start);
    const a = await login();
    const other = await login();
    const png = await solid(64, 64).png().toBuffer();
    const avatarUrl = (await upload(a.cookie, png, "image/png")).body.avatarUrl as string;
    expect((await get(avatarUrl)).status).toBe(200);
    await send("patch", "/api/me/profile", { nickname: "将注销", region: "北京", intro: "再见" }, a.cookie);
    expect((await post("/api/me/password", { password: "byeBye123" }, a.cookie)).status).toBe(200);
    await db()
      .insertInto("identities")
      .values({ provider: "wechat", provider_uid: `uid-${a.id}`, user_id: a.id, nickname: "微信昵称" })
      .execute();
    expect((await askDeletion(a)).status).toBe(200);
    expect((await askDeletion(other)).status).toBe(200);
    await post("/api/me/deletion/cancel", {}, other.cookie);

    // Day 14: still in the cooling-off period, still signed in.
    api().now = () => new Date(start + 14 * 86_400_000);
    expect(await eraseDueAccounts(api())).toBe(0);
    expect((await userRow(a.id)).status).toBe("deleting");

    const day16 = new Date(start + 16 * 86_400_000);
    api().now = () => day16;
    expect(await eraseDueAccounts(api(), day16)).toBeGreaterThanOrEqual(1);
    const erased = await userRow(a.id);
    expect(erased).toMatchObject({
      status: "deleted",
      phone: null,
      email: null,
      password_hash: null,
      avatar_url: null,
      nickname: "已注销用户",
      region: null,
      intro: null,
      gender: null,
    });
    const count = async (table: "identities" | "devices" | "notifications") =>
      (await db().selectFrom(table).select("user_id").where("user_id", "=", a.id).execute()).length;
    expect(await count("identities")).toBe(0);
    expect(await count("devices")).toBe(0);
    expect(await count("notifications")).toBe(0);
    const live = await db()
      .selectFrom("sessions")
      .select("id_hash")
      .where("user_id", "=", a.id)
      .where("revoked_at", "is", null)
      .execute();
    expect(live).toHaveLength(0);
    expect((await get(avatarUrl)).status).toBe(404);
    // Running again erases nothing twice; the withdrawn account is untouched.
    expect(await eraseDueAccounts(api(), day16)).toBe(0);
    expect((await userRow(other.id)).status).toBe("active");
    // The number is free again: it makes a new, unrelated account.
    const reborn = await login(a.phone);
    expect(reborn.id).not.toBe(a.id);
  });
});

describe("notices", () => {
  it("lists the latest with the unread count and marks them read, own ones only", async () => {
    const a = await login();
    const b = await login();
    await post("/api/me/device-protection", { enabled: true }, a.cookie);
    await post("/api/me/device-protection", { enabled: false }, a.cookie);
    await post("/api/me/password", { password: "notice123" }, a.cookie);
    const list = await get("/api/notices", a.cookie);
    expect(list.status).toBe(200);
    expect(list.headers["cache-control"]).toBe("private, no-store");
    expect(list.body.unread).toBeGreaterThanOrEqual(3);
    expect(list.body.items[0]).toMatchObject({ title: "已设置登录密码", read: false, kind: "security" });
    expect((await get("/api/me", a.cookie)).body.counts.unreadNotices).toBe(list.body.unread);

    const bList = await get("/api/notices", b.cookie);
    const foreignIds = (await noticesOf(a.id)).map((n) => n.id);
    const foreign = await post("/api/notices/read", { ids: foreignIds }, b.cookie);
    expect(foreign.status).toBe(200);
    expect(foreign.body.unread).toBe(bList.body.unread);
    expect((await get("/api/notices", a.cookie)).body.unread).toBe(list.body.unread);

    const one = await post("/api/notices/read", { ids: [list.body.items[0].id] }, a.cookie);
    expect(one.body.unread).toBe(list.body.unread - 1);
    const after = await get("/api/notices", a.cookie);
    expect(after.body.items[0].read).toBe(true);
    expect(after.body.items[1].read).toBe(false);

    for (const body of [{ ids: [] }, { ids: ["1"] }, { ids: [0] }, { ids: [1.5] }, { all: true }, { ids: 1 }]) {
      expect((await post("/api/notices/read", body, a.cookie)).status, JSON.stringify(body)).toBe(400);
    }
    const all = await post("/api/notices/read", {}, a.cookie);
    expect(all.body).toEqual({ unread: 0 });
    expect((await get("/api/notices", a.cookie)).body.items.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it("keeps to the latest 20", async () => {
    const a = await login();
    await db()
      .insertInto("notifications")
      .values(Array.from({ length: 25 }, (_, i) => ({ user_id: a.id, kind: "test", title: `第 ${i + 1} 条` })))
      .execute();
    const list = await get("/api/notices", a.cookie);
    expect(list.body.items).toHaveLength(20);
    expect(list.body.unread).toBeGreaterThanOrEqual(25);
  });
});

describe("OpenAPI document", () => {
  it("describes the auth, personal-centre and notice endpoints from the contracts", async () => {
    const res = await get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.title).toBeTruthy();
    for (const [p, method] of [
      ["/auth/sms/send", "post"],
      ["/auth/sms/login", "post"],
      ["/auth/me", "get"],
      ["/auth/logout", "post"],
      ["/me", "get"],
      ["/me/profile", "patch"],
      ["/me/avatar", "post"],
      ["/me/password", "post"],
      ["/me/phone", "post"],
      ["/me/email/send", "post"],
      ["/me/devices/{id}", "delete"],
      ["/me/sessions", "get"],
      ["/me/deletion", "post"],
      ["/notices", "get"],
      ["/notices/read", "post"],
    ] as const) {
      expect(doc.paths[p]?.[method], `${method} ${p}`).toBeDefined();
      expect(doc.paths[p][method].responses["200"]).toBeDefined();
    }
    const patch = doc.paths["/me/profile"].patch;
    const schema = patch.requestBody.content["application/json"].schema;
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual(["gender", "intro", "nickname", "region"]);
    expect(patch.security).toEqual([{ session: [] }]);
    expect(doc.paths["/me/avatar"].post.requestBody.content["image/webp"]).toBeDefined();
    const me = doc.paths["/me"].get.responses["200"].content["application/json"].schema;
    expect(me.properties.profile.properties.phone).toBeDefined();
    expect(doc.components.securitySchemes.session.in).toBe("cookie");
  });
});
