/**
 * Activities (/activitys/{token}) and trial-class sign-ups (/experience).
 *
 *   GET  /api/activities?kind=          every activity (of a kind), current ones first
 *   GET  /api/activities/:token         one activity's landing content
 *   GET  /api/activities/:token/qr.svg  QR code of the landing page, for the share page
 *   POST /api/activities/experience     sign up for a free trial class
 *   GET  /api/activities/experience/me  what the form can fill in for the signed-in learner
 *   GET  /api/activities/mine           the signed-in learner's activities (sign-ups, check-ins)
 *   GET  /api/activities/:token/me      the viewer's part in an activity and what they can do
 *   POST /api/activities/:token/signup  报名 (idempotent); DELETE cancels
 *   POST /api/activities/:token/check-ins  打卡 (once per China day, added to the practice diary)
 */
import {
  activityCheckInSchema,
  activityDetailSchema,
  activityListQuerySchema,
  activityListSchema,
  checkInResultSchema,
  myActivitiesSchema,
  participationResultSchema,
  participationSchema,
  trialPrefillSchema,
  trialSignupResultSchema,
  trialSignupSchema,
} from "../../../shared/contracts/activities";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context";
import { defineEndpoint, textParam, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { clientIp, notFound, publicJson } from "../../http";
import { qrCodeSvg } from "../../qr-code";
import { enforce } from "../../rate-limit";
import { activityDetail, activityExists, listActivities } from "./activities";
import { ACTIVITY_NOT_FOUND, cancelSignup, checkIn, myActivities, participation, signUp } from "./participation";
import { signUpForTrial, trialPrefill } from "./trial-signups";

/** Sign-ups a single address may send in an hour (a family signs up two or three children). */
export const TRIAL_SIGNUPS_PER_HOUR = 5;

const activityToken = {
  token: textParam(
    (token) => paramRules.token.safeParse(token).success,
    "活动口令（6–64 位字母、数字、- 或 _）",
    ACTIVITY_NOT_FOUND,
  ),
};

export function activitiesEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/activities",
      summary: "活动列表（?kind=bmyx|daycourse|reading|travel_note|general），进行中的在前",
      tag: "activities",
      auth: false,
      query: activityListQuerySchema,
      output: activityListSchema,
      handler: async (_req, res, { query: { kind } }) => {
        const items = await listActivities(ctx.database, kind, ctx.now());
        publicJson(res, { items });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/activities/experience",
      summary: "报名免费体验课（同一手机号同一课程只能报名一次：409；每个 IP 每小时 5 次）",
      tag: "activities",
      auth: false,
      input: trialSignupSchema,
      output: trialSignupResultSchema,
      handler: async (req, res, { auth, input }) => {
        if (auth) refuseWhileFrozen(auth.user, "报名");
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
        const result = await signUpForTrial(ctx.database, input, auth?.user.id ?? null, now);
        res.status(201).json(result);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/activities/experience/me",
      summary: "体验课表单可预填的称呼、手机号和已报名的课程",
      tag: "activities",
      auth: true,
      output: trialPrefillSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await trialPrefill(ctx.database, user));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/activities/mine",
      summary: "我的活动：报名的活动、报名状态与打卡天数",
      tag: "activities",
      auth: true,
      output: myActivitiesSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await myActivities(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/activities/{token}/me",
      summary: "当前访客在活动中的情况：报名状态、打卡日期、能否报名/打卡/提交临写作业（未登录也可调用）",
      tag: "activities",
      auth: false,
      params: activityToken,
      output: participationSchema,
      handler: async (req, res, { auth, params: { token } }) => {
        res.setHeader("Cache-Control", "private, no-store");
        res.json(await participation(ctx, auth?.user ?? null, token));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/activities/{token}/signup",
      summary: "报名活动（重复报名不变：200；新报名：201；名额已满或已结束：409；注销冷静期：403）",
      tag: "activities",
      auth: true,
      params: activityToken,
      output: participationResultSchema,
      handler: async (req, res, { auth: { user }, params: { token } }) => {
        const result = await signUp(ctx, user, token);
        res.status(result.created ? 201 : 200).json({ participation: result.participation, message: result.message });
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/activities/{token}/signup",
      summary: "取消报名（重复取消不变；活动结束后不能取消：409）",
      tag: "activities",
      auth: true,
      params: activityToken,
      output: participationResultSchema,
      handler: async (req, res, { auth: { user }, params: { token } }) => {
        res.json(await cancelSignup(ctx, user, token));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/activities/{token}/check-ins",
      summary: "活动打卡：报名后活动期间每个自然日（北京时间）一次，练习时长和字记入当天的练字日记",
      tag: "activities",
      auth: true,
      params: activityToken,
      input: activityCheckInSchema,
      output: checkInResultSchema,
      handler: async (req, res, { auth: { user }, input, params: { token } }) => {
        res.status(201).json(await checkIn(ctx, user, token, input));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/activities/{token}/qr.svg",
      summary: "活动页地址的二维码（SVG）",
      tag: "activities",
      auth: false,
      params: activityToken,
      produces: "image/svg+xml",
      handler: async (req, res, { params: { token } }) => {
        if (!(await activityExists(ctx.database, token))) throw notFound(ACTIVITY_NOT_FOUND);
        const svg = await qrCodeSvg(`${ctx.settings.publicOrigin}/activitys/${token}`);
        res.setHeader("Cache-Control", "public, max-age=3600");
        res.type("image/svg+xml").send(svg);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/activities/{token}",
      summary: "活动详情：时间、状态、正文与关联课程",
      tag: "activities",
      auth: false,
      params: activityToken,
      output: activityDetailSchema,
      handler: async (req, res, { params }) => {
        const activity = await activityDetail(ctx.database, params.token, ctx.now(), ctx.settings.publicOrigin);
        if (!activity) throw notFound(ACTIVITY_NOT_FOUND);
        publicJson(res, activity);
      },
    }),
  ];
}
