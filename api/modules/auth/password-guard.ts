/**
 * Limits on password guessing that a stranger cannot turn against the owner (ASVS 6.1.1/6.3.1,
 * decision 071). Failures slow down the source that makes them, never the account as a whole:
 * - a source is the browser when it is one this account has signed in on (its device cookie),
 *   else the client IP; the owner's own browser is a source of its own even behind an
 *   attacker's NAT;
 * - per account and source, 5 failed tries per 15 minutes: that source is refused for that
 *   account, the owner from a clean source is not;
 * - per client IP, 30 failed tries per 15 minutes across all accounts (spraying);
 * - while an account has 20 failures in the window (tries from many addresses), each source
 *   gets one failed try on it, so a botnet gains one guess per address, the owner still gets in;
 * - only failures count: a try is counted as it comes in (so tries sent at once are counted
 *   each) and given back when it is refused or the password was right;
 * - code login is never limited by any of these;
 * - the owner hears of it (a notice and an e-mail) once per 15 minutes, at the 10th failure.
 * Unknown addresses are counted alike, so the answers do not tell them apart.
 */
import type { Request } from "express";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { clientIp, tooManyRequests } from "../../http";
import { count, hit, type Limit, unhit } from "../../rate-limit";
import { notify } from "../../notices";
import { dispatch } from "./code-delivery";
import { findDevice, presentDeviceKeyHash } from "./devices";

export const PASSWORD_LIMITS = {
  windowSeconds: 15 * 60,
  perSourceOnAccount: 5,
  perIp: 30,
  accountUnderAttack: 20,
  perSourceUnderAttack: 1,
  tellOwnerAt: 10,
} as const;

const windowSeconds = PASSWORD_LIMITS.windowSeconds;
const failuresOf = (account: string): Limit => ({
  key: `login:password:failures:${account}`,
  max: PASSWORD_LIMITS.accountUnderAttack,
  windowSeconds,
});

/** One admitted try: what it counted, to be kept (a failure) or given back (a success). */
export interface PasswordTry {
  account: string;
  at: Date;
  pair: Limit;
  /** Absent for the account's own browsers: they are not spraying. */
  ip: Limit | null;
}

/**
 * Counts a password try on `account` from this request's source before the password is
 * checked; throws 429 (the try given back) when this source must wait. Atomic counters, so
 * tries sent at once are counted each.
 */
export async function admitPasswordTry(
  ctx: ApiContext,
  req: Request,
  account: string,
  user: User | undefined,
): Promise<PasswordTry> {
  const at = ctx.now();
  const ip = clientIp(req);
  const device = presentDeviceKeyHash(req);
  // Looked up whether or not the address has an account, so the time taken does not tell.
  const ownBrowser = device !== null && (await findDevice(ctx, user?.id ?? 0, device)) !== undefined;
  const source = ownBrowser ? `device:${device}` : `ip:${ip}`;
  const underAttack = (await count(ctx.database, failuresOf(account), at)) >= PASSWORD_LIMITS.accountUnderAttack;
  const pair: Limit = {
    key: `login:password:pair:${account}:${source}`,
    max: underAttack ? PASSWORD_LIMITS.perSourceUnderAttack : PASSWORD_LIMITS.perSourceOnAccount,
    windowSeconds,
  };
  const counted = await hit(ctx.database, pair, at);
  if (!counted.allowed) {
    await unhit(ctx.database, pair, at);
    throw tooManyRequests(
      counted.retryAfter,
      underAttack
        ? "这个账号最近密码错误次数太多，请稍后再试，或用验证码登录"
        : `密码错误次数太多，请 ${Math.ceil(counted.retryAfter / 60)} 分钟后再试，或用验证码登录`,
    );
  }
  if (ownBrowser) return { account, at, pair, ip: null };
  const fromIp: Limit = { key: `login:password:ip:${ip}`, max: PASSWORD_LIMITS.perIp, windowSeconds };
  const ipCounted = await hit(ctx.database, fromIp, at);
  if (!ipCounted.allowed) {
    await unhit(ctx.database, fromIp, at);
    await unhit(ctx.database, pair, at);
    throw tooManyRequests(ipCounted.retryAfter, "登录尝试太频繁，请稍后再试，或用验证码登录");
  }
  return { account, at, pair, ip: fromIp };
}

/** A wrong password: the try stays counted, counts against the account, and tells its owner once per window. */
export async function passwordFailed(ctx: ApiContext, attempt: PasswordTry, user: User | undefined): Promise<void> {
  const { count: failures } = await hit(ctx.database, failuresOf(attempt.account), ctx.now());
  // Exactly one failure takes the counter to this number in a window: one notice per window.
  if (!user || failures !== PASSWORD_LIMITS.tellOwnerAt) return;
  const minutes = windowSeconds / 60;
  const text = `你的账号在 ${minutes} 分钟内出现多次密码错误的登录尝试。如果不是你本人，建议尽快修改密码；用验证码登录不受影响。`;
  await notify(ctx, user.id, "security", "账号安全提醒：多次密码错误", text);
  if (user.email)
    dispatch(ctx, {
      channel: "email",
      to: user.email,
      purpose: "security",
      subject: `${ctx.settings.siteName}账号安全提醒`,
      text: `【${ctx.settings.siteName}】${text}`,
    });
}

/** The right password: the try is given back, and this source's earlier misses on the account no longer count. */
export async function passwordSucceeded(ctx: ApiContext, attempt: PasswordTry): Promise<void> {
  await ctx.database.db.deleteFrom("rate_limits").where("key", "=", attempt.pair.key).execute();
  if (attempt.ip) await unhit(ctx.database, attempt.ip, attempt.at);
}
