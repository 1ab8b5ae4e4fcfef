/**
 * Two-factor login (decision 072): an authenticator app's secret per account and ten recovery
 * codes. A secret is set up first and counts only once a code from the app matched it; a code's
 * time step is recorded when it is taken, so the same code (or an older one) never works twice,
 * not even by two requests at once. Recovery codes are stored as scrypt hashes and used once.
 *
 * The secret itself is stored as it is: the site has no key to encrypt secrets with, so a copy of
 * the database gives the secrets away (the decision record says what that means).
 */
import { randomInt } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import {
  RECOVERY_ALPHABET,
  RECOVERY_CODE_COUNT,
  type TwoFactorStatus,
  isRecoveryCode,
  isTotpCode,
} from "../../../shared/contracts/two-factor";
import type { ApiContext } from "../../context";
import type { DB, User } from "../../db/schema";
import { ApiError } from "../../http";
import { notify } from "../../notices";
import { type Limit, enforce } from "../../rate-limit";
import { hashPassword, verifyPassword } from "./passwords";
import { totpStep } from "./totp";

type Db = Kysely<DB> | Transaction<DB>;

/** Code checks (app codes and recovery codes alike), counted before each check. */
export const TWO_FACTOR_LIMITS = {
  /** One login's second step: then the login is over, the password must be given again. */
  perLogin: 5,
  /** One account, across its logins and its own settings. */
  perAccount: 10,
  windowSeconds: 15 * 60,
} as const;

const tooMany = "验证码错误次数太多，请 15 分钟后再试";

/** The limit of code checks on one account (the login's own limit comes on top). */
export function accountCodeLimit(userId: number): Limit {
  return {
    key: `two-factor:user:${userId}`,
    max: TWO_FACTOR_LIMITS.perAccount,
    windowSeconds: TWO_FACTOR_LIMITS.windowSeconds,
    message: tooMany,
  };
}

export function loginCodeLimit(pendingIdHash: string): Limit {
  return {
    key: `two-factor:login:${pendingIdHash}`,
    max: TWO_FACTOR_LIMITS.perLogin,
    windowSeconds: TWO_FACTOR_LIMITS.windowSeconds,
    message: "验证码错误次数太多，请重新登录",
  };
}

export const wrongCode = () => new ApiError(400, "two_factor_invalid", "验证码不正确，请看验证器上最新的 6 位数字");
const usedCode = () => new ApiError(400, "two_factor_reused", "这个验证码已经用过了，请等验证器显示下一个验证码");
const wrongRecoveryCode = () => new ApiError(400, "two_factor_invalid", "恢复码不正确或已经用过");

export async function twoFactorEnabled(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("totp_factors")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** An operator of the `pro` site without two-factor login: turning it on comes before anything else. */
export async function mustEnrolTwoFactor(ctx: ApiContext, user: User): Promise<boolean> {
  if (!ctx.settings.operatorsNeedTwoFactor || user.role !== "operator") return false;
  return !(await twoFactorEnabled(ctx.database.db, user.id));
}

export async function twoFactorStatus(ctx: ApiContext, user: User): Promise<TwoFactorStatus> {
  const { db } = ctx.database;
  const factor = await db
    .selectFrom("totp_factors")
    .select("confirmed_at")
    .where("user_id", "=", user.id)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();
  const left = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", user.id)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return {
    enabled: factor !== undefined,
    required: ctx.settings.operatorsNeedTwoFactor && user.role === "operator",
    enabledAt: factor?.confirmed_at?.toISOString() ?? null,
    recoveryCodesLeft: factor ? Number(left.n) : 0,
  };
}

/** Takes an app code for the account's confirmed secret: right, and of a step not used before. */
async function takeTotpCode(ctx: ApiContext, userId: number, code: string): Promise<void> {
  const factor = await ctx.database.db
    .selectFrom("totp_factors")
    .select("secret")
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .executeTakeFirst();
  if (!factor) throw wrongCode();
  const step = totpStep(factor.secret, code, ctx.now());
  if (step === null) throw wrongCode();
  // Compare-and-set: of two requests with the same code only one moves the step on.
  const taken = await ctx.database.db
    .updateTable("totp_factors")
    .set({ last_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
    .executeTakeFirst();
  if (taken.numUpdatedRows !== 1n) throw usedCode();
}

/** Uses up one of the account's recovery codes; throws when none matches. */
async function takeRecoveryCode(ctx: ApiContext, userId: number, code: string): Promise<void> {
  const unused = await ctx.database.db
    .selectFrom("recovery_codes")
    .select(["id", "code_hash"])
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
  const matches = await Promise.all(unused.map((row) => verifyPassword(code, row.code_hash)));
  const match = unused.find((_, i) => matches[i]);
  if (!match) throw wrongRecoveryCode();
  const used = await ctx.database.db
    .updateTable("recovery_codes")
    .set({ used_at: ctx.now() })
    .where("id", "=", match.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (used.numUpdatedRows !== 1n) throw wrongRecoveryCode();
}

/**
 * Checks a second factor of the account (counted against its limit first): an app code, or a
 * recovery code where `recovery` allows one. Says which it was.
 */
export async function takeSecondFactor(
  ctx: ApiContext,
  userId: number,
  code: string,
  options: { recovery: boolean; limits?: Limit[] },
): Promise<"totp" | "recovery"> {
  await enforce(ctx.database, [...(options.limits ?? []), accountCodeLimit(userId)], ctx.now());
  if (isTotpCode(code)) {
    await takeTotpCode(ctx, userId, code);
    return "totp";
  }
  if (options.recovery && isRecoveryCode(code)) {
    await takeRecoveryCode(ctx, userId, code);
    return "recovery";
  }
  throw wrongCode();
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function recoveryCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A new set of recovery codes in place of the old ones; the codes themselves are returned only now. */
export async function renewRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  const hashes = await Promise.all(codes.map((code) => hashPassword(code.replace("-", ""))));
  await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  await db
    .insertInto("recovery_codes")
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
  return codes;
}

/** Removes the account's secret and recovery codes; true when it had two-factor login. */
export async function removeTwoFactor(db: Db, userId: number): Promise<boolean> {
  const removed = await db
    .deleteFrom("totp_factors")
    .where("user_id", "=", userId)
    .returning("confirmed_at")
    .executeTakeFirst();
  await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  return Boolean(removed?.confirmed_at);
}

/**
 * Turns off someone's two-factor login for them (their phone was lost: an operator in the
 * console, or the `user:reset-2fa` command): the secret and recovery codes go, logins waiting
 * for a code end, and the owner is told. False when it was not on.
 */
export async function resetTwoFactor(db: Db, userId: number, now: Date): Promise<boolean> {
  if (!(await removeTwoFactor(db, userId))) return false;
  await db
    .updateTable("pending_logins")
    .set({ consumed_at: now })
    .where("user_id", "=", userId)
    .where("consumed_at", "is", null)
    .execute();
  await notify(
    db,
    userId,
    "security",
    "两步验证已被重置",
    "你的两步验证已由运营人员关闭。登录后请在“账号与安全”里重新开启；如果这不是你请求的，请立即联系客服。",
    now,
  );
  return true;
}
