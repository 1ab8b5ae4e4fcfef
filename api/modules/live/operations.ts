/** The live endpoints as OpenAPI operations (listed in api/openapi.ts `apiOperations`). */
import {
  attendanceBeatSchema,
  attendanceResultSchema,
  bookingResultSchema,
  chatMessageSchema,
  chatPostSchema,
  checkInResultSchema,
  liveDetailSchema,
  liveListSchema,
} from "../../../shared/contracts/live";
import type { ApiOperation } from "../../openapi";

const liveParam = { id: { type: "integer", description: "直播场次编号" } } as const;

export const liveOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/live",
    summary: "直播课表：?tab=today|upcoming|live|ended（今日按北京时间；已结束含回放生成中与可回放）",
    tag: "live",
    auth: false,
    response: liveListSchema,
  },
  {
    method: "get",
    path: "/live/{id}",
    summary: "直播间：场次、老师、状态、观看权限、直播流（直播中且有权限时）、回放链接、预约与签到、在线人数",
    tag: "live",
    auth: false,
    params: liveParam,
    response: liveDetailSchema,
  },
  {
    method: "post",
    path: "/live/{id}/booking",
    summary: "预约（开播时发站内通知）；仅未开始的场次，重复预约无副作用",
    tag: "live",
    auth: true,
    params: liveParam,
    response: bookingResultSchema,
  },
  {
    method: "delete",
    path: "/live/{id}/booking",
    summary: "取消预约；仅未开始的场次",
    tag: "live",
    auth: true,
    params: liveParam,
    response: bookingResultSchema,
  },
  {
    method: "get",
    path: "/live/{id}/events",
    summary:
      "直播间事件流（text/event-stream）：先发最近 50 条聊天（chat，带 id，支持 Last-Event-ID 续传），之后推送新消息、在线人数（online）、状态变化（state）；每 15 秒一次心跳注释",
    tag: "live",
    auth: true,
    params: liveParam,
  },
  {
    method: "post",
    path: "/live/{id}/messages",
    summary: "发言：1–200 字，仅直播中，每人每 10 秒最多 10 条",
    tag: "live",
    auth: true,
    params: liveParam,
    request: chatPostSchema,
    response: chatMessageSchema,
  },
  {
    method: "post",
    path: "/live/{id}/check-in",
    summary: "签到：仅直播中，每场一次（重复签到返回第一次的时间）",
    tag: "live",
    auth: true,
    params: liveParam,
    response: checkInResultSchema,
  },
  {
    method: "post",
    path: "/live/{id}/attendance",
    summary: "观看心跳（页面可见且直播播放时每 60 秒一次）：累计观看时长，满 10 分钟计为出勤",
    tag: "live",
    auth: true,
    params: liveParam,
    request: attendanceBeatSchema,
    response: attendanceResultSchema,
  },
];
