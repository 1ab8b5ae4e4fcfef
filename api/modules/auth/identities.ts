/**
 * Messenger identities (WeChat today) linked to accounts, and the pending link of an identity
 * nobody has yet: a server-side record, 10 minutes, used once, found through an httpOnly cookie.
 * The merge rules are in docs/decisions/005-messenger-binding.md.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { ApiContext } from "../../context";
import type { DB, User } from "../../db/schema";
import { hashToken } from "./sessions";

export const PENDING_IDENTITY_TTL_MS = 10 * 60_000;
/**
 * Pending links live in otp_challenges (a one-time secret with an expiry is exactly what that
 * table keeps): purpose `pending_identity`, the cookie secret's hash as code_hash, the identity
 * as JSON in target. The table's channel check allows sms|email only; "sms" is a placeholder.
 */
const PENDING_PURPOSE = "pending_identity";
const PENDING_TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;
const pendingTarget = z.object({
  provider: z.string(),
  uid: z.string(),
  nickname: z.string().nullable(),
});

export interface Identity {
  provider: string;
  providerUid: string;
  nickname: string | null;
}

export interface PendingIdentity extends Identity {
  id: string;
  expiresAt: Date;
}

type Executor = Kysely<DB> | Transaction<DB>;

export async function findIdentity(ctx: ApiContext, provider: string, providerUid: string) {
  return ctx.database.db
    .selectFrom("identities")
    .selectAll()
    .where("provider", "=", provider)
    .where("provider_uid", "=", providerUid)
    .executeTakeFirst();
}

export async function identityOfUser(ctx: ApiContext, userId: number, provider: string) {
  return ctx.database.db
    .selectFrom("identities")
    .selectAll()
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .executeTakeFirst();
}

/** Whether the account can still log in without its messenger: a phone, or an e-mail with a password. */
export function hasOtherSignIn(user: User): boolean {
  return Boolean(user.phone) || Boolean(user.email && user.password_hash);
}

export type LinkOutcome = "linked" | "already_linked" | "identity_taken" | "account_has_other";

/**
 * Links an identity to an account. Never moves an identity from another account and never
 * replaces the account's existing one of that provider (both are refused).
 */
export async function linkIdentity(db: Executor, userId: number, identity: Identity): Promise<LinkOutcome> {
  const inserted = await db
    .insertInto("identities")
    .values({
      provider: identity.provider,
      provider_uid: identity.providerUid,
      user_id: userId,
      nickname: identity.nickname,
    })
    .onConflict((oc) => oc.doNothing())
    .returning("user_id")
    .executeTakeFirst();
  if (inserted) return "linked";
  const owner = await db
    .selectFrom("identities")
    .select("user_id")
    .where("provider", "=", identity.provider)
    .where("provider_uid", "=", identity.providerUid)
    .executeTakeFirst();
  if (owner?.user_id === userId) return "already_linked";
  return owner ? "identity_taken" : "account_has_other";
}

/** Keeps an identity nobody owns yet; returns the cookie value that finds it again. */
export async function createPendingIdentity(ctx: ApiContext, identity: Identity, ip: string): Promise<string> {
  const id = randomBytes(16).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const now = ctx.now();
  await ctx.database.db
    .insertInto("otp_challenges")
    .values({
      id,
      purpose: PENDING_PURPOSE,
      channel: "sms",
      target: JSON.stringify({ provider: identity.provider, uid: identity.providerUid, nickname: identity.nickname }),
      code_hash: hashToken(secret),
      ip,
      created_at: now,
      expires_at: new Date(now.getTime() + PENDING_IDENTITY_TTL_MS),
    })
    .execute();
  return `${id}.${secret}`;
}

export async function readPendingIdentity(
  ctx: ApiContext,
  token: string | null | undefined,
): Promise<PendingIdentity | null> {
  const match = token ? PENDING_TOKEN.exec(token) : null;
  if (!match) return null;
  const [, id = "", secret = ""] = match;
  const row = await ctx.database.db
    .selectFrom("otp_challenges")
    .selectAll()
    .where("id", "=", id)
    .where("purpose", "=", PENDING_PURPOSE)
    .where("consumed_at", "is", null)
    .where("expires_at", ">", ctx.now())
    .executeTakeFirst();
  if (!row) return null;
  const expected = Buffer.from(row.code_hash, "hex");
  const actual = Buffer.from(hashToken(secret), "hex");
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  let target: z.infer<typeof pendingTarget>;
  try {
    target = pendingTarget.parse(JSON.parse(row.target));
  } catch {
    return null;
  }
  return {
    id,
    provider: target.provider,
    providerUid: target.uid,
    nickname: target.nickname,
    expiresAt: row.expires_at,
  };
}

/** Uses the pending link up (compare-and-set): false when another request already did. */
export async function consumePendingIdentity(db: Executor, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("otp_challenges")
    .set({ consumed_at: now })
    .where("id", "=", id)
    .where("purpose", "=", PENDING_PURPOSE)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
