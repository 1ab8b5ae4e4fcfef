/**
 * Phone + SMS code login, the session's own endpoints (/me, logout, log out other devices).
 * The other login panels have their endpoints beside these (flows, qr, wechat).
 */
import { z } from "zod";
import {
  type CodeSent,
  codeSentSchema,
  loginResultSchema,
  smsLoginSchema,
  smsSendSchema,
  statusOkSchema,
} from "../../../shared/contracts/auth";
import { viewerSchema } from "../../../shared/contracts/viewer";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError, clientIp } from "../../http";
import { canSignIn, userForPhone, viewerOf } from "./accounts";
import { completeLogin } from "./login";
import { OTP, consumeCode, issueCode } from "./otp";
import { clearSessionCookie, revokeSession, revokeUserSessions } from "./sessions";

export function smsText(siteName: string, code: string): string {
  return `【${siteName}】验证码 ${code}，5 分钟内有效。如非本人操作，请忽略本短信。`;
}

export function authEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/auth/sms/send",
      summary: "发送短信验证码",
      tag: "auth",
      auth: false,
      input: smsSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { input: { phone, purpose } }) => {
        if (purpose !== "login") throw new ApiError(400, "invalid_input", "不支持的验证码用途");
        const code = await issueCode(ctx, { channel: "sms", target: phone, purpose, ip: clientIp(req) });
        await ctx.messenger.send({
          channel: "sms",
          to: phone,
          text: smsText(ctx.settings.siteName, code),
          purpose,
          code,
        });
        res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/sms/login",
      summary: "手机号 + 验证码登录（设置会话 Cookie）",
      tag: "auth",
      auth: false,
      input: smsLoginSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { phone, code } }) => {
        await consumeCode(ctx, { channel: "sms", target: phone, purpose: "login", code });
        const { user } = await userForPhone(ctx, phone);
        if (!canSignIn(user)) throw new ApiError(403, "account_disabled", "该账号已停用，请联系客服");
        res.json(await completeLogin(ctx, req, res, user));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/me",
      summary: "当前登录的用户（未登录为 null）",
      tag: "auth",
      auth: false,
      output: z.object({ viewer: viewerSchema.nullable() }),
      handler: async (_req, res, { auth }) => {
        res.json({ viewer: auth ? await viewerOf(ctx, auth.user) : null });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/logout",
      summary: "退出登录",
      tag: "auth",
      auth: false,
      output: statusOkSchema,
      handler: async (_req, res, { auth }) => {
        if (auth) await revokeSession(ctx.database, auth.sessionIdHash, ctx.now());
        clearSessionCookie(res, ctx.settings.cookies);
        res.json({ status: "ok" });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/logout-others",
      summary: "退出其他设备上的登录",
      tag: "auth",
      auth: true,
      output: statusOkSchema,
      handler: async (_req, res, { auth }) => {
        await revokeUserSessions(ctx.database, auth.user.id, auth.sessionIdHash, ctx.now());
        res.json({ status: "ok" });
      },
    }),
  ];
}
