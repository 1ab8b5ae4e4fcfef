/**
 * The personal centre (/api/me): profile, avatar, security, devices, sessions and account
 * deletion. Every endpoint needs a session (401 without one).
 */
import type { RequestHandler } from "express";
import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  type AvatarResult,
  avatarResultSchema,
  DELETION_COOLING_DAYS,
  type DeviceList,
  deviceListSchema,
  deletionCodeSendSchema,
  deletionRequestSchema,
  deletionStatusSchema,
  deviceProtectionSchema,
  emailBindSchema,
  emailBindSendSchema,
  meSchema,
  okSchema,
  overviewSchema,
  passwordChangeSchema,
  phoneBindSchema,
  phoneBindSendSchema,
  profilePatchSchema,
  type SessionList,
  sessionListSchema,
  sessionPublicIdSchema,
} from "../../../shared/contracts/me";
import { type CodeSent, codeSentSchema } from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, textParam, type Endpoint } from "../../endpoint";
import { ApiError, clientIp, rawUpload } from "../../http";
import { avatarStorageFor } from "../../providers/storage";
import { enforce } from "../../rate-limit";
import { requireAuth } from "../auth/guard";
import { OTP } from "../auth/otp";
import { unsupportedImage } from "../../images";
import { makeAvatar } from "./avatar";
import { cancelDeletion, requestDeletion, sendDeletionCode } from "./deletion";
import { overviewOf } from "./overview";
import { meOf, updateProfile } from "./profile";
import {
  changePassword,
  confirmBind,
  emailTarget,
  listDevices,
  listSessions,
  phoneTarget,
  removeDevice,
  revokeSessionByPublicId,
  sendBindCode,
  setDeviceProtection,
} from "./security";

/** Avatar uploads per learner per hour (each one decodes an image). */
export const AVATAR_UPLOADS_PER_HOUR = 10;

const ok = { status: "ok" } as const;

const sessionParam = {
  id: textParam(
    (id) => sessionPublicIdSchema.safeParse(id).success,
    "会话的公开编号（16 位十六进制）",
    "该登录已退出或不存在",
  ),
};

export function meEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    ...profileEndpoints(ctx),
    ...contactEndpoints(ctx),
    ...sessionEndpoints(ctx),
    ...overviewAndDeletionEndpoints(ctx),
  ];
}

/** Who is signed in, the profile, the avatar and the password. */
function profileEndpoints(ctx: ApiContext): Endpoint[] {
  // The avatar is the one body that is not JSON: the session is checked and the upload counted
  // before the bytes are read, then they are read whole up to 5 MB (413 beyond).
  const countAvatarUpload: RequestHandler = (req, res, next) => {
    const { user } = requireAuth(req, res);
    enforce(
      ctx.database,
      [
        {
          key: `avatar:user:${user.id}`,
          max: AVATAR_UPLOADS_PER_HOUR,
          windowSeconds: 3600,
          message: "更换头像太频繁了，请稍后再试",
        },
      ],
      ctx.now(),
    ).then(() => next(), next);
  };
  return [
    defineEndpoint({
      method: "get",
      path: "/me",
      summary: "个人资料与计数",
      tag: "me",
      auth: true,
      output: meSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await meOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "patch",
      path: "/me/profile",
      summary: "修改昵称、性别、地区、个人简介",
      tag: "me",
      auth: true,
      input: profilePatchSchema,
      output: meSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        await updateProfile(ctx, user.id, input);
        res.json(await meOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/avatar",
      summary: `上传头像（JPEG/PNG/WebP 原始字节，≤ 5 MB；保存为 256×256 WebP；每小时至多 ${AVATAR_UPLOADS_PER_HOUR} 次）`,
      tag: "me",
      auth: true,
      raw: { binary: AVATAR_TYPES, maxBytes: AVATAR_MAX_BYTES },
      output: avatarResultSchema,
      before: [countAvatarUpload, rawUpload("image", AVATAR_MAX_BYTES)],
      handler: async (req, res, { auth: { user } }) => {
        if (!Buffer.isBuffer(req.body)) throw unsupportedImage();
        if (req.body.length === 0) throw new ApiError(400, "invalid_input", "请选择一张图片");
        const avatar = await makeAvatar(req.body);
        const storage = avatarStorageFor(ctx);
        const avatarUrl = await storage.save(avatar);
        const previous = await ctx.database.db
          .selectFrom("users")
          .select("avatar_url")
          .where("id", "=", user.id)
          .executeTakeFirst();
        await ctx.database.db
          .updateTable("users")
          .set({ avatar_url: avatarUrl, updated_at: ctx.now() })
          .where("id", "=", user.id)
          .execute();
        // One avatar per learner is kept: the replaced one goes.
        if (previous?.avatar_url && previous.avatar_url !== avatarUrl) {
          await storage
            .remove(previous.avatar_url)
            .catch((err: unknown) => req.log?.warn({ err }, "old avatar was not removed"));
        }
        res.json({ avatarUrl } satisfies AvatarResult);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/password",
      summary: "设置或修改登录密码（退出其他登录）",
      tag: "me",
      auth: true,
      input: passwordChangeSchema,
      output: okSchema,
      handler: async (_req, res, { auth, input }) => {
        await changePassword(ctx, auth.user, auth.sessionIdHash, input);
        res.json(ok);
      },
    }),
  ];
}

/** Phone and email, each changed with a code sent to it, and device protection. */
function contactEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/me/phone/send",
      summary: "向新手机号发送绑定验证码",
      tag: "me",
      auth: true,
      input: phoneBindSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { auth: { user }, input: { phone } }) => {
        await sendBindCode(ctx, user, phoneTarget, phone, clientIp(req));
        res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/phone",
      summary: "绑定或更换手机号",
      tag: "me",
      auth: true,
      input: phoneBindSchema,
      output: meSchema,
      handler: async (_req, res, { auth: { user }, input: { phone, code } }) => {
        await confirmBind(ctx, user, phoneTarget, phone, code);
        res.json(await meOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/email/send",
      summary: "向新邮箱发送绑定验证码",
      tag: "me",
      auth: true,
      input: emailBindSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { auth: { user }, input: { email } }) => {
        await sendBindCode(ctx, user, emailTarget, email, clientIp(req));
        res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/email",
      summary: "绑定或更换邮箱",
      tag: "me",
      auth: true,
      input: emailBindSchema,
      output: meSchema,
      handler: async (_req, res, { auth: { user }, input: { email, code } }) => {
        await confirmBind(ctx, user, emailTarget, email, code);
        res.json(await meOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/device-protection",
      summary: "开启或关闭登录设备保护",
      tag: "me",
      auth: true,
      input: deviceProtectionSchema,
      output: meSchema,
      handler: async (_req, res, { auth: { user }, input: { enabled } }) => {
        await setDeviceProtection(ctx, user, enabled);
        res.json(await meOf(ctx, user.id));
      },
    }),
  ];
}

/** Bound devices and the places this account is signed in. */
function sessionEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/me/devices",
      summary: "已绑定的登录设备",
      tag: "me",
      auth: true,
      output: deviceListSchema,
      handler: async (_req, res, { auth }) => {
        res.json({ items: await listDevices(ctx, auth.user.id, auth.sessionIdHash) } satisfies DeviceList);
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/me/devices/{id}",
      summary: "移除设备并退出它上面的登录",
      tag: "me",
      auth: true,
      params: { id: idParam("设备编号") },
      output: okSchema,
      handler: async (req, res, { auth, params }) => {
        await removeDevice(ctx, auth.user, auth.sessionIdHash, params.id);
        res.json(ok);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/me/sessions",
      summary: "正在登录的会话（标出当前会话）",
      tag: "me",
      auth: true,
      output: sessionListSchema,
      handler: async (_req, res, { auth }) => {
        res.json({ items: await listSessions(ctx, auth.user, auth.sessionIdHash) } satisfies SessionList);
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/me/sessions/{id}",
      summary: "退出一处其他登录",
      tag: "me",
      auth: true,
      params: sessionParam,
      output: okSchema,
      handler: async (req, res, { auth, params }) => {
        await revokeSessionByPublicId(ctx, auth.user.id, auth.sessionIdHash, params.id);
        res.json(ok);
      },
    }),
  ];
}

/** The overview of 我的, and deleting the account (with a cooling-off period). */
function overviewAndDeletionEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/me/overview",
      summary: "个人中心概览：今日签到、待交作业、下一场直播、近 8 周每周学习时长",
      tag: "me",
      auth: true,
      output: overviewSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await overviewOf(ctx.database, user.id, ctx.now()));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/deletion/code",
      summary: "向绑定的手机号或邮箱发送注销验证码",
      tag: "me",
      auth: true,
      input: deletionCodeSendSchema,
      output: codeSentSchema,
      handler: async (req, res, { auth: { user }, input: { channel } }) => {
        await sendDeletionCode(ctx, user, channel, clientIp(req));
        res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/deletion",
      summary: `申请注销账号（验证绑定手机号或邮箱的验证码；${DELETION_COOLING_DAYS} 天冷静期，期间账号冻结）`,
      tag: "me",
      auth: true,
      input: deletionRequestSchema,
      output: deletionStatusSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.json(await requestDeletion(ctx, user, input));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/me/deletion/cancel",
      summary: "撤销注销申请",
      tag: "me",
      auth: true,
      output: deletionStatusSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await cancelDeletion(ctx, user.id));
      },
    }),
  ];
}
