/**
 * Account security: the password, phone and e-mail bindings, device protection, bound devices
 * and signed-in sessions. Every change leaves a notice, so a learner sees what happened to
 * their account even when someone else did it.
 */
import { passwordIdentityProblem } from "../../../shared/contracts/auth";
import type { SessionItem } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { ApiError, notFound } from "../../http";
import { maskAddress } from "../../providers/messages";
import { enforce } from "../../rate-limit";
import { notify } from "../../notices";
import { deviceName } from "../auth/devices";
import { type Channel, consumeCode, invalidCode, issueCode } from "../auth/otp";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { liveSessions, revokeUserSessions } from "../auth/sessions";

const wrongPassword = () => new ApiError(400, "password_incorrect", "当前密码不正确");

export async function changePassword(
  ctx: ApiContext,
  user: User,
  sessionIdHash: string,
  input: { current?: string; password: string },
): Promise<void> {
  const now = ctx.now();
  const problem = passwordIdentityProblem(input.password, { phone: user.phone, email: user.email });
  if (problem) throw new ApiError(400, "invalid_input", problem);
  if (user.password_hash) {
    if (!input.current) throw new ApiError(400, "invalid_input", "请输入当前密码");
    // Guessing the current password from a stolen session is limited per account.
    await enforce(
      ctx.database,
      [
        {
          key: `password:user:${user.id}`,
          max: 10,
          windowSeconds: 3600,
          message: "尝试次数太多，请一小时后再试",
        },
      ],
      now,
    );
    if (!(await verifyPassword(input.current, user.password_hash))) throw wrongPassword();
    if (user.password_change_required && input.password === input.current)
      throw new ApiError(400, "invalid_input", "新密码不能与初始密码相同", [
        { path: "password", message: "新密码不能与初始密码相同" },
      ]);
  }
  const hash = await hashPassword(input.password);
  await ctx.database.db
    .updateTable("users")
    .set({ password_hash: hash, password_change_required: false, updated_at: now })
    .where("id", "=", user.id)
    .execute();
  await revokeUserSessions(ctx.database, user.id, sessionIdHash, now);
  await notify(
    ctx,
    user.id,
    "security",
    user.password_hash ? "登录密码已修改" : "已设置登录密码",
    "其他设备上的登录已全部退出。如果这不是你本人的操作，请立即修改密码并联系客服。",
  );
}

export interface BindTarget {
  channel: Channel;
  column: "phone" | "email";
  label: "手机号" | "邮箱";
}

export const phoneTarget: BindTarget = { channel: "sms", column: "phone", label: "手机号" };
export const emailTarget: BindTarget = { channel: "email", column: "email", label: "邮箱" };

/** Sends a "bind" code to the new address; the code only works for this account. */
export async function sendBindCode(ctx: ApiContext, user: User, target: BindTarget, address: string, ip: string) {
  if (user[target.column] === address) {
    throw new ApiError(400, "same_address", `这就是当前绑定的${target.label}`);
  }
  await enforce(
    ctx.database,
    [
      {
        key: `bind:user:${user.id}`,
        max: 10,
        windowSeconds: 86_400,
        message: "今天获取验证码的次数太多了，请明天再试",
      },
    ],
    ctx.now(),
  );
  const code = await issueCode(ctx, {
    channel: target.channel,
    target: address,
    purpose: "bind",
    ip,
    userId: user.id,
  });
  const site = ctx.settings.siteName;
  await ctx.messenger.send(
    target.channel === "sms"
      ? {
          channel: "sms",
          to: address,
          text: `【${site}】验证码 ${code}，用于绑定手机号，5 分钟内有效。请勿告诉他人；如非本人操作，请忽略本消息。`,
          purpose: "bind",
          code,
        }
      : {
          channel: "email",
          to: address,
          subject: `${site}：绑定邮箱验证码`,
          text: `你正在把这个邮箱绑定到${site}账号，验证码是 ${code}，5 分钟内有效。\n如果不是你本人的操作，请忽略这封邮件。`,
          purpose: "bind",
        },
  );
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === "23505";

/**
 * Binds the address once its code checks out: the code must have been sent to this address
 * for this account. Proving possession comes first, so nobody learns which numbers are taken
 * without owning them.
 */
export async function confirmBind(
  ctx: ApiContext,
  user: User,
  target: BindTarget,
  address: string,
  code: string,
): Promise<void> {
  const { userId } = await consumeCode(ctx, { channel: target.channel, target: address, purpose: "bind", code });
  if (userId !== user.id) throw invalidCode();
  const taken = new ApiError(409, "address_taken", `该${target.label}已绑定其他账号`);
  const { db } = ctx.database;
  const owner = await db.selectFrom("users").select("id").where(target.column, "=", address).executeTakeFirst();
  if (owner && owner.id !== user.id) throw taken;
  try {
    await db
      .updateTable("users")
      .set(target.column === "phone" ? { phone: address } : { email: address })
      .set({ updated_at: ctx.now() })
      .where("id", "=", user.id)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken;
    throw err;
  }
  const previous = user[target.column];
  await notify(
    ctx,
    user.id,
    "security",
    previous ? `${target.label}已更换` : `${target.label}已绑定`,
    `账号现在绑定的${target.label}是 ${maskAddress(address)}。如果这不是你本人的操作，请立即联系客服。`,
  );
}

export async function setDeviceProtection(ctx: ApiContext, user: User, enabled: boolean): Promise<void> {
  await ctx.database.db
    .updateTable("users")
    .set({ device_protection: enabled, updated_at: ctx.now() })
    .where("id", "=", user.id)
    .execute();
  if (enabled !== user.device_protection) {
    await notify(
      ctx,
      user.id,
      "security",
      enabled ? "已开启登录设备保护" : "已关闭登录设备保护",
      enabled ? "以后在新设备上登录时，需要先用验证码确认这台设备。" : "在新设备上登录时将不再需要额外确认。",
    );
  }
}

export async function listDevices(ctx: ApiContext, userId: number, sessionIdHash: string) {
  const { db } = ctx.database;
  const current = await db
    .selectFrom("sessions")
    .select("device_id")
    .where("id_hash", "=", sessionIdHash)
    .executeTakeFirst();
  const rows = await db
    .selectFrom("devices")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("last_seen_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    trusted: d.trusted_at !== null,
    current: current?.device_id === d.id,
    firstSeenAt: d.first_seen_at.toISOString(),
    lastSeenAt: d.last_seen_at.toISOString(),
  }));
}

/** Forgets a bound device and signs out every session that was opened on it. */
export async function removeDevice(ctx: ApiContext, user: User, sessionIdHash: string, deviceId: number) {
  const now = ctx.now();
  const { db } = ctx.database;
  const device = await db
    .selectFrom("devices")
    .select(["id", "name"])
    .where("id", "=", deviceId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!device) throw notFound("设备不存在或已移除");
  const current = await db
    .selectFrom("sessions")
    .select("device_id")
    .where("id_hash", "=", sessionIdHash)
    .executeTakeFirst();
  if (current?.device_id === device.id) {
    throw new ApiError(400, "current_device", "不能移除正在使用的这台设备");
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("sessions")
      .set({ revoked_at: now })
      .where("user_id", "=", user.id)
      .where("device_id", "=", device.id)
      .where("revoked_at", "is", null)
      .execute();
    await trx.deleteFrom("devices").where("id", "=", device.id).where("user_id", "=", user.id).execute();
  });
  await notify(ctx, user.id, "security", "已移除登录设备", `设备「${device.name}」已移除，它上面的登录已退出。`);
}

export const sessionPublicId = (idHash: string) => idHash.slice(0, 16);

/** Sessions that still work: not revoked, not past the absolute or idle limits of the account's role. */
export async function listSessions(
  ctx: ApiContext,
  user: Pick<User, "id" | "role">,
  sessionIdHash: string,
): Promise<SessionItem[]> {
  const rows = await liveSessions(ctx.database.db, user, ctx.now())
    .leftJoin("devices", "devices.id", "sessions.device_id")
    .select([
      "sessions.id_hash",
      "sessions.user_agent",
      "sessions.ip",
      "sessions.created_at",
      "sessions.last_seen_at",
      "devices.name as device_name",
    ])
    .orderBy("sessions.last_seen_at", "desc")
    .execute();
  return rows.map((s) => ({
    id: sessionPublicId(s.id_hash),
    device: s.device_name ?? deviceName(s.user_agent),
    ip: s.ip,
    createdAt: s.created_at.toISOString(),
    lastSeenAt: s.last_seen_at.toISOString(),
    current: s.id_hash === sessionIdHash,
  }));
}

/** Signs out one of the learner's other sessions by its public id. */
export async function revokeSessionByPublicId(
  ctx: ApiContext,
  userId: number,
  sessionIdHash: string,
  publicId: string,
): Promise<void> {
  if (sessionPublicId(sessionIdHash) === publicId) {
    throw new ApiError(400, "current_session", "这是当前登录，请使用“退出登录”");
  }
  const result = await ctx.database.db
    .updateTable("sessions")
    .set({ revoked_at: ctx.now() })
    .where("user_id", "=", userId)
    .where("id_hash", "like", `${publicId}%`)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound("该登录已退出或不存在");
  await notify(ctx, userId, "security", "已退出一处登录", "你在账号与安全中退出了一台设备上的登录。");
}
