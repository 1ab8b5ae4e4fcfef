/** The learner's profile as the personal centre shows it, and the four fields they may edit. */
import { DELETION_COOLING_DAYS, type Me, type Profile, type ProfilePatch } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { maskAddress } from "../../providers/messages";
import { unreadCount } from "../notices/notices";

const DAY_MS = 86_400_000;

export function deletionDueAt(requestedAt: Date): Date {
  return new Date(requestedAt.getTime() + DELETION_COOLING_DAYS * DAY_MS);
}

export function profileOf(user: User): Profile {
  const requested = user.status === "deleting" ? user.deletion_requested_at : null;
  return {
    id: user.id,
    nickname: user.nickname,
    avatarUrl: user.avatar_url,
    gender: user.gender,
    region: user.region,
    intro: user.intro,
    phone: user.phone ? maskAddress(user.phone) : null,
    email: user.email ? maskAddress(user.email) : null,
    hasPassword: user.password_hash !== null,
    deviceProtection: user.device_protection,
    status: user.status === "deleting" ? "deleting" : "active",
    deletionRequestedAt: requested ? requested.toISOString() : null,
    deletionDueAt: requested ? deletionDueAt(requested).toISOString() : null,
    createdAt: user.created_at.toISOString(),
  };
}

export async function meOf(ctx: ApiContext, userId: number): Promise<Me> {
  const { db } = ctx.database;
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  return { profile: profileOf(user), counts: { unreadNotices: await unreadCount(ctx, userId) } };
}

/** Writes only the fields named in the (already validated) patch; empty region or intro clear it. */
export async function updateProfile(ctx: ApiContext, userId: number, patch: ProfilePatch): Promise<void> {
  const values: { nickname?: string; gender?: User["gender"]; region?: string | null; intro?: string | null } = {};
  if (patch.nickname !== undefined) values.nickname = patch.nickname;
  if (patch.gender !== undefined) values.gender = patch.gender;
  if (patch.region !== undefined) values.region = patch.region || null;
  if (patch.intro !== undefined) values.intro = patch.intro || null;
  await ctx.database.db
    .updateTable("users")
    .set({ ...values, updated_at: ctx.now() })
    .where("id", "=", userId)
    .execute();
}
