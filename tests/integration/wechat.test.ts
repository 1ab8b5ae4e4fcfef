/**
 * WeChat website login against a local fake of the WeChat API (the two documented endpoints,
 * their JSON shapes and an errcode error), and the messenger binding rules of decision 005.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiContext } from "../../api/context";
import { userForPhone } from "../../api/modules/auth/accounts";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { WechatError, createWechatClient } from "../../api/providers/wechat";
import { TestBrowser, testApp } from "./helpers";

const APP_ID = "wx0123456789abcdef";
const APP_SECRET = "test-app-secret-0123456789";

/** code → the WeChat user it stands for. */
const USERS: Record<string, { openid: string; unionid?: string; nickname: string }> = {
  "code-alice": { openid: "o-alice", unionid: "u-alice", nickname: "墨友阿丽" },
  "code-bob": { openid: "o-bob", unionid: "u-bob", nickname: "Bob" },
  "code-carol": { openid: "o-carol", unionid: "u-carol", nickname: "Carol" },
  "code-dave": { openid: "o-dave", unionid: "u-dave", nickname: "Dave" },
  "code-erin": { openid: "o-erin", unionid: "u-erin", nickname: "Erin" },
  // An app not attached to an open-platform account: no unionid.
  "code-frank": { openid: "o-frank", nickname: "Frank" },
};

const requests: string[] = [];

function json(res: ServerResponse, body: unknown, status = 200) {
  // WeChat answers JSON as text/plain.
  res.writeHead(status, { "Content-Type": "text/plain" });
  res.end(JSON.stringify(body));
}

function fakeWechat(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://fake");
  requests.push(url.pathname);
  const q = url.searchParams;
  if (url.pathname === "/sns/oauth2/access_token") {
    if (q.get("appid") !== APP_ID || q.get("secret") !== APP_SECRET || q.get("grant_type") !== "authorization_code") {
      return json(res, { errcode: 40125, errmsg: "invalid appsecret" });
    }
    const code = q.get("code") ?? "";
    if (code === "code-redirect") {
      res.writeHead(302, { Location: "/trap" });
      return res.end();
    }
    if (code === "code-slow") return; // never answers
    const user = USERS[code];
    if (!user) return json(res, { errcode: 40029, errmsg: "invalid code" });
    return json(res, {
      access_token: `token-${user.openid}`,
      expires_in: 7200,
      refresh_token: `refresh-${user.openid}`,
      openid: user.openid,
      scope: "snsapi_login",
      ...(user.unionid ? { unionid: user.unionid } : {}),
    });
  }
  if (url.pathname === "/sns/userinfo") {
    const user = Object.values(USERS).find((u) => `token-${u.openid}` === q.get("access_token"));
    if (!user || q.get("openid") !== user.openid) return json(res, { errcode: 40001, errmsg: "invalid credential" });
    return json(res, {
      openid: user.openid,
      nickname: user.nickname,
      sex: 1,
      province: "Zhejiang",
      city: "Hangzhou",
      country: "CN",
      headimgurl: "https://thirdwx.qlogo.cn/mmopen/x/0",
      privilege: [],
      ...(user.unionid ? { unionid: user.unionid } : {}),
    });
  }
  json(res, { errcode: -1, errmsg: "unexpected path" }, 404);
}

let fake: Server;
let fakeOrigin: string;
let t: Awaited<ReturnType<typeof testApp>>;
let ctx: ApiContext;
let server: Server;
let base: string;

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  return new Promise((resolve) => {
    const s = createServer(handler).listen(0, "127.0.0.1", () =>
      resolve({ server: s, origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}` }),
    );
  });
}

beforeAll(async () => {
  ({ server: fake, origin: fakeOrigin } = await listen(fakeWechat));
  t = await testApp({}, {}, { WECHAT_APP_ID: APP_ID, WECHAT_APP_SECRET: APP_SECRET, WECHAT_API_ORIGIN: fakeOrigin });
  ctx = t.services!.api;
  ({ server, origin: base } = await listen(t.app));
});

afterAll(async () => {
  server?.closeAllConnections();
  fake?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await new Promise((r) => fake?.close(r));
  await t?.dispose();
});

/** start → (WeChat) → callback, as the browser would go: returns the callback's redirect. */
async function scan(browser: TestBrowser, code: string | null, startQuery = "") {
  const start = await browser.fetch(`/api/auth/wechat/start${startQuery}`);
  expect(start.status).toBe(302);
  const location = start.headers.get("location") ?? "";
  const state = new URL(location).searchParams.get("state") ?? "";
  const query = new URLSearchParams({ state, ...(code ? { code } : {}) });
  const callback = await browser.fetch(`/api/auth/wechat/callback?${query.toString()}`);
  expect(callback.status).toBe(302);
  return { location, state, redirect: callback.headers.get("location") ?? "" };
}

async function smsCodeFor(phone: string, purpose: string): Promise<string> {
  const message = ctx.outbox?.list().find((m) => m.to === phone && m.purpose === purpose);
  expect(message?.code).toMatch(/^\d{6}$/);
  expect(message?.text).toContain(message?.code);
  return message?.code ?? "";
}

async function loggedIn(browser: TestBrowser, userId: number) {
  const token = await createSession(ctx.database, userId, { userAgent: "test", ip: "127.0.0.1" }, ctx.now());
  browser.cookies.set(sessionCookieName(ctx.settings.cookies), token);
}

describe("configuration", () => {
  it("says it is enabled and which app", async () => {
    const res = await new TestBrowser(base).json("GET", "/api/auth/wechat/config");
    expect(res.body).toEqual({ enabled: true, appId: APP_ID });
  });

  it("is off without WECHAT_APP_ID and WECHAT_APP_SECRET", async () => {
    const off = await testApp();
    try {
      const { server: s, origin } = await listen(off.app);
      const browser = new TestBrowser(origin);
      expect((await browser.json("GET", "/api/auth/wechat/config")).body).toEqual({ enabled: false });
      expect((await browser.fetch("/api/auth/wechat/start")).status).toBe(404);
      expect((await browser.fetch("/api/auth/wechat/callback?code=x&state=y")).headers.get("location")).toBe(
        "/?login=1&error=wechat_disabled",
      );
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    } finally {
      await off.dispose();
    }
  });
});

describe("start", () => {
  it("redirects to WeChat's QR page with a state bound to an httpOnly cookie", async () => {
    const browser = new TestBrowser(base);
    const res = await browser.fetch("/api/auth/wechat/start");
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe("https://open.weixin.qq.com/connect/qrconnect");
    expect(url.hash).toBe("#wechat_redirect");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: APP_ID,
      redirect_uri: "http://localhost:3000/api/auth/wechat/callback",
      response_type: "code",
      scope: "snsapi_login",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    });
    // The exact parameter order of WeChat's documentation.
    expect(location).toMatch(/\?appid=[^&]+&redirect_uri=[^&]+&response_type=code&scope=snsapi_login&state=[^&#]+#/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wx_state="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/wechat/);
  });
});

describe("callback", () => {
  it("refuses a state that is not this browser's, and never calls WeChat for it", async () => {
    const victim = new TestBrowser(base);
    const { location } = await (async () => {
      const start = await victim.fetch("/api/auth/wechat/start");
      return { location: start.headers.get("location") ?? "" };
    })();
    const state = new URL(location).searchParams.get("state") ?? "";
    const before = requests.length;
    const attacker = new TestBrowser(base);
    const res = await attacker.fetch(`/api/auth/wechat/callback?code=code-alice&state=${state}`);
    expect(res.headers.get("location")).toBe("/?login=1&error=wechat_state");
    const wrong = await victim.fetch(`/api/auth/wechat/callback?code=code-alice&state=${"A".repeat(22)}`);
    expect(wrong.headers.get("location")).toBe("/?login=1&error=wechat_state");
    expect(requests.length).toBe(before);
  });

  it("a state works once", async () => {
    const browser = new TestBrowser(base);
    const { state, redirect } = await scan(browser, "code-erin");
    expect(redirect).toBe("/?login=1&panel=bind");
    const replay = await browser.fetch(`/api/auth/wechat/callback?code=code-erin&state=${state}`);
    expect(replay.headers.get("location")).toBe("/?login=1&error=wechat_state");
  });

  it("a refusal on the phone (no code) and a WeChat errcode end in the dialog with an error, without a session", async () => {
    const browser = new TestBrowser(base);
    expect((await scan(browser, null)).redirect).toBe("/?login=1&error=wechat_denied");
    expect((await scan(browser, "code-unknown")).redirect).toBe("/?login=1&error=wechat_failed");
    expect((await browser.json("GET", "/api/auth/me")).body.viewer).toBeNull();
  });

  it("does not follow a redirect from the WeChat API", async () => {
    const browser = new TestBrowser(base);
    expect((await scan(browser, "code-redirect")).redirect).toBe("/?login=1&error=wechat_failed");
    expect(requests).not.toContain("/trap");
  });

  it("an unknown WeChat user is kept pending, binds a phone by SMS code and is logged in", async () => {
    const browser = new TestBrowser(base);
    const { redirect } = await scan(browser, "code-alice", "?redirect=%2Fcourse");
    expect(redirect).toBe("/?login=1&panel=bind&redirect=%2Fcourse");
    expect(requests.slice(-2)).toEqual(["/sns/oauth2/access_token", "/sns/userinfo"]);
    expect((await browser.json("GET", "/api/auth/me")).body.viewer).toBeNull();
    const pending = await browser.json("GET", "/api/auth/wechat/pending");
    expect(pending.body).toEqual({ pending: true, nickname: "墨友阿丽", expiresAt: expect.any(String) });
    expect(Date.parse(pending.body.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000);

    // The login code does not bind; the bind code comes from bind/send.
    const phone = "13912340001";
    const sent = await browser.json("POST", "/api/auth/wechat/bind/send", { phone });
    expect(sent.body).toEqual({ status: "sent", cooldownSeconds: 60 });
    const code = await smsCodeFor(phone, "bind");
    const wrong = await browser.json("POST", "/api/auth/wechat/bind", {
      phone,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    const bound = await browser.json("POST", "/api/auth/wechat/bind", { phone, code });
    expect(bound.status).toBe(200);
    expect(bound.body.status).toBe("ok");

    const me = await browser.json("GET", "/api/auth/me");
    const user = await ctx.database.db
      .selectFrom("users")
      .selectAll()
      .where("phone", "=", phone)
      .executeTakeFirstOrThrow();
    expect(me.body.viewer.id).toBe(user.id);
    const identity = await ctx.database.db
      .selectFrom("identities")
      .selectAll()
      .where("user_id", "=", user.id)
      .execute();
    expect(identity).toEqual([
      expect.objectContaining({ provider: "wechat", provider_uid: "u-alice", nickname: "墨友阿丽" }),
    ]);

    // Used once.
    expect((await browser.json("GET", "/api/auth/wechat/pending")).body).toEqual({ pending: false });
    expect((await browser.json("POST", "/api/auth/wechat/bind", { phone, code })).status).toBe(410);

    // Next time the same WeChat user logs straight in, on any browser.
    const other = new TestBrowser(base);
    expect((await scan(other, "code-alice")).redirect).toBe("/");
    expect((await other.json("GET", "/api/auth/me")).body.viewer.id).toBe(user.id);
  });

  it("binding needs a pending WeChat login", async () => {
    const browser = new TestBrowser(base);
    expect((await browser.json("POST", "/api/auth/wechat/bind/send", { phone: "13912340002" })).status).toBe(410);
    expect((await browser.json("POST", "/api/auth/wechat/bind", { phone: "13912340002", code: "123456" })).status).toBe(
      410,
    );
    browser.cookies.set("wx_pending", `${"a".repeat(32)}.${"b".repeat(43)}`);
    expect((await browser.json("GET", "/api/auth/wechat/pending")).body).toEqual({ pending: false });
  });

  it("a phone whose account already has another WeChat is not re-bound", async () => {
    const phone = "13912340003";
    const { user } = await userForPhone(ctx, phone);
    await ctx.database.db
      .insertInto("identities")
      .values({ provider: "wechat", provider_uid: "u-someone-else", user_id: user.id, nickname: "旧微信" })
      .execute();
    const browser = new TestBrowser(base);
    expect((await scan(browser, "code-bob")).redirect).toBe("/?login=1&panel=bind");
    await browser.json("POST", "/api/auth/wechat/bind/send", { phone });
    const res = await browser.json("POST", "/api/auth/wechat/bind", { phone, code: await smsCodeFor(phone, "bind") });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("wechat_account_has_other");
    expect((await browser.json("GET", "/api/auth/me")).body.viewer).toBeNull();
    const identities = await ctx.database.db
      .selectFrom("identities")
      .selectAll()
      .where("user_id", "=", user.id)
      .execute();
    expect(identities.map((i) => i.provider_uid)).toEqual(["u-someone-else"]);
  });

  it("a disabled account cannot log in through WeChat", async () => {
    const { user } = await userForPhone(ctx, "13912340004");
    await ctx.database.db
      .insertInto("identities")
      .values({ provider: "wechat", provider_uid: "u-dave", user_id: user.id, nickname: "Dave" })
      .execute();
    await ctx.database.db.updateTable("users").set({ status: "disabled" }).where("id", "=", user.id).execute();
    const browser = new TestBrowser(base);
    expect((await scan(browser, "code-dave")).redirect).toBe("/?login=1&error=wechat_account_disabled");
    expect((await browser.json("GET", "/api/auth/me")).body.viewer).toBeNull();
  });
});

describe("binding from /my/security", () => {
  it("binds the signed-in account, shows it, and unbinds when another way to log in remains", async () => {
    const { user } = await userForPhone(ctx, "13912340005");
    const browser = new TestBrowser(base);
    await loggedIn(browser, user.id);
    expect((await browser.json("GET", "/api/auth/wechat/binding")).body).toEqual({ bound: false });
    expect((await scan(browser, "code-carol", "?intent=bind")).redirect).toBe("/my/security?wechat=bound");
    expect((await browser.json("GET", "/api/auth/wechat/binding")).body).toEqual({ bound: true, nickname: "Carol" });

    // Someone else cannot take Carol's WeChat.
    const { user: other } = await userForPhone(ctx, "13912340006");
    const otherBrowser = new TestBrowser(base);
    await loggedIn(otherBrowser, other.id);
    expect((await scan(otherBrowser, "code-carol", "?intent=bind")).redirect).toBe("/my/security?wechat=taken");

    const evil = await browser.json("DELETE", "/api/auth/wechat/binding", undefined, {
      Origin: "https://evil.example",
    });
    expect(evil.status).toBe(403);
    const unbind = await browser.json("DELETE", "/api/auth/wechat/binding");
    expect(unbind.body).toEqual({ status: "ok" });
    expect((await browser.json("GET", "/api/auth/wechat/binding")).body).toEqual({ bound: false });
    expect((await browser.json("DELETE", "/api/auth/wechat/binding")).status).toBe(404);
  });

  it("refuses to unbind the account's only way to log in", async () => {
    const user = await ctx.database.db
      .insertInto("users")
      .values({ email: "only-wechat@example.com", nickname: "只有微信" })
      .returningAll()
      .executeTakeFirstOrThrow();
    await ctx.database.db
      .insertInto("identities")
      .values({ provider: "wechat", provider_uid: "u-only", user_id: user.id, nickname: "只有微信" })
      .execute();
    const browser = new TestBrowser(base);
    await loggedIn(browser, user.id);
    const res = await browser.json("DELETE", "/api/auth/wechat/binding");
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("last_sign_in_method");
    expect((await browser.json("GET", "/api/auth/wechat/binding")).body.bound).toBe(true);
  });

  it("needs a session", async () => {
    const browser = new TestBrowser(base);
    expect((await browser.json("GET", "/api/auth/wechat/binding")).status).toBe(401);
    expect((await browser.json("DELETE", "/api/auth/wechat/binding")).status).toBe(401);
    const start = await browser.fetch("/api/auth/wechat/start?intent=bind");
    expect(start.headers.get("location")).toBe("/?login=1&redirect=%2Fmy%2Fsecurity");
  });
});

describe("the WeChat client", () => {
  const settings = () => ({ appId: APP_ID, appSecret: APP_SECRET, apiOrigin: fakeOrigin, openOrigin: "https://x" });

  it("turns an errcode into an error that does not carry the secret", async () => {
    const err = await createWechatClient(settings())
      .profileForCode("code-nobody")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WechatError);
    expect((err as WechatError).errcode).toBe(40029);
    expect(String((err as Error).message)).not.toContain(APP_SECRET);
  });

  it("gives up after its timeout", async () => {
    const started = Date.now();
    const err = await createWechatClient(settings(), { timeoutMs: 300 })
      .profileForCode("code-slow")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WechatError);
    expect((err as WechatError).errcode).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("prefers unionid as the identity and falls back to openid", async () => {
    const profile = await createWechatClient(settings()).profileForCode("code-bob");
    expect(profile).toEqual({ providerUid: "u-bob", openid: "o-bob", unionid: "u-bob", nickname: "Bob" });
    const noUnion = await createWechatClient(settings()).profileForCode("code-frank");
    expect(noUnion).toEqual({ providerUid: "o-frank", openid: "o-frank", unionid: null, nickname: "Frank" });
  });
});
