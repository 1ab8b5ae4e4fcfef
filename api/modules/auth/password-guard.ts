/**
 * Limits on password guessing that a stranger cannot turn against the owner (ASVS 6.1.1/6.3.1):
 * - per account and client IP together, 5 failed tries per 15 minutes: that pair is refused, the
 *   owner elsewhere is not;
 * - per client IP, 30 tries per 15 minutes across all accounts (spraying);
 * - per account across all IPs, after 20 failures in 15 minutes password tries slow to one a
 *   minute for everyone (a botnet gains little; the owner is slowed, never locked out);
 * - code login is never limited by any of these;
 * - the owner hears of it (a notice and an e-mail) once per 15 minutes, at the 10th failure.
 * Unknown addresses are counted alike, so the answers do not tell them apart.
 */
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { tooManyRequests } from "../../http";
import { count, hit, secondsLeft } from "../../rate-limit";
import { notify } from "../../notices";
import { dispatch } from "./code-delivery";

export const PASSWORD_LIMITS = {
  windowSeconds: 15 * 60,
  perAccountAndIp: 5,
  perIp: 30,
  perAccount: 20,
  slowedEverySeconds: 60,
  tellOwnerAt: 10,
} as const;

const window = PASSWORD_LIMITS.windowSeconds;
const keys = (account: string, ip: string) => ({
  pair: `login:password:pair:${account}:${ip}`,
  ip: `login:password:ip:${ip}`,
  failures: `login:password:failures:${account}`,
  slowed: `login:password:slowed:${account}`,
});

/**
 * Counts a password try from `ip` on `account` before it is checked; throws 429 when this client
 * (or, past the ceiling, anyone) must wait. Atomic counters, so tries sent at once count each.
 */
export async function admitPasswordTry(ctx: ApiContext, account: string, ip: string): Promise<void> {
  const now = ctx.now();
  const k = keys(account, ip);
  const pair = await hit(
    ctx.database,
    { key: k.pair, max: PASSWORD_LIMITS.perAccountAndIp, windowSeconds: window },
    now,
  );
  if (!pair.allowed)
    throw tooManyRequests(
      pair.retryAfter,
      `密码错误次数太多，请 ${Math.ceil(pair.retryAfter / 60)} 分钟后再试，或用验证码登录`,
    );
  const fromIp = await hit(ctx.database, { key: k.ip, max: PASSWORD_LIMITS.perIp, windowSeconds: window }, now);
  if (!fromIp.allowed) throw tooManyRequests(fromIp.retryAfter, "登录尝试太频繁，请稍后再试，或用验证码登录");
  if ((await count(ctx.database, { key: k.failures, windowSeconds: window }, now)) >= PASSWORD_LIMITS.perAccount) {
    const slowed = { key: k.slowed, max: 1, windowSeconds: PASSWORD_LIMITS.slowedEverySeconds };
    if (!(await hit(ctx.database, slowed, now)).allowed)
      throw tooManyRequests(secondsLeft(slowed, now), "这个账号最近密码错误次数太多，请稍后再试，或用验证码登录");
  }
}

/** A wrong password: counts against the account, and tells its owner once per window. */
export async function passwordFailed(ctx: ApiContext, account: string, user: User | undefined): Promise<void> {
  const now = ctx.now();
  const { count: failures } = await hit(
    ctx.database,
    { key: keys(account, "").failures, max: PASSWORD_LIMITS.perAccount, windowSeconds: window },
    now,
  );
  // Exactly one failure takes the counter to this number in a window: one notice per window.
  if (!user || failures !== PASSWORD_LIMITS.tellOwnerAt) return;
  const minutes = window / 60;
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

/** The right password from this client: its earlier misses there no longer count. */
export async function passwordSucceeded(ctx: ApiContext, account: string, ip: string): Promise<void> {
  await ctx.database.db.deleteFrom("rate_limits").where("key", "=", keys(account, ip).pair).execute();
}
