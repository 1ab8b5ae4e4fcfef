/**
 * Server-side sessions: an opaque random id (256 bits) in an httpOnly cookie, stored only as
 * its SHA-256. Idle and absolute expiry, shorter for staff; revocable one by one, all but this
 * one, or all. An unknown, tampered, expired or revoked cookie is simply anonymous. A session
 * remembers when it last proved the password or a two-factor code (step-up, decision 072).
 */
import { createHash, randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { parse as parseCookies } from "cookie";
import type { CookieSettings } from "../../context";
import type { Database } from "../../db/database";
import type { Kysely } from "kysely";
import type { DB, User } from "../../db/schema";
import type { Auth } from "../../request-auth";

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
  /** last_seen is written at most this often per session: idle expiry is exact to this much. */
  touchEveryMs: number;
}

export const SESSION_IDLE_MS = 14 * 86_400_000;
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
/** How long a proved password or two-factor code lets a session make guarded changes. */
export const STEP_UP_MS = 10 * 60_000;
const LEARNER_SESSION: SessionLimits = {
  idleMs: SESSION_IDLE_MS,
  absoluteMs: SESSION_ABSOLUTE_MS,
  touchEveryMs: 5 * 60_000,
};
/** Teachers and operators (ASVS 7.3.1/7.3.2 for accounts that can change others' data and money). */
const STAFF_SESSION: SessionLimits = { idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000, touchEveryMs: 60_000 };

/**
 * The limits of a session by the account's role now, not at sign-in: a learner made operator
 * keeps a session only as long as a staff one would have lasted.
 */
export const sessionLimits = (role: User["role"]): SessionLimits =>
  role === "teacher" || role === "operator" ? STAFF_SESSION : LEARNER_SESSION;

/** Whether a session started at `createdAt` and last seen at `lastSeenAt` has outlived its limits. */
function sessionOutlived(limits: SessionLimits, createdAt: Date, lastSeenAt: Date, now: Date): boolean {
  return (
    createdAt.getTime() + limits.absoluteMs <= now.getTime() || lastSeenAt.getTime() + limits.idleMs <= now.getTime()
  );
}

/** A user's sessions that still work at `now`: not revoked, within the limits of the account's role. */
export function liveSessions(db: Kysely<DB>, user: Pick<User, "id" | "role">, now: Date) {
  const limits = sessionLimits(user.role);
  return db
    .selectFrom("sessions")
    .where("sessions.user_id", "=", user.id)
    .where("sessions.revoked_at", "is", null)
    .where("sessions.expires_at", ">", now)
    .where("sessions.created_at", ">", new Date(now.getTime() - limits.absoluteMs))
    .where("sessions.last_seen_at", ">", new Date(now.getTime() - limits.idleMs));
}

export function sessionCookieName(settings: CookieSettings): string {
  return settings.secure ? "__Host-sid" : "sid";
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function readSessionToken(req: Request, settings: CookieSettings): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const value = parseCookies(header)[sessionCookieName(settings)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** `maxAgeMs`: the absolute limit of the account's sessions (sessionLimits). */
export function setSessionCookie(res: Response, token: string, settings: CookieSettings, maxAgeMs: number) {
  res.cookie(sessionCookieName(settings), token, {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.secure,
    path: "/",
    maxAge: maxAgeMs,
  });
}

export function clearSessionCookie(res: Response, settings: CookieSettings) {
  res.clearCookie(sessionCookieName(settings), { httpOnly: true, sameSite: "lax", secure: settings.secure, path: "/" });
}

export interface SessionInfo {
  idHash: string;
  user: User;
  /** Proved the password or a two-factor code within STEP_UP_MS of the time it was read. */
  steppedUp: boolean;
}

/** The request's session as endpoints see it. */
export const sessionAuth = (info: SessionInfo): Auth => ({
  user: info.user,
  sessionIdHash: info.idHash,
  steppedUp: info.steppedUp,
});

export async function createSession(
  database: Database,
  userId: number,
  meta: { userAgent: string; ip: string; deviceId?: number | null; steppedUp?: boolean },
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await database.db
    .insertInto("sessions")
    .values({
      id_hash: hashToken(token),
      user_id: userId,
      device_id: meta.deviceId ?? null,
      user_agent: meta.userAgent.slice(0, 300),
      ip: meta.ip,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      stepped_up_at: meta.steppedUp ? now : null,
    })
    .execute();
  return token;
}

export async function readSession(
  database: Database,
  token: string | null,
  now = new Date(),
): Promise<SessionInfo | null> {
  if (!token) return null;
  const idHash = hashToken(token);
  const row = await database.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select([
      "sessions.created_at as session_created",
      "sessions.last_seen_at as session_last_seen",
      "sessions.expires_at as session_expires",
      "sessions.revoked_at as session_revoked",
      "sessions.stepped_up_at as session_stepped_up",
    ])
    .where("sessions.id_hash", "=", idHash)
    .executeTakeFirst();
  if (!row || row.session_revoked) return null;
  if (row.session_expires.getTime() <= now.getTime()) return null;
  const limits = sessionLimits(row.role);
  if (sessionOutlived(limits, row.session_created, row.session_last_seen, now)) return null;
  if (row.status !== "active" && row.status !== "deleting") return null;
  if (now.getTime() - row.session_last_seen.getTime() > limits.touchEveryMs) {
    await database.db.updateTable("sessions").set({ last_seen_at: now }).where("id_hash", "=", idHash).execute();
  }
  const {
    session_created: _a,
    session_last_seen: _b,
    session_expires: _c,
    session_revoked: _d,
    session_stepped_up: steppedUpAt,
    ...user
  } = row;
  return { idHash, user, steppedUp: steppedUpAt !== null && now.getTime() - steppedUpAt.getTime() < STEP_UP_MS };
}

export async function revokeSession(database: Database, idHash: string, now = new Date()) {
  await database.db
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("id_hash", "=", idHash)
    .where("revoked_at", "is", null)
    .execute();
}

export async function revokeUserSessions(database: Database, userId: number, exceptIdHash?: string, now = new Date()) {
  let q = database.db
    .updateTable("sessions")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (exceptIdHash) q = q.where("id_hash", "!=", exceptIdHash);
  await q.execute();
}

/** The session has just proved its password or a two-factor code. */
export async function stampStepUp(database: Database, idHash: string, now = new Date()): Promise<void> {
  await database.db.updateTable("sessions").set({ stepped_up_at: now }).where("id_hash", "=", idHash).execute();
}
