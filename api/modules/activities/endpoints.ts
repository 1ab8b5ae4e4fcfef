/**
 * Activities (/activitys/{token}) and trial-class sign-ups (/experience).
 *
 *   GET  /api/activities?kind=          every activity (of a kind), current ones first
 *   GET  /api/activities/:token         one activity's landing content
 *   GET  /api/activities/:token/qr.svg  QR code of the landing page, for the share page
 *   POST /api/activities/experience     sign up for a free trial class
 *   GET  /api/activities/experience/me  what the form can fill in for the signed-in learner
 */
import express, { type Router } from "express";
import QRCode from "qrcode";
import { activityListQuerySchema, trialSignupSchema } from "../../../shared/contracts/activities";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context";
import { clientIp, handler, notFound, parseInput, publicJson } from "../../http";
import { enforce } from "../../rate-limit";
import { authOf, requireAuth } from "../auth/guard";
import { activityDetail, activityExists, listActivities } from "./activities";
import { signUpForTrial, trialPrefill } from "./trial-signups";

/** Sign-ups a single address may send in an hour (a family signs up two or three children). */
export const TRIAL_SIGNUPS_PER_HOUR = 5;

function tokenParam(value: unknown): string | null {
  return typeof value === "string" && paramRules.token.safeParse(value).success ? value : null;
}

export function createActivitiesRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.get(
    "/",
    handler(async (req, res) => {
      const { kind } = parseInput(activityListQuerySchema, req.query);
      const items = await listActivities(ctx.database, kind, ctx.now());
      publicJson(res, { items });
    }),
  );

  router.post(
    "/experience",
    handler(async (req, res) => {
      const input = parseInput(trialSignupSchema, req.body);
      const now = ctx.now();
      await enforce(
        ctx.database,
        [
          {
            key: `trial-signup:ip:${clientIp(req)}`,
            max: TRIAL_SIGNUPS_PER_HOUR,
            windowSeconds: 3600,
            message: "报名次数太多了，请一小时后再试，或拨打客服电话报名",
          },
        ],
        now,
      );
      const result = await signUpForTrial(ctx.database, input, authOf(res)?.user.id ?? null, now);
      res.status(201).json(result);
    }),
  );

  router.get(
    "/experience/me",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await trialPrefill(ctx.database, user));
    }),
  );

  router.get(
    "/:token/qr.svg",
    handler(async (req, res) => {
      const token = tokenParam(req.params.token);
      if (!token || !(await activityExists(ctx.database, token))) throw notFound("活动不存在或已下线");
      const svg = await QRCode.toString(`${ctx.settings.publicOrigin}/activitys/${token}`, {
        type: "svg",
        margin: 1,
        errorCorrectionLevel: "M",
        color: { dark: "#222222", light: "#fffdf8" },
      });
      res.setHeader("Cache-Control", "public, max-age=3600");
      res.type("image/svg+xml").send(svg);
    }),
  );

  router.get(
    "/:token",
    handler(async (req, res) => {
      const token = tokenParam(req.params.token);
      const activity = token ? await activityDetail(ctx.database, token, ctx.now(), ctx.settings.publicOrigin) : null;
      if (!activity) throw notFound("活动不存在或已下线");
      publicJson(res, activity);
    }),
  );

  return router;
}
