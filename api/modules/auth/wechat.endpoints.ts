/**
 * WeChat website login (微信开放平台「网站应用」) and messenger binding.
 *
 * start → WeChat's QR page → callback with `code` + `state` (state bound to this browser by an
 * httpOnly cookie) → the code is exchanged on the server. A known identity logs its account in;
 * an unknown one is kept 10 minutes as a pending link, and the login dialog's binding panel
 * proves a phone by SMS code to link it (creating the phone's account if new). Logged in,
 * /my/security links (start?intent=bind) and unlinks. Rules: docs/decisions/005-messenger-binding.md.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Request } from "express";
import { parse as parseCookies } from "cookie";
import { z } from "zod";
import {
  type CodeSent,
  codeSentSchema,
  type LoginResult,
  loginResultSchema,
  phoneSchema,
  safeRedirectPath,
  smsLoginSchema,
  statusOkSchema,
  wechatBindingSchema,
  wechatConfigSchema,
  wechatPendingSchema,
} from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError, clientIp, notFound } from "../../http";
import { createWechatClient, qrConnectUrl, type WechatProfile, type WechatSettings } from "../../providers/wechat";
import { enforce } from "../../rate-limit";
import { canSignIn, userForPhone } from "./accounts";
import {
  PENDING_IDENTITY_TTL_MS,
  consumePendingIdentity,
  createPendingIdentity,
  findIdentity,
  hasOtherSignIn,
  identityOfUser,
  linkIdentity,
  readPendingIdentity,
} from "./identities";
import { accountDisabled, completeLogin } from "./login";
import { OTP, consumeCode, issueCode } from "./otp";
import { smsText } from "./endpoints";

const PROVIDER = "wechat";
const COOKIE_PATH = "/api/auth/wechat";
const STATE_COOKIE = "wx_state";
const PENDING_COOKIE = "wx_pending";
const STATE_TTL_MS = 10 * 60_000;

const stateCookie = z.object({
  s: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  i: z.enum(["login", "bind"]),
  /** Where to go after a login (a same-origin path). */
  r: z.string().max(2048),
  /** The account that asked to bind, so the callback binds that one and no other. */
  u: z.number().int().optional(),
});
type StateCookie = z.infer<typeof stateCookie>;

const bindSendSchema = z.strictObject({ phone: phoneSchema });
const CODE_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** A query value read as one string; anything else (absent, repeated) reads as absent. */
const queryString = z.string().optional().catch(undefined);
const startQuery = z.object({
  intent: queryString.describe("bind：为已登录账号绑定微信；其他值为登录"),
  redirect: queryString.describe("登录后回到的站内路径"),
});
const callbackQuery = z.object({
  code: queryString.describe("微信的授权码（用户拒绝时没有）"),
  state: queryString.describe("start 时写入本浏览器 Cookie 的随机值"),
});

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Where a WeChat login ends: the page it started from, or the dialog's new-device panel when the
 * account protects its devices and this browser is new (the pending login is already a cookie).
 */
function afterWechatLogin(result: LoginResult, redirect: string): string {
  if (result.status === "ok") return redirect;
  if (result.status === "two_factor") {
    const query = new URLSearchParams({ login: "1", panel: "two-factor", ...(redirect !== "/" ? { redirect } : {}) });
    return `/?${query.toString()}`;
  }
  const query = new URLSearchParams({
    login: "1",
    panel: "device",
    channel: result.channel,
    target: result.maskedTarget,
    ...(redirect !== "/" ? { redirect } : {}),
  });
  return `/?${query.toString()}`;
}

/** Where the dialog shows why a WeChat login did not work (`/?login=1&error=wechat_<reason>`). */
function loginError(reason: string): string {
  return `/?login=1&error=wechat_${reason}`;
}

const cookieOptions = (ctx: ApiContext) => ({
  httpOnly: true,
  secure: ctx.settings.cookies.secure,
  // The callback arrives as a top-level navigation from WeChat: Lax cookies come along.
  sameSite: "lax" as const,
  path: COOKIE_PATH,
});

function settingsOrNull(ctx: ApiContext): WechatSettings | null {
  return ctx.settings.wechat ?? null;
}

function readCookie(req: Request, name: string): string | undefined {
  return req.headers.cookie ? parseCookies(req.headers.cookie)[name] : undefined;
}

export function wechatEndpoints(ctx: ApiContext): Endpoint[] {
  return [...wechatLoginEndpoints(ctx), ...wechatBindEndpoints(ctx)];
}

/** Signing in with WeChat: the configuration, the start and the callback. */
function wechatLoginEndpoints(ctx: ApiContext): Endpoint[] {
  return [...wechatStartEndpoints(ctx), ...wechatCallbackEndpoints(ctx)];
}

/** Whether WeChat sign-in is on, and the redirect to WeChat’s authorisation page. */
function wechatStartEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/auth/wechat/config",
      summary: "微信登录是否开启（开启时附网站应用的 AppID）",
      tag: "auth",
      auth: false,
      output: wechatConfigSchema,
      handler: (_req, res) => {
        const settings = settingsOrNull(ctx);
        res.json(settings ? { enabled: true, appId: settings.appId } : { enabled: false });
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/wechat/start",
      summary: "跳转到微信扫码登录页（302）；intent=bind 时为已登录账号绑定微信，redirect 为登录后回到的站内路径",
      tag: "auth",
      auth: false,
      query: startQuery,
      produces: "text/html",
      handler: async (req, res, { auth, query }) => {
        const settings = settingsOrNull(ctx);
        if (!settings) throw notFound("未开启微信登录");
        await enforce(ctx.database, [{ key: `wechat:start:${clientIp(req)}`, max: 60, windowSeconds: 600 }], ctx.now());
        const intent = query.intent === "bind" ? "bind" : "login";
        if (intent === "bind" && !auth) {
          res.redirect(302, `/?login=1&redirect=${encodeURIComponent("/my/security")}`);
          return;
        }
        const state = randomBytes(16).toString("base64url");
        const cookie: StateCookie = {
          s: state,
          i: intent,
          r: intent === "bind" ? "/my/security" : safeRedirectPath(query.redirect),
          ...(intent === "bind" && auth ? { u: auth.user.id } : {}),
        };
        res.cookie(STATE_COOKIE, Buffer.from(JSON.stringify(cookie)).toString("base64url"), {
          ...cookieOptions(ctx),
          maxAge: STATE_TTL_MS,
        });
        res.redirect(302, qrConnectUrl(settings, `${ctx.settings.publicOrigin}/api/auth/wechat/callback`, state));
      },
    }),
  ];
}

/** WeChat’s callback: the state checked, the account signed in, or a pending binding. */
function wechatCallbackEndpoints(ctx: ApiContext): Endpoint[] {
  function readState(req: Request): StateCookie | null {
    const raw = readCookie(req, STATE_COOKIE);
    if (!raw || raw.length > 4096) return null;
    try {
      const parsed = stateCookie.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
  return [
    defineEndpoint({
      method: "get",
      path: "/auth/wechat/callback",
      summary:
        "微信授权回调（302）：已绑定的微信直接登录；未绑定的暂存 10 分钟，转到登录框绑定手机号；绑定意图则回到账号安全页",
      tag: "auth",
      auth: false,
      query: callbackQuery,
      produces: "text/html",
      handler: async (req, res, { auth, query }) => {
        const settings = settingsOrNull(ctx);
        if (!settings) return res.redirect(302, loginError("disabled"));
        const saved = readState(req);
        res.clearCookie(STATE_COOKIE, cookieOptions(ctx));
        const { state, code } = query;
        if (!saved || !state || !sameString(state, saved.s)) return res.redirect(302, loginError("state"));
        const securityPage = (reason: string) => `/my/security?wechat=${reason}`;
        // Without a code the user refused on the phone.
        if (!code || !CODE_PATTERN.test(code)) {
          return res.redirect(302, saved.i === "bind" ? securityPage("denied") : loginError("denied"));
        }
        try {
          await enforce(
            ctx.database,
            [{ key: `wechat:callback:${clientIp(req)}`, max: 60, windowSeconds: 600 }],
            ctx.now(),
          );
        } catch {
          return res.redirect(302, loginError("busy"));
        }

        let profile: WechatProfile;
        try {
          profile = await createWechatClient(settings).profileForCode(code);
        } catch (err) {
          const errcode = (err as { errcode?: unknown }).errcode ?? "unknown";
          req.log?.warn({ event: "wechat_exchange_failed", errcode }, "wechat code exchange failed");
          return res.redirect(302, saved.i === "bind" ? securityPage("failed") : loginError("failed"));
        }
        const identity = { provider: PROVIDER, providerUid: profile.providerUid, nickname: profile.nickname };

        if (saved.i === "bind") {
          if (!auth || auth.user.id !== saved.u) return res.redirect(302, securityPage("failed"));
          const outcome = await linkIdentity(ctx.database.db, auth.user.id, identity);
          const word = {
            linked: "bound",
            already_linked: "bound",
            identity_taken: "taken",
            account_has_other: "other",
          };
          req.log?.info({ event: "wechat_bind", userId: auth.user.id, outcome }, "wechat bind");
          return res.redirect(302, securityPage(word[outcome]));
        }

        const known = await findIdentity(ctx, PROVIDER, profile.providerUid);
        if (known) {
          const user = await ctx.database.db
            .selectFrom("users")
            .selectAll()
            .where("id", "=", known.user_id)
            .executeTakeFirst();
          if (!user || !canSignIn(user)) return res.redirect(302, loginError("account_disabled"));
          if (profile.nickname && profile.nickname !== known.nickname) {
            await ctx.database.db
              .updateTable("identities")
              .set({ nickname: profile.nickname })
              .where("provider", "=", PROVIDER)
              .where("provider_uid", "=", profile.providerUid)
              .execute();
          }
          const result = await completeLogin(ctx, req, res, user);
          req.log?.info({ event: "login", method: "wechat", userId: user.id, status: result.status }, "wechat login");
          return res.redirect(302, afterWechatLogin(result, saved.r));
        }

        const token = await createPendingIdentity(ctx, identity, clientIp(req));
        res.cookie(PENDING_COOKIE, token, { ...cookieOptions(ctx), maxAge: PENDING_IDENTITY_TTL_MS });
        const back = saved.r !== "/" ? `&redirect=${encodeURIComponent(saved.r)}` : "";
        return res.redirect(302, `/?login=1&panel=bind${back}`);
      },
    }),
  ];
}

/** A WeChat sign-in with no account yet, bound by phone; binding and unbinding in 账号安全. */
function wechatBindEndpoints(ctx: ApiContext): Endpoint[] {
  async function pendingOf(req: Request) {
    return readPendingIdentity(ctx, readCookie(req, PENDING_COOKIE));
  }

  const bindExpired = () => new ApiError(410, "wechat_bind_expired", "微信授权已过期，请重新扫码");
  return [
    defineEndpoint({
      method: "get",
      path: "/auth/wechat/pending",
      summary: "绑定面板：本浏览器是否有等待绑定手机号的微信授权（微信昵称、过期时间）",
      tag: "auth",
      auth: false,
      output: wechatPendingSchema,
      handler: async (req, res) => {
        const pending = await pendingOf(req);
        res.json(
          pending
            ? { pending: true, nickname: pending.nickname, expiresAt: pending.expiresAt.toISOString() }
            : { pending: false },
        );
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/wechat/bind/send",
      summary: "绑定面板：向要绑定微信的手机号发送验证码（需有等待绑定的微信授权）",
      tag: "auth",
      auth: false,
      input: bindSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { input: { phone } }) => {
        if (!(await pendingOf(req))) throw bindExpired();
        const code = await issueCode(ctx, { channel: "sms", target: phone, purpose: "bind", ip: clientIp(req) });
        await ctx.messenger.send({
          channel: "sms",
          to: phone,
          text: smsText(ctx.settings.siteName, code),
          purpose: "bind",
          code,
        });
        res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/wechat/bind",
      summary: "绑定面板：手机号 + 验证码，把等待中的微信绑定到该手机号的账号（新号码即注册）并登录",
      tag: "auth",
      auth: false,
      input: smsLoginSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { phone, code } }) => {
        const pending = await pendingOf(req);
        if (!pending) throw bindExpired();
        await consumeCode(ctx, { channel: "sms", target: phone, purpose: "bind", code });
        const { user } = await userForPhone(ctx, phone);
        if (!canSignIn(user)) throw accountDisabled();
        const now = ctx.now();
        await ctx.database.db.transaction().execute(async (trx) => {
          if (!(await consumePendingIdentity(trx, pending.id, now))) throw bindExpired();
          const outcome = await linkIdentity(trx, user.id, pending);
          if (outcome === "account_has_other") {
            throw new ApiError(409, "wechat_account_has_other", "该手机号已绑定其他微信，请先在「账号安全」中解绑");
          }
          if (outcome === "identity_taken") throw new ApiError(409, "wechat_identity_taken", "该微信已绑定其他账号");
        });
        res.clearCookie(PENDING_COOKIE, cookieOptions(ctx));
        const result: LoginResult = await completeLogin(ctx, req, res, user);
        req.log?.info(
          { event: "login", method: "wechat_bind", userId: user.id, status: result.status },
          "wechat bound",
        );
        res.json(result);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/wechat/binding",
      summary: "本账号是否已绑定微信（及微信昵称）",
      tag: "auth",
      auth: true,
      output: wechatBindingSchema,
      handler: async (_req, res, { auth }) => {
        const identity = await identityOfUser(ctx, auth.user.id, PROVIDER);
        res.json(identity ? { bound: true, nickname: identity.nickname } : { bound: false });
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/auth/wechat/binding",
      summary: "解绑微信（微信不能是账号唯一的登录方式）",
      tag: "auth",
      auth: true,
      output: statusOkSchema,
      handler: async (req, res, { auth }) => {
        const identity = await identityOfUser(ctx, auth.user.id, PROVIDER);
        if (!identity) throw notFound("还没有绑定微信");
        if (!hasOtherSignIn(auth.user)) {
          throw new ApiError(409, "last_sign_in_method", "微信是这个账号唯一的登录方式，请先绑定手机号或设置邮箱密码");
        }
        await ctx.database.db
          .deleteFrom("identities")
          .where("user_id", "=", auth.user.id)
          .where("provider", "=", PROVIDER)
          .execute();
        req.log?.info({ event: "wechat_unbind", userId: auth.user.id }, "wechat unbound");
        res.json({ status: "ok" });
      },
    }),
  ];
}
