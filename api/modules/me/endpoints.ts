/**
 * The personal centre (/api/me): profile, avatar, security, devices, sessions and account
 * deletion. Every endpoint needs a session (401 without one).
 */
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  type AvatarResult,
  type DeviceList,
  type SessionList,
  deletionRequestSchema,
  deviceProtectionSchema,
  emailBindSchema,
  emailBindSendSchema,
  passwordChangeSchema,
  phoneBindSchema,
  phoneBindSendSchema,
  profilePatchSchema,
  sessionPublicIdSchema,
} from "../../../shared/contracts/me";
import type { CodeSent } from "../../../shared/contracts/auth";
import type { ApiContext } from "../../context";
import { ApiError, clientIp, handler, notFound, parseInput } from "../../http";
import { avatarStorageFor } from "../../providers/storage";
import { enforce } from "../../rate-limit";
import { requireAuth } from "../auth/guard";
import { OTP } from "../auth/otp";
import { makeAvatar, unsupportedImage } from "./avatar";
import { cancelDeletion, requestDeletion } from "./deletion";
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

function positiveId(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw notFound();
  return Number(value);
}

export function createMeRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.get(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await meOf(ctx, user.id));
    }),
  );

  router.patch(
    "/profile",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const patch = parseInput(profilePatchSchema, req.body);
      await updateProfile(ctx, user.id, patch);
      res.json(await meOf(ctx, user.id));
    }),
  );

  // The one route with a body that is not JSON: checked for a session and counted before the
  // bytes are read, then read whole up to 5 MB (413 beyond).
  router.post(
    "/avatar",
    (req: Request, res: Response, next: NextFunction) => {
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
    },
    express.raw({ type: [...AVATAR_TYPES], limit: AVATAR_MAX_BYTES }),
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
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
    }),
  );

  router.post(
    "/password",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      const input = parseInput(passwordChangeSchema, req.body);
      await changePassword(ctx, auth.user, auth.sessionIdHash, input);
      res.json(ok);
    }),
  );

  router.post(
    "/phone/send",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { phone } = parseInput(phoneBindSendSchema, req.body);
      await sendBindCode(ctx, user, phoneTarget, phone, clientIp(req));
      res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
    }),
  );

  router.post(
    "/phone",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { phone, code } = parseInput(phoneBindSchema, req.body);
      await confirmBind(ctx, user, phoneTarget, phone, code);
      res.json(await meOf(ctx, user.id));
    }),
  );

  router.post(
    "/email/send",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { email } = parseInput(emailBindSendSchema, req.body);
      await sendBindCode(ctx, user, emailTarget, email, clientIp(req));
      res.json({ status: "sent", cooldownSeconds: OTP.cooldownSeconds } satisfies CodeSent);
    }),
  );

  router.post(
    "/email",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { email, code } = parseInput(emailBindSchema, req.body);
      await confirmBind(ctx, user, emailTarget, email, code);
      res.json(await meOf(ctx, user.id));
    }),
  );

  router.post(
    "/device-protection",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { enabled } = parseInput(deviceProtectionSchema, req.body);
      await setDeviceProtection(ctx, user, enabled);
      res.json(await meOf(ctx, user.id));
    }),
  );

  router.get(
    "/devices",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      res.json({ items: await listDevices(ctx, auth.user.id, auth.sessionIdHash) } satisfies DeviceList);
    }),
  );

  router.delete(
    "/devices/:id",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      await removeDevice(ctx, auth.user, auth.sessionIdHash, positiveId(req.params.id as string | undefined));
      res.json(ok);
    }),
  );

  router.get(
    "/sessions",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      res.json({ items: await listSessions(ctx, auth.user.id, auth.sessionIdHash) } satisfies SessionList);
    }),
  );

  router.delete(
    "/sessions/:id",
    handler(async (req, res) => {
      const auth = requireAuth(req, res);
      const parsed = sessionPublicIdSchema.safeParse(req.params.id);
      if (!parsed.success) throw notFound("该登录已退出或不存在");
      await revokeSessionByPublicId(ctx, auth.user.id, auth.sessionIdHash, parsed.data);
      res.json(ok);
    }),
  );

  router.post(
    "/deletion",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      parseInput(deletionRequestSchema, req.body);
      res.json(await requestDeletion(ctx, user.id));
    }),
  );

  router.post(
    "/deletion/cancel",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await cancelDeletion(ctx, user.id));
    }),
  );

  return router;
}
