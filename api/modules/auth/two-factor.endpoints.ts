/**
 * Two-factor login and step-up (decision 072). Under /auth: the login's second step, and proving
 * the password or an app code again (step-up) before money moves and account changes. Under
 * /me: staff set it up (scan, then confirm with a first code; recovery codes shown once), renew
 * the recovery codes, or turn it off (not an operator of the `pro` site). Every code check is
 * counted first (api/rate-limit.ts).
 */
import { loginResultSchema } from "../../../shared/contracts/auth";
import {
  type RecoveryCodes,
  type StepUpState,
  type TwoFactorSetup,
  recoveryCodesRenewSchema,
  recoveryCodesSchema,
  stepUpSchema,
  stepUpStateSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  twoFactorLoginSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../../shared/contracts/two-factor";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError } from "../../http";
import { notify } from "../../notices";
import { qrCodeSvg } from "../../qr-code";
import { enforce } from "../../rate-limit";
import { recordAudit } from "../audit/record";
import { canSignIn } from "./accounts";
import { accountDisabled, confirmDevice } from "./login";
import { verifyPassword } from "./passwords";
import { clearPendingLoginCookie, consumePendingLogin, pendingLoginExpired, readPendingLogin } from "./pending-logins";
import { STEP_UP_MS, stampStepUp } from "./sessions";
import { newTotpSecret, totpStep, totpUri } from "./totp";
import {
  accountCodeLimit,
  loginCodeLimit,
  recoveryCodesLeft,
  removeTwoFactor,
  renewRecoveryCodes,
  takeSecondFactor,
  twoFactorEnabled,
  twoFactorStatus,
  wrongCode,
} from "./two-factor";

const STEP_UP_LIMIT = { max: 5, windowSeconds: 15 * 60 };

const alreadyOn = () => new ApiError(409, "two_factor_enabled", "两步验证已经开启");
const notSetUp = () => new ApiError(409, "two_factor_not_set_up", "请先扫描二维码，再输入验证器上的 6 位数字");

/** How the account is named in the authenticator app: the e-mail, else the phone, else its number. */
const accountLabel = (user: User) => user.email ?? user.phone ?? `#${user.id}`;

export function twoFactorLoginEndpoints(ctx: ApiContext): Endpoint[] {
  async function stepUpState(user: User, sessionIdHash: string): Promise<StepUpState> {
    const session = await ctx.database.db
      .selectFrom("sessions")
      .select("stepped_up_at")
      .where("id_hash", "=", sessionIdHash)
      .executeTakeFirst();
    const until = session?.stepped_up_at ? new Date(session.stepped_up_at.getTime() + STEP_UP_MS) : null;
    return {
      password: user.password_hash !== null,
      code: await twoFactorEnabled(ctx.database.db, user.id),
      until: until && until > ctx.now() ? until.toISOString() : null,
    };
  }

  return [
    defineEndpoint({
      method: "post",
      path: "/auth/two-factor/verify",
      summary: "两步验证登录：提交验证器上的 6 位数字或一个恢复码（每次登录至多 5 次）",
      tag: "auth",
      auth: false,
      input: twoFactorLoginSchema,
      output: loginResultSchema,
      handler: async (req, res, { input: { code } }) => {
        const { user, ...pending } = await readPendingLogin(ctx, req, "two_factor");
        const used = await takeSecondFactor(ctx, user.id, code, {
          recovery: true,
          limits: [loginCodeLimit(pending.idHash)],
        });
        if (!(await consumePendingLogin(ctx, pending.idHash))) throw pendingLoginExpired();
        clearPendingLoginCookie(ctx, res);
        if (!canSignIn(user)) throw accountDisabled();
        if (used === "recovery") {
          const left = await recoveryCodesLeft(ctx.database.db, user.id);
          await notify(
            ctx,
            user.id,
            "security",
            "用恢复码登录了",
            `你用一个恢复码完成了两步验证，还剩 ${left} 个。如果不是你本人，请立即修改密码并联系客服。`,
          );
        }
        // A recovery code signs in, but only the password or an app code counts as a recent proof.
        const steppedUp = pending.steppedUp || used === "totp";
        res.json(await confirmDevice(ctx, req, res, user, { keyHash: pending.deviceKeyHash, steppedUp }));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/step-up",
      summary: "再次验证身份：可用的方式（登录密码、两步验证码）与当前验证的有效期",
      tag: "auth",
      auth: true,
      output: stepUpStateSchema,
      handler: async (_req, res, { auth }) => {
        res.json(await stepUpState(auth.user, auth.sessionIdHash));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/step-up",
      summary: `再次验证身份（登录密码或两步验证码），之后 10 分钟内可以退款、改角色、停用账号等（15 分钟内至多 ${STEP_UP_LIMIT.max} 次）`,
      tag: "auth",
      auth: true,
      input: stepUpSchema,
      output: stepUpStateSchema,
      handler: async (_req, res, { auth, input }) => {
        const { user } = auth;
        const limit = { key: `step-up:user:${user.id}`, ...STEP_UP_LIMIT, message: "验证次数太多，请 15 分钟后再试" };
        if (input.method === "password") {
          await enforce(ctx.database, [limit], ctx.now());
          if (!user.password_hash)
            throw new ApiError(400, "step_up_failed", "你还没有设置登录密码，请用两步验证码验证");
          if (!(await verifyPassword(input.password, user.password_hash)))
            throw new ApiError(400, "step_up_failed", "登录密码不正确");
        } else {
          if (!(await twoFactorEnabled(ctx.database.db, user.id)))
            throw new ApiError(400, "step_up_failed", "你还没有开启两步验证，请用登录密码验证");
          await takeSecondFactor(ctx, user.id, input.code, { recovery: false, limits: [limit] });
        }
        await stampStepUp(ctx.database, auth.sessionIdHash, ctx.now());
        res.json(await stepUpState(user, auth.sessionIdHash));
      },
    }),
  ];
}

export function twoFactorSettingsEndpoints(ctx: ApiContext): Endpoint[] {
  const audit = (user: User, action: string) =>
    recordAudit(ctx.database.db, { actorId: user.id, action, targetType: "user", targetId: user.id });

  return [
    defineEndpoint({
      method: "get",
      path: "/me/two-factor",
      summary: "两步验证：是否开启、是否必须开启、剩余恢复码（老师与运营）",
      tag: "me",
      auth: true,
      role: "teacher",
      output: twoFactorStatusSchema,
      handler: async (_req, res, { auth }) => {
        res.json(await twoFactorStatus(ctx, auth.user));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/two-factor/setup",
      summary: "开启两步验证第一步：生成新的密钥（二维码与文字），在验证器 App 中添加",
      tag: "me",
      auth: true,
      role: "teacher",
      output: twoFactorSetupSchema,
      handler: async (_req, res, { auth: { user } }) => {
        const secret = newTotpSecret();
        const now = ctx.now();
        // A setup not yet confirmed is replaced; a confirmed one is left alone.
        const written = await ctx.database.db
          .insertInto("totp_factors")
          .values({ user_id: user.id, secret, created_at: now })
          .onConflict((oc) =>
            oc
              .column("user_id")
              .doUpdateSet({ secret, created_at: now, last_step: null })
              .where("totp_factors.confirmed_at", "is", null),
          )
          .returning("user_id")
          .executeTakeFirst();
        if (!written) throw alreadyOn();
        const uri = totpUri(secret, ctx.settings.siteName, accountLabel(user));
        res.json({ secret, uri, qrSvg: await qrCodeSvg(uri) } satisfies TwoFactorSetup);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/two-factor/enable",
      summary: "开启两步验证第二步：输入验证器上的 6 位数字确认；返回 10 个恢复码（只显示这一次）",
      tag: "me",
      auth: true,
      role: "teacher",
      input: twoFactorEnableSchema,
      output: recoveryCodesSchema,
      handler: async (_req, res, { auth, input: { code } }) => {
        const { user } = auth;
        const now = ctx.now();
        await enforce(ctx.database, [accountCodeLimit(user.id)], now);
        const factor = await ctx.database.db
          .selectFrom("totp_factors")
          .select(["secret", "confirmed_at"])
          .where("user_id", "=", user.id)
          .executeTakeFirst();
        if (factor?.confirmed_at) throw alreadyOn();
        if (!factor) throw notSetUp();
        const step = totpStep(factor.secret, code, now);
        if (step === null) throw wrongCode();
        const recoveryCodes = await ctx.database.db.transaction().execute(async (trx) => {
          const confirmed = await trx
            .updateTable("totp_factors")
            .set({ confirmed_at: now, last_step: step })
            .where("user_id", "=", user.id)
            .where("secret", "=", factor.secret)
            .where("confirmed_at", "is", null)
            .executeTakeFirst();
          if (confirmed.numUpdatedRows !== 1n) throw alreadyOn();
          await recordAudit(trx, {
            actorId: user.id,
            action: "user.two_factor.enable",
            targetType: "user",
            targetId: user.id,
          });
          return renewRecoveryCodes(trx, user.id);
        });
        // The app's code was just proved.
        await stampStepUp(ctx.database, auth.sessionIdHash, now);
        await notify(
          ctx,
          user.id,
          "security",
          "两步验证已开启",
          "之后登录时，除了密码或验证码，还需要输入验证器上的 6 位数字。",
        );
        res.json({ recoveryCodes } satisfies RecoveryCodes);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/two-factor/recovery-codes",
      summary: "重新生成恢复码（输入验证器上的 6 位数字；旧的恢复码全部作废）",
      tag: "me",
      auth: true,
      role: "teacher",
      input: recoveryCodesRenewSchema,
      output: recoveryCodesSchema,
      handler: async (_req, res, { auth: { user }, input: { code } }) => {
        await takeSecondFactor(ctx, user.id, code, { recovery: false });
        const recoveryCodes = await renewRecoveryCodes(ctx.database.db, user.id);
        await audit(user, "user.two_factor.recovery_codes");
        await notify(ctx, user.id, "security", "恢复码已重新生成", "之前的恢复码已全部作废。");
        res.json({ recoveryCodes } satisfies RecoveryCodes);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/two-factor/disable",
      summary: "关闭两步验证（输入验证器上的 6 位数字或一个恢复码；运营账号在正式环境中不能关闭）",
      tag: "me",
      auth: true,
      role: "teacher",
      input: twoFactorDisableSchema,
      output: twoFactorStatusSchema,
      handler: async (_req, res, { auth: { user }, input: { code } }) => {
        if ((await twoFactorStatus(ctx, user)).required)
          throw new ApiError(409, "two_factor_required", "运营账号必须开启两步验证，不能关闭");
        await takeSecondFactor(ctx, user.id, code, { recovery: true });
        if (await removeTwoFactor(ctx.database.db, user.id)) {
          await audit(user, "user.two_factor.disable");
          await notify(
            ctx,
            user.id,
            "security",
            "两步验证已关闭",
            "如果这不是你本人的操作，请立即修改密码并联系客服。",
          );
        }
        res.json(await twoFactorStatus(ctx, user));
      },
    }),
  ];
}
