/**
 * Account deletion per the deletion agreement (/deletion-agreement): identity is confirmed with
 * a code sent to the account's bound phone or e-mail; the request then freezes the account (no
 * paying, exchanging, earning or booking: api/account-freeze.ts) for a 15-day cooling-off period in which the learner may withdraw it; afterwards
 * `eraseDueAccounts` (run hourly) erases the personal data and leaves an anonymous row, so
 * orders kept by law still point somewhere.
 */
import type { DeletionChannel, DeletionStatus } from "../../../shared/contracts/me";
import { DELETION_COOLING_DAYS } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { ApiError } from "../../http";
import { enforce } from "../../rate-limit";
import { consumeCode, invalidCode, issueCode, OTP } from "../auth/otp";
import type { JobDefinition } from "../../jobs/registry";
import { avatarStorageFor } from "../../providers/storage";
import { notify } from "../../notices";
import { deletionDueAt } from "./profile";

const COOLING_MS = DELETION_COOLING_DAYS * 86_400_000;
export const ERASED_NICKNAME = "已注销用户";

function statusOf(requestedAt: Date | null): DeletionStatus {
  return requestedAt
    ? {
        status: "deleting",
        deletionRequestedAt: requestedAt.toISOString(),
        deletionDueAt: deletionDueAt(requestedAt).toISOString(),
      }
    : { status: "active", deletionRequestedAt: null, deletionDueAt: null };
}

/** The bound address a deletion code goes to, or a 400 saying that channel is not bound. */
function boundAddress(user: User, channel: DeletionChannel): string {
  const address = channel === "sms" ? user.phone : user.email;
  if (!address) throw new ApiError(400, "not_bound", channel === "sms" ? "账号没有绑定手机号" : "账号没有绑定邮箱");
  return address;
}

/**
 * Sends a deletion code to the account's own bound phone or e-mail: the login-code limits
 * (cooldown, daily caps per address and IP) plus 5 deletion codes per account a day.
 */
export async function sendDeletionCode(ctx: ApiContext, user: User, channel: DeletionChannel, ip: string) {
  if (user.status !== "active") throw new ApiError(409, "deletion_pending", "注销申请已经提交过了");
  const to = boundAddress(user, channel);
  await enforce(
    ctx.database,
    [
      {
        key: `deletion:user:${user.id}`,
        max: 5,
        windowSeconds: 86_400,
        message: "今天获取验证码的次数太多了，请明天再试",
      },
    ],
    ctx.now(),
  );
  const code = await issueCode(ctx, { channel, target: to, purpose: "deletion", ip, userId: user.id });
  const site = ctx.settings.siteName;
  const minutes = OTP.ttlMs / 60_000;
  const text = `【${site}】验证码 ${code}，用于申请注销账号，${minutes} 分钟内有效。如非本人操作，请立即修改密码并联系客服。`;
  await ctx.messenger.send(
    channel === "sms"
      ? { channel: "sms", to, text, purpose: "deletion", code }
      : { channel: "email", to, subject: `${site}：注销账号验证码`, text, purpose: "deletion" },
  );
}

export async function requestDeletion(
  ctx: ApiContext,
  user: User,
  input: { channel: DeletionChannel; code: string },
): Promise<DeletionStatus> {
  const userId = user.id;
  if (user.status !== "active") throw new ApiError(409, "deletion_pending", "注销申请已经提交过了");
  const target = boundAddress(user, input.channel);
  const used = await consumeCode(ctx, { channel: input.channel, target, purpose: "deletion", code: input.code });
  if (used.userId !== userId) throw invalidCode();
  const now = ctx.now();
  const updated = await ctx.database.db
    .updateTable("users")
    .set({ status: "deleting", deletion_requested_at: now, updated_at: now })
    .where("id", "=", userId)
    .where("status", "=", "active")
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new ApiError(409, "deletion_pending", "注销申请已经提交过了");
  await notify(
    ctx,
    userId,
    "security",
    "已提交注销申请",
    `账号将在 ${DELETION_COOLING_DAYS} 天冷静期结束后注销。冷静期内可以在“账号与安全”中撤销申请。`,
  );
  return statusOf(now);
}

export async function cancelDeletion(ctx: ApiContext, userId: number): Promise<DeletionStatus> {
  const now = ctx.now();
  const updated = await ctx.database.db
    .updateTable("users")
    .set({ status: "active", deletion_requested_at: null, updated_at: now })
    .where("id", "=", userId)
    .where("status", "=", "deleting")
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw new ApiError(409, "no_deletion", "没有待撤销的注销申请");
  await notify(ctx, userId, "security", "已撤销注销申请", "账号已恢复正常，所有数据保持原样。");
  return statusOf(null);
}

/**
 * Erases every account whose cooling-off period has ended. Safe to run on several nodes at
 * once and again after a crash: each account is claimed by a conditional update, so a request
 * withdrawn a moment earlier is never erased and no account is erased twice.
 */
export async function eraseDueAccounts(ctx: ApiContext, now: Date = ctx.now()): Promise<number> {
  const cutoff = new Date(now.getTime() - COOLING_MS);
  const { db } = ctx.database;
  const due = await db
    .selectFrom("users")
    .select("id")
    .where("status", "=", "deleting")
    .where("deletion_requested_at", "<=", cutoff)
    .execute();
  let erased = 0;
  for (const { id } of due) {
    const avatarUrl = await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom("users")
        .select("avatar_url")
        .where("id", "=", id)
        .where("status", "=", "deleting")
        .where("deletion_requested_at", "<=", cutoff)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return undefined;
      await trx
        .updateTable("users")
        .set({
          status: "deleted",
          phone: null,
          email: null,
          password_hash: null,
          nickname: ERASED_NICKNAME,
          avatar_url: null,
          gender: null,
          region: null,
          intro: null,
          device_protection: false,
          updated_at: now,
        })
        .where("id", "=", id)
        .execute();
      await trx
        .updateTable("sessions")
        .set({ revoked_at: now })
        .where("user_id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      await trx.deleteFrom("identities").where("user_id", "=", id).execute();
      await trx.deleteFrom("devices").where("user_id", "=", id).execute();
      await trx.deleteFrom("totp_factors").where("user_id", "=", id).execute();
      await trx.deleteFrom("recovery_codes").where("user_id", "=", id).execute();
      await trx.deleteFrom("otp_challenges").where("user_id", "=", id).execute();
      await trx.deleteFrom("qr_tickets").where("user_id", "=", id).execute();
      await trx.deleteFrom("notifications").where("user_id", "=", id).execute();
      await trx.updateTable("feedback").set({ user_id: null, contact: null }).where("user_id", "=", id).execute();
      return before.avatar_url;
    });
    if (avatarUrl === undefined) continue;
    erased++;
    if (avatarUrl) {
      await avatarStorageFor(ctx)
        .remove(avatarUrl)
        .catch((err: unknown) => ctx.logger.warn({ err, userId: id }, "erased account's avatar was not removed"));
    }
  }
  if (erased > 0) ctx.logger.info({ erased }, "accounts erased after the cooling-off period");
  return erased;
}

/** Accounts past their 15-day cooling-off period are erased hourly (the deletion agreement). */
export const accountErasureJob: JobDefinition = { name: "account-erasure", everyMs: 3_600_000, run: eraseDueAccounts };
