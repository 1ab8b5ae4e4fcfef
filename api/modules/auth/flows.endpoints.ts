/**
 * The login dialog's other panels: e-mail with password or code, registration, retrieve
 * account (reset the password by phone or e-mail), confirming a new device, complete info.
 * Nothing here tells a caller whether an address has an account: unknown and known addresses
 * get the same answers, and the same errors, in about the same time.
 */
import { randomInt } from "node:crypto";
import type { Request } from "express";
import {
  type CodeSent,
  codeSentSchema,
  type CompleteInfoResult,
  completeInfoResultSchema,
  type LoginResult,
  loginResultSchema,
  type StatusOk,
  statusOkSchema,
  completeInfoSchema,
  deviceSendSchema,
  deviceVerifySchema,
  emailCodeLoginSchema,
  emailLoginSchema,
  emailRegisterSchema,
  emailSendSchema,
  passwordIdentityProblem,
  PHONE_ONLY_RESET,
  resetSchema,
  resetSendSchema,
  skipInfoSchema,
} from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError, clientIp } from "../../http";
import { canSignIn, defaultNickname, viewerOf } from "./accounts";
import { notify } from "../../notices";
import { type CodeRefusal, sendCode } from "./code-delivery";
import { accountDisabled, completeLogin, signIn, verificationTarget } from "./login";
import { type Channel, OTP, consumeCode, invalidCode } from "./otp";
import {
  cancelPendingLogins,
  clearPendingLoginCookie,
  consumePendingLogin,
  pendingLoginExpired,
  readPendingLogin,
} from "./pending-logins";
import { admitPasswordTry, passwordFailed, passwordSucceeded } from "./password-guard";
import { hashPassword, verifyPassword } from "./passwords";
import { clearSessionCookie, revokeUserSessions } from "./sessions";

const credentialsInvalid = () => new ApiError(400, "credentials_invalid", "邮箱或密码错误");
const codeSent: CodeSent = { status: "sent", cooldownSeconds: OTP.cooldownSeconds };

async function userByAddress(ctx: ApiContext, channel: Channel, target: string): Promise<User | undefined> {
  return ctx.database.db
    .selectFrom("users")
    .selectAll()
    .where(channel === "sms" ? "phone" : "email", "=", target)
    .executeTakeFirst();
}

/** Retrieve-account codes, by phone or e-mail: only an account's own address gets one. */
async function sendResetCode(ctx: ApiContext, channel: Channel, target: string, ip: string) {
  const user = await userByAddress(ctx, channel, target);
  await sendCode(ctx, {
    channel,
    target,
    purpose: "reset",
    ip,
    userId: user?.id ?? null,
    deliver: user !== undefined,
    refusal: "reset_unregistered",
  });
}

export function accountFlowEndpoints(ctx: ApiContext): Endpoint[] {
  return [...emailEndpoints(ctx), ...resetAndDeviceEndpoints(ctx), ...infoEndpoints(ctx)];
}

/** Signing in and registering with an email address: a code, a password or the code alone. */
function emailEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/auth/email/send",
      summary: "发送邮箱验证码（登录、注册、找回）",
      tag: "auth",
      auth: false,
      input: emailSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { input: { email, purpose } }) => {
        if (purpose === "reset") await sendResetCode(ctx, "email", email, clientIp(req));
        else {
          const user = await userByAddress(ctx, "email", email);
          const deliver = purpose === "register" ? user === undefined : user !== undefined;
          const refusal: CodeRefusal = purpose === "register" ? "register_taken" : "login_unregistered";
          await sendCode(ctx, {
            channel: "email",
            target: email,
            purpose,
            ip: clientIp(req),
            userId: user?.id ?? null,
            deliver,
            refusal,
          });
        }
        res.json(codeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/email/login",
      summary: "邮箱 + 密码登录",
      tag: "auth",
      auth: false,
      input: emailLoginSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { email, password } }) => {
        const user = await userByAddress(ctx, "email", email);
        const attempt = await admitPasswordTry(ctx, req, email, user);
        // An unknown address costs the same scrypt work as a wrong password.
        const valid = await verifyPassword(password, user?.password_hash ?? null);
        if (!user || !valid) {
          await passwordFailed(ctx, attempt, user);
          throw credentialsInvalid();
        }
        await passwordSucceeded(ctx, attempt);
        res.json(await completeLogin(ctx, req, res, user, "password"));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/email/code-login",
      summary: "邮箱 + 验证码登录",
      tag: "auth",
      auth: false,
      input: emailCodeLoginSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { email, code } }) => {
        await consumeCode(ctx, { channel: "email", target: email, purpose: "login", code });
        const user = await userByAddress(ctx, "email", email);
        // Unknown addresses were never sent a usable code; a lucky guess is still just wrong.
        if (!user) throw invalidCode();
        res.json(await completeLogin(ctx, req, res, user));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/email/register",
      summary: "邮箱注册并登录",
      tag: "auth",
      auth: false,
      input: emailRegisterSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { email, code, password, nickname } }) => {
        await consumeCode(ctx, { channel: "email", target: email, purpose: "register", code });
        const taken = () => new ApiError(409, "email_taken", "该邮箱已注册，请直接登录");
        if (await userByAddress(ctx, "email", email)) throw taken();
        const created = await ctx.database.db
          .insertInto("users")
          .values({
            email,
            password_hash: await hashPassword(password),
            // Not derived from the address: nicknames are public, e-mail addresses are not.
            nickname: nickname ?? defaultNickname(String(randomInt(0, 10_000)).padStart(4, "0")),
          })
          .onConflict((oc) => oc.column("email").doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!created) throw taken();
        res.status(201).json(await completeLogin(ctx, req, res, created));
      },
    }),
  ];
}

/** Resetting a forgotten password, and confirming a new device with a code. */
function resetAndDeviceEndpoints(ctx: ApiContext): Endpoint[] {
  /** The login waiting on this browser, with its account and where the code goes. */
  async function pendingOn(req: Request) {
    const { user, ...pending } = await readPendingLogin(ctx, req, "device");
    const target = verificationTarget(user);
    if (!target) throw pendingLoginExpired();
    return { pending, user, target };
  }
  return [
    defineEndpoint({
      method: "post",
      path: "/auth/reset/send",
      summary: "找回账号：发送验证码",
      tag: "auth",
      auth: false,
      input: resetSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { input: { channel, target } }) => {
        await sendResetCode(ctx, channel, target, clientIp(req));
        res.json(codeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/reset",
      summary: "找回账号：设置新密码",
      tag: "auth",
      auth: false,
      input: resetSchema,
      output: statusOkSchema,
      handler: async (req, res, { input: { channel, target, code, password } }) => {
        await consumeCode(ctx, { channel, target, purpose: "reset", code });
        const user = await userByAddress(ctx, channel, target);
        if (!user) throw invalidCode();
        // Only now may the answer depend on the account: the code proved the address is theirs.
        // Phone login is by code only: a phone-only account would get a password it cannot use.
        if (channel === "sms" && !user.email) throw new ApiError(409, "phone_code_login", PHONE_ONLY_RESET);
        const problem = passwordIdentityProblem(password, { email: user.email, phone: user.phone });
        if (problem) throw new ApiError(400, "invalid_input", problem, [{ path: "password", message: problem }]);
        const now = ctx.now();
        await ctx.database.db
          .updateTable("users")
          .set({ password_hash: await hashPassword(password), password_change_required: false, updated_at: now })
          .where("id", "=", user.id)
          .execute();
        await revokeUserSessions(ctx.database, user.id, undefined, now);
        await cancelPendingLogins(ctx, user.id);
        await notify(ctx, user.id, "security", "密码已重置", "你的所有设备都已退出登录，请用新密码重新登录。");
        clearSessionCookie(res, ctx.settings.cookies);
        res.json({ status: "ok" } satisfies StatusOk);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/device/send",
      summary: "新设备登录确认：发送验证码",
      tag: "auth",
      auth: false,
      input: deviceSendSchema,
      output: codeSentSchema,
      handler: async (req, res) => {
        const { user, target } = await pendingOn(req);
        await sendCode(ctx, {
          channel: target.channel,
          target: target.to,
          purpose: "device",
          ip: clientIp(req),
          userId: user.id,
          deliver: true,
        });
        res.json(codeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/device/verify",
      summary: "新设备登录确认：提交验证码",
      tag: "auth",
      auth: false,
      input: deviceVerifySchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { code } }) => {
        const { pending, user, target } = await pendingOn(req);
        await consumeCode(ctx, { channel: target.channel, target: target.to, purpose: "device", code });
        if (!(await consumePendingLogin(ctx, pending.idHash))) throw pendingLoginExpired();
        clearPendingLoginCookie(ctx, res);
        if (!canSignIn(user)) throw accountDisabled();
        const result: LoginResult = await signIn(ctx, req, res, user, {
          keyHash: pending.deviceKeyHash,
          trust: true,
          announce: true,
          steppedUp: pending.steppedUp,
        });
        res.json(result);
      },
    }),
  ];
}

/** The details a new account is asked for after its first sign-in. */
function infoEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/auth/info",
      summary: "完善资料",
      tag: "auth",
      auth: true,
      input: completeInfoSchema,
      output: completeInfoResultSchema,
      handler: async (req, res, { auth, input: info }) => {
        const now = ctx.now();
        const user = await ctx.database.db
          .updateTable("users")
          .set({
            nickname: info.nickname,
            ...(info.avatarUrl !== undefined ? { avatar_url: info.avatarUrl } : {}),
            ...(info.gender !== undefined ? { gender: info.gender } : {}),
            ...(info.region !== undefined ? { region: info.region || null } : {}),
            info_completed_at: now,
            updated_at: now,
          })
          .where("id", "=", auth.user.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        res.json({ status: "ok", viewer: await viewerOf(ctx, user) } satisfies CompleteInfoResult);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/info/skip",
      summary: "跳过完善资料",
      tag: "auth",
      auth: true,
      input: skipInfoSchema,
      output: statusOkSchema,
      handler: async (req, res, { auth }) => {
        const now = ctx.now();
        await ctx.database.db
          .updateTable("users")
          .set({ info_skipped_at: now, updated_at: now })
          .where("id", "=", auth.user.id)
          .execute();
        res.json({ status: "ok" } satisfies StatusOk);
      },
    }),
  ];
}
