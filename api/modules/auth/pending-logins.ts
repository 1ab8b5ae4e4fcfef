/**
 * A login that waits for its second factor (two-factor login) or for this browser to be
 * confirmed (device protection): no session yet, only an httpOnly cookie naming the pending
 * login, stored as its SHA-256, valid 10 minutes, bound to the browser's device key, used once.
 */
import type { Request, Response } from "express";
import type { ApiContext } from "../../context";
import { ApiError } from "../../http";
import type { User } from "../../db/schema";
import { newToken, presentDeviceKeyHash, readTokenCookie } from "./devices";
import { hashToken } from "./sessions";

export const PENDING_LOGIN_COOKIE = "pending_login";
export const PENDING_LOGIN_MS = 10 * 60_000;

export type PendingPurpose = "device" | "two_factor";

export interface PendingLogin {
  idHash: string;
  userId: number;
  deviceKeyHash: string;
  /** Begun with the password: the session it ends in counts as stepped up. */
  steppedUp: boolean;
}

export const pendingLoginExpired = () => new ApiError(400, "login_expired", "登录已过期，请重新登录");

export async function startPendingLogin(
  ctx: ApiContext,
  res: Response,
  login: { userId: number; deviceKeyHash: string; purpose: PendingPurpose; steppedUp: boolean },
): Promise<void> {
  const now = ctx.now();
  const token = newToken();
  await ctx.database.db.transaction().execute(async (trx) => {
    // Only the latest login of this account on this browser may be confirmed.
    await trx
      .updateTable("pending_logins")
      .set({ consumed_at: now })
      .where("user_id", "=", login.userId)
      .where("device_key_hash", "=", login.deviceKeyHash)
      .where("consumed_at", "is", null)
      .execute();
    await trx
      .deleteFrom("pending_logins")
      .where("user_id", "=", login.userId)
      .where("expires_at", "<", new Date(now.getTime() - 86_400_000))
      .execute();
    await trx
      .insertInto("pending_logins")
      .values({
        id_hash: hashToken(token),
        user_id: login.userId,
        device_key_hash: login.deviceKeyHash,
        purpose: login.purpose,
        stepped_up: login.steppedUp,
        created_at: now,
        expires_at: new Date(now.getTime() + PENDING_LOGIN_MS),
      })
      .execute();
  });
  res.cookie(PENDING_LOGIN_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.settings.cookies.secure,
    path: "/",
    maxAge: PENDING_LOGIN_MS,
  });
}

/**
 * This browser's pending login for `purpose` with its account: still open, made on this very
 * browser (its device key), and its account still there; otherwise 400 `login_expired`.
 */
export async function readPendingLogin(
  ctx: ApiContext,
  req: Request,
  purpose: PendingPurpose,
): Promise<PendingLogin & { user: User }> {
  const token = readTokenCookie(req, PENDING_LOGIN_COOKIE);
  const deviceKeyHash = presentDeviceKeyHash(req);
  if (!token || !deviceKeyHash) throw pendingLoginExpired();
  const row = await ctx.database.db
    .selectFrom("pending_logins")
    .select(["id_hash", "user_id", "device_key_hash", "stepped_up"])
    .where("id_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", ctx.now())
    .executeTakeFirst();
  if (!row || row.device_key_hash !== deviceKeyHash) throw pendingLoginExpired();
  const user = await ctx.database.db.selectFrom("users").selectAll().where("id", "=", row.user_id).executeTakeFirst();
  if (!user) throw pendingLoginExpired();
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    deviceKeyHash: row.device_key_hash,
    steppedUp: row.stepped_up,
    user,
  };
}

/** Uses the pending login up; false when another request already did. */
export async function consumePendingLogin(ctx: ApiContext, idHash: string): Promise<boolean> {
  const result = await ctx.database.db
    .updateTable("pending_logins")
    .set({ consumed_at: ctx.now() })
    .where("id_hash", "=", idHash)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** After a password reset (or a reset of two-factor login) no login begun before may finish. */
export async function cancelPendingLogins(ctx: ApiContext, userId: number): Promise<void> {
  await ctx.database.db
    .updateTable("pending_logins")
    .set({ consumed_at: ctx.now() })
    .where("user_id", "=", userId)
    .where("consumed_at", "is", null)
    .execute();
}

export function clearPendingLoginCookie(ctx: ApiContext, res: Response): void {
  res.clearCookie(PENDING_LOGIN_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.settings.cookies.secure,
    path: "/",
  });
}
