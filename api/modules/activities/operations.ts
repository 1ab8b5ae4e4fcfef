/** The activities' endpoints as the OpenAPI description lists them (api/openapi.ts). */
import {
  activityDetailSchema,
  activityListSchema,
  trialPrefillSchema,
  trialSignupResultSchema,
  trialSignupSchema,
} from "../../../shared/contracts/activities";
import type { ApiOperation } from "../../openapi";

const tokenParam = { token: { type: "string", description: "活动口令（6–64 位字母、数字、- 或 _）" } } as const;

export const activitiesOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/activities",
    summary: "活动列表（?kind=bmyx|daycourse|reading|travel_note|general），进行中的在前",
    tag: "activities",
    auth: false,
    response: activityListSchema,
  },
  {
    method: "get",
    path: "/activities/{token}",
    summary: "活动详情：时间、状态、正文与关联课程",
    tag: "activities",
    auth: false,
    params: tokenParam,
    response: activityDetailSchema,
  },
  {
    method: "get",
    path: "/activities/{token}/qr.svg",
    summary: "活动页地址的二维码（SVG）",
    tag: "activities",
    auth: false,
    params: tokenParam,
  },
  {
    method: "post",
    path: "/activities/experience",
    summary: "报名免费体验课（同一手机号同一课程只能报名一次：409；每个 IP 每小时 5 次）",
    tag: "activities",
    auth: false,
    request: trialSignupSchema,
    response: trialSignupResultSchema,
  },
  {
    method: "get",
    path: "/activities/experience/me",
    summary: "体验课表单可预填的称呼、手机号和已报名的课程",
    tag: "activities",
    auth: true,
    response: trialPrefillSchema,
  },
];
