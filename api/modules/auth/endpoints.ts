/**
 * Phone + SMS code login, the session's own endpoints (/me, logout, log out other devices).
 * The other login panels mount their routers beside this one.
 */
import express, { type Router } from "express";
import { type CodeSent, smsLoginSchema, smsSendSchema } from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import { ApiError, clientIp, handler, parseInput } from "../../http";
import { canSignIn, userForPhone, viewerOf } from "./accounts";
import { authOf, requireAuth } from "./guard";
import { completeLogin } from "./login";
import { OTP, consumeCode, issueCode } from "./otp";
import { clearSessionCookie, revokeSession, revokeUserSessions } from "./sessions";

export function smsText(siteName: string, code: string): string {
  return `【${siteName}】验证码 ${code}，5 分钟内有效。如非本人操作，请忽略本短信。`;
}

export function createAuthRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.post(
    "/sms/send",
    handler(async (req, res) => {
      const { phone, purpose } = parseInput(smsSendSchema, req.body);
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
    }),
  );

  router.post(
    "/sms/login",
    handler(async (req, res) => {
      const { phone, code } = parseInput(smsLoginSchema, req.body);
      await consumeCode(ctx, { channel: "sms", target: phone, purpose: "login", code });
      const { user } = await userForPhone(ctx, phone);
      if (!canSignIn(user)) throw new ApiError(403, "account_disabled", "该账号已停用，请联系客服");
      res.json(await completeLogin(ctx, req, res, user));
    }),
  );

  router.get(
    "/me",
    handler(async (_req, res) => {
      const auth = authOf(res);
      res.json({ viewer: auth ? await viewerOf(ctx, auth.user) : null });
    }),
  );

  router.post(
    "/logout",
    handler(async (_req, res) => {
      const auth = authOf(res);
      if (auth) await revokeSession(ctx.database, auth.sessionIdHash, ctx.now());
      clearSessionCookie(res, ctx.settings.cookies);
      res.json({ status: "ok" });
    }),
  );

  router.post(
    "/logout-others",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      await revokeUserSessions(ctx.database, auth.user.id, auth.sessionIdHash, ctx.now());
      res.json({ status: "ok" });
    }),
  );

  return router;
}
