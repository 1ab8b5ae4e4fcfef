/**
 * The end of every login panel (phone, e-mail, code, registration, scan, WeChat): check the
 * account may sign in, then hold the login for the second factor when the account has two-factor
 * login (POST /auth/two-factor/verify continues it), then either start a session on this browser
 * or — for an account with device protection on a browser it has not trusted — hold the login
 * until a code confirms the browser. A session begun with the password or an app code counts as
 * stepped up (decision 072).
 */
import type { Request, Response } from "express";
import type { LoginResult } from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { ApiError } from "../../http";
import { maskAddress } from "../../providers/messages";
import { canSignIn, needsInfo, startSession } from "./accounts";
import { notify } from "../../notices";
import { deviceKeyHash, deviceName, findDevice, hasDevices, recordDevice } from "./devices";
import { authOf } from "./guard";
import type { Channel } from "./otp";
import { startPendingLogin } from "./pending-logins";
import { revokeSession } from "./sessions";
import { twoFactorEnabled } from "./two-factor";

export const accountDisabled = () => new ApiError(403, "account_disabled", "该账号已停用，请联系客服");

/** Where a new browser's confirmation code goes: the bound phone, else the bound e-mail. */
export function verificationTarget(user: User): { channel: Channel; to: string } | null {
  if (user.phone) return { channel: "sms", to: user.phone };
  if (user.email) return { channel: "email", to: user.email };
  return null;
}

/** How the first step of a login was proved: the password, or a code, a scan, WeChat. */
export type FirstFactor = "password" | "other";

export async function completeLogin(
  ctx: ApiContext,
  req: Request,
  res: Response,
  user: User,
  first: FirstFactor = "other",
): Promise<LoginResult> {
  if (!canSignIn(user)) throw accountDisabled();
  const keyHash = deviceKeyHash(ctx, req, res);
  const steppedUp = first === "password";
  if (await twoFactorEnabled(ctx.database.db, user.id)) {
    await startPendingLogin(ctx, res, { userId: user.id, deviceKeyHash: keyHash, purpose: "two_factor", steppedUp });
    return { status: "two_factor" };
  }
  return confirmDevice(ctx, req, res, user, { keyHash, steppedUp });
}

/** After the factors: a new browser of an account with device protection waits for its code. */
export async function confirmDevice(
  ctx: ApiContext,
  req: Request,
  res: Response,
  user: User,
  login: { keyHash: string; steppedUp: boolean },
): Promise<LoginResult> {
  const { keyHash, steppedUp } = login;
  const device = await findDevice(ctx, user.id, keyHash);
  if (user.device_protection && !device?.trusted_at) {
    const target = verificationTarget(user);
    // Fail closed: protection is on but there is nowhere to send a code.
    if (!target) throw new ApiError(403, "device_unverifiable", "无法验证新设备，请联系客服");
    await startPendingLogin(ctx, res, { userId: user.id, deviceKeyHash: keyHash, purpose: "device", steppedUp });
    return { status: "device_verification", channel: target.channel, maskedTarget: maskAddress(target.to) };
  }
  // A brand-new account's first browser is not news to anyone.
  const announce = !device && (await hasDevices(ctx, user.id));
  return signIn(ctx, req, res, user, { keyHash, trust: false, announce, steppedUp });
}

/**
 * A fresh session on this browser, recorded as the account's device. The session the browser
 * came with (if any) ends: a login never keeps or reuses an earlier id.
 */
export async function signIn(
  ctx: ApiContext,
  req: Request,
  res: Response,
  user: User,
  options: { keyHash: string; trust: boolean; announce: boolean; steppedUp: boolean },
): Promise<LoginResult> {
  const name = deviceName(req.get("user-agent"));
  const deviceId = await recordDevice(ctx, { userId: user.id, keyHash: options.keyHash, name, trust: options.trust });
  const previous = authOf(res);
  if (previous) await revokeSession(ctx.database, previous.sessionIdHash, ctx.now());
  await startSession(ctx, req, res, user, { deviceId, steppedUp: options.steppedUp });
  if (options.announce) await notify(ctx, user.id, "security", "新设备登录", name);
  return { status: "ok", next: needsInfo(user) ? "complete_info" : null };
}
