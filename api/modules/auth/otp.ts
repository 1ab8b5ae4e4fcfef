/**
 * One-time codes sent by SMS or e-mail: 6 random digits, valid 5 minutes, bound to the address
 * and purpose they were sent for, at most 5 wrong tries, used once. Sending is limited per
 * address (60 s cooldown, daily cap), per client IP (daily) and overall (hourly). A channel
 * with nothing to deliver it by is refused (503) before anything is counted.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { sql } from "kysely";
import type { OtpPurpose } from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import { ApiError, tooManyRequests } from "../../http";
import { enforce } from "../../rate-limit";

export const OTP = {
  ttlMs: 5 * 60_000,
  maxAttempts: 5,
  cooldownSeconds: 60,
  dailyPerTarget: 10,
  hourlyGlobal: 1000,
} as const;

export type Channel = "sms" | "email";

const codeHash = (challengeId: string, code: string) =>
  createHash("sha256").update(`${challengeId}:${code}`).digest("hex");

export const invalidCode = () => new ApiError(400, "code_invalid", "验证码错误或已过期");

/** What a code request hears on a site with nothing to deliver it by (pro without a provider). */
export const CHANNEL_UNAVAILABLE: Record<Channel, string> = {
  sms: "短信服务暂未开通，暂时无法发送短信验证码，请改用其他方式登录或联系客服",
  email: "邮件服务暂未开通，暂时无法发送邮件验证码，请改用其他方式登录或联系客服",
};

/** Refuses a code nobody would receive: 503 for the visitor, and the setting to fix in the log. */
function refuseUndeliverable(ctx: ApiContext, channel: Channel, purpose: OtpPurpose): void {
  const missing = ctx.messenger.missingSetting(channel);
  if (!missing) return;
  ctx.logger.error(
    { channel, purpose, setting: missing },
    `code not sent: no ${channel === "sms" ? "SMS provider" : "mail transport"} is configured, set ${missing}`,
  );
  throw new ApiError(503, `${channel}_unavailable`, CHANNEL_UNAVAILABLE[channel]);
}

/**
 * Creates a challenge and returns its code for the caller to send. Earlier codes stop working.
 * The cooldown and caps are checked and recorded in one transaction that holds a lock on the
 * address (an advisory lock on its hash): of many sends to one address at once, on any nodes,
 * exactly one gets past the cooldown, and a refused send counts against nothing.
 */
export async function issueCode(
  ctx: ApiContext,
  req: { channel: Channel; target: string; purpose: OtpPurpose; ip: string; userId?: number | null },
): Promise<string> {
  refuseUndeliverable(ctx, req.channel, req.purpose);
  const now = ctx.now();
  const id = randomBytes(16).toString("hex");
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await ctx.database.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`otp:${req.channel}:${req.target}`}, 0))`.execute(trx);
    const last = await trx
      .selectFrom("otp_challenges")
      .select("created_at")
      .where("channel", "=", req.channel)
      .where("target", "=", req.target)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (last) {
      const wait = Math.ceil((last.created_at.getTime() + OTP.cooldownSeconds * 1000 - now.getTime()) / 1000);
      if (wait > 0) throw tooManyRequests(wait, `请 ${wait} 秒后再获取验证码`);
    }
    await enforce(
      trx,
      [
        {
          key: `otp:target:${req.channel}:${req.target}`,
          max: OTP.dailyPerTarget,
          windowSeconds: 86_400,
          message: "今天获取验证码的次数太多了，请明天再试",
        },
        {
          key: `otp:ip:${req.ip}`,
          max: ctx.settings.otpDailyPerIp,
          windowSeconds: 86_400,
          message: "今天获取验证码的次数太多了，请明天再试",
        },
        { key: "otp:global", max: OTP.hourlyGlobal, windowSeconds: 3600, message: "验证码服务繁忙，请稍后再试" },
      ],
      now,
    );
    await trx
      .updateTable("otp_challenges")
      .set({ consumed_at: now })
      .where("channel", "=", req.channel)
      .where("target", "=", req.target)
      .where("purpose", "=", req.purpose)
      .where("consumed_at", "is", null)
      .execute();
    await trx
      .insertInto("otp_challenges")
      .values({
        id,
        purpose: req.purpose,
        channel: req.channel,
        target: req.target,
        code_hash: codeHash(id, code),
        user_id: req.userId ?? null,
        ip: req.ip,
        created_at: now,
        expires_at: new Date(now.getTime() + OTP.ttlMs),
      })
      .execute();
  });
  return code;
}

/**
 * Checks a code and uses it up. Wrong codes count; the fifth wrong one burns the challenge
 * (429). Two requests with the same right code at once: exactly one succeeds.
 */
export async function consumeCode(
  ctx: ApiContext,
  req: { channel: Channel; target: string; purpose: OtpPurpose; code: string },
): Promise<{ userId: number | null }> {
  const now = ctx.now();
  const outcome = await ctx.database.db.transaction().execute(async (trx) => {
    const challenge = await trx
      .selectFrom("otp_challenges")
      .selectAll()
      .where("channel", "=", req.channel)
      .where("target", "=", req.target)
      .where("purpose", "=", req.purpose)
      .where("consumed_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at", "desc")
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!challenge) return { ok: false as const, burned: false };
    if (challenge.attempts >= OTP.maxAttempts)
      return { ok: false as const, burned: true, expiresAt: challenge.expires_at };
    if (challenge.code_hash !== codeHash(challenge.id, req.code)) {
      const attempts = challenge.attempts + 1;
      await trx.updateTable("otp_challenges").set({ attempts }).where("id", "=", challenge.id).execute();
      return { ok: false as const, burned: attempts >= OTP.maxAttempts, expiresAt: challenge.expires_at };
    }
    const used = await trx
      .updateTable("otp_challenges")
      .set({ consumed_at: now })
      .where("id", "=", challenge.id)
      .where("consumed_at", "is", null)
      .executeTakeFirst();
    if (used.numUpdatedRows !== 1n) return { ok: false as const, burned: false };
    return { ok: true as const, userId: challenge.user_id };
  });
  if (outcome.ok) return { userId: outcome.userId };
  if (outcome.burned) {
    const wait = Math.max(1, Math.ceil(((outcome.expiresAt?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
    throw tooManyRequests(wait, "错误次数太多，这个验证码已失效，请重新获取");
  }
  throw invalidCode();
}
