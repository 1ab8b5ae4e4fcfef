/** Finding and creating accounts, and what the header knows of the signed-in learner. */
import type { Request, Response } from "express";
import type { Viewer } from "../../../shared/contracts/viewer";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { clientIp } from "../../http";
import { createSession, sessionLimits, setSessionCookie } from "./sessions";
import { mustEnrolTwoFactor } from "./two-factor";

export function defaultNickname(seed: string): string {
  return `墨友${seed.slice(-4)}`;
}

/** The account of a phone number, created on first login. */
export async function userForPhone(ctx: ApiContext, phone: string): Promise<{ user: User; created: boolean }> {
  const { db } = ctx.database;
  const existing = await db.selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirst();
  if (existing) return { user: existing, created: false };
  const inserted = await db
    .insertInto("users")
    .values({ phone, nickname: defaultNickname(phone) })
    .onConflict((oc) => oc.column("phone").doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { user: inserted, created: true };
  // Created by a concurrent first login with the same number.
  return {
    user: await db.selectFrom("users").selectAll().where("phone", "=", phone).executeTakeFirstOrThrow(),
    created: false,
  };
}

export function canSignIn(user: User): boolean {
  return user.status === "active" || user.status === "deleting";
}

export async function viewerOf(ctx: ApiContext, user: User): Promise<Viewer> {
  const unread = await ctx.database.db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", user.id)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return {
    id: user.id,
    nickname: user.nickname,
    avatarUrl: user.avatar_url,
    unreadNotices: Number(unread.n),
    role: user.role,
    ...(user.password_change_required ? { passwordChangeRequired: true } : {}),
    ...((await mustEnrolTwoFactor(ctx, user)) ? { twoFactorRequired: true } : {}),
  };
}

/** Whether the dialog should go on to "complete info" after this login. */
export function needsInfo(user: User): boolean {
  return !user.info_completed_at && !user.info_skipped_at;
}

/** A fresh session for this browser (never the id it came with: no fixation). */
export async function startSession(
  ctx: ApiContext,
  req: Request,
  res: Response,
  user: User,
  session: { deviceId: number | null; steppedUp: boolean },
) {
  const token = await createSession(
    ctx.database,
    user.id,
    { userAgent: req.get("user-agent") ?? "", ip: clientIp(req), ...session },
    ctx.now(),
  );
  setSessionCookie(res, token, ctx.settings.cookies, sessionLimits(user.role).absoluteMs);
}
