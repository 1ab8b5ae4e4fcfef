/**
 * Browsers as devices. A long-lived random cookie `did` names this browser; the database keeps
 * only its SHA-256 per account, with a readable name from the user agent and, once confirmed
 * by a code (device protection), the time it became trusted.
 */
import { randomBytes } from "node:crypto";
import Bowser from "bowser";
import { parse as parseCookies } from "cookie";
import type { Request, Response } from "express";
import type { ApiContext } from "../../context";
import { hashToken } from "./sessions";

export const DEVICE_COOKIE = "did";
const DEVICE_COOKIE_MS = 365 * 86_400_000;

/** A 256-bit random token from one of our cookies, or null when absent or malformed. */
export function readTokenCookie(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const value = parseCookies(header)[name];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

export const newToken = () => randomBytes(32).toString("base64url");

/** The hash of this browser's device key; a browser without one gets a new key (a cookie). */
export function deviceKeyHash(ctx: ApiContext, req: Request, res: Response): string {
  const known = res.locals.deviceKeyHash;
  if (known) return known;
  let key = readTokenCookie(req, DEVICE_COOKIE);
  if (!key) {
    key = newToken();
    res.cookie(DEVICE_COOKIE, key, {
      httpOnly: true,
      sameSite: "lax",
      secure: ctx.settings.cookies.secure,
      path: "/",
      maxAge: DEVICE_COOKIE_MS,
    });
  }
  // Asked twice in one request (a login that creates the cookie): the same key both times.
  const hash = hashToken(key);
  res.locals.deviceKeyHash = hash;
  return hash;
}

/** The hash of this browser's device key when it has one (never creates a key). */
export function presentDeviceKeyHash(req: Request): string | null {
  const key = readTokenCookie(req, DEVICE_COOKIE);
  return key ? hashToken(key) : null;
}

/** "Chrome 156 · Windows": what the learner sees in notices and the device list. */
export function deviceName(userAgent: string | undefined): string {
  if (!userAgent) return "未知设备";
  const { browser, os } = Bowser.parse(userAgent.slice(0, 500));
  const browserName = [browser.name, browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const name = [browserName, os.name].filter(Boolean).join(" · ");
  return name ? name.slice(0, 100) : "未知设备";
}

export async function findDevice(ctx: ApiContext, userId: number, keyHash: string) {
  return ctx.database.db
    .selectFrom("devices")
    .selectAll()
    .where("user_id", "=", userId)
    .where("device_key_hash", "=", keyHash)
    .executeTakeFirst();
}

/** Records a login from this browser (trusting it when `trust`); returns its id. */
export async function recordDevice(
  ctx: ApiContext,
  device: { userId: number; keyHash: string; name: string; trust: boolean },
): Promise<number> {
  const now = ctx.now();
  const row = await ctx.database.db
    .insertInto("devices")
    .values({
      user_id: device.userId,
      device_key_hash: device.keyHash,
      name: device.name,
      trusted_at: device.trust ? now : null,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(["user_id", "device_key_hash"])
        .doUpdateSet(device.trust ? { last_seen_at: now, name: device.name, trusted_at: now } : { last_seen_at: now }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function hasDevices(ctx: ApiContext, userId: number): Promise<boolean> {
  const row = await ctx.database.db
    .selectFrom("devices")
    .select("id")
    .where("user_id", "=", userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
