/**
 * 意见反馈 (POST /api/feedback, signed in or not; rate-limited per client address and per
 * account) and the operator's inbox (/api/admin/feedback: list, mark handled, reply).
 */
import {
  FEEDBACK_PER_HOUR,
  FEEDBACK_THANKS,
  feedbackHandleSchema,
  feedbackInputSchema,
  feedbackListQuery,
  feedbackPageSchema,
  feedbackReplySchema,
  feedbackResultSchema,
  feedbackRowSchema,
} from "../../../shared/contracts/feedback";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { clientIp } from "../../http";
import { enforce } from "../../rate-limit";
import { feedbackById, listFeedback, markFeedback, replyToFeedback, submitFeedback } from "./feedback";

const TOO_MANY = "反馈提交太频繁，请一小时后再试";
const feedbackId = { id: idParam("反馈编号", "反馈不存在") };

export function feedbackEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/feedback",
      summary: `提交意见反馈（类型、内容 5–500 字、选填联系方式；每个地址和每个账号每小时最多 ${FEEDBACK_PER_HOUR} 条）`,
      tag: "feedback",
      auth: false,
      input: feedbackInputSchema,
      output: feedbackResultSchema,
      handler: async (req, res, { auth, input }) => {
        const now = ctx.now();
        await enforce(
          ctx.database,
          [
            { key: `feedback:ip:${clientIp(req)}`, max: FEEDBACK_PER_HOUR, windowSeconds: 3600, message: TOO_MANY },
            ...(auth
              ? [
                  {
                    key: `feedback:user:${auth.user.id}`,
                    max: FEEDBACK_PER_HOUR,
                    windowSeconds: 3600,
                    message: TOO_MANY,
                  },
                ]
              : []),
          ],
          now,
        );
        const id = await submitFeedback(ctx, auth?.user.id ?? null, input);
        res.status(201).json({ id, message: FEEDBACK_THANKS });
      },
    }),
  ];
}

export function feedbackAdminEndpoints(ctx: ApiContext): Endpoint[] {
  const common = { tag: "admin", auth: true, role: "operator" } as const;
  return [
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/feedback",
      summary: "运营：意见反馈收件箱（默认待处理；按类型筛选、按内容或联系方式搜索）",
      query: feedbackListQuery,
      output: feedbackPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listFeedback(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/feedback/{id}",
      summary: "运营：一条意见反馈",
      params: feedbackId,
      output: feedbackRowSchema,
      handler: async (req, res, { params }) => {
        res.json(await feedbackById(ctx, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/feedback/{id}/reply",
      summary: "运营：回复意见反馈（标记为已处理；登录时提交的，学员会收到站内通知）",
      params: feedbackId,
      input: feedbackReplySchema,
      output: feedbackRowSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await replyToFeedback(ctx, user.id, params.id, input.reply));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/feedback/{id}/handled",
      summary: "运营：标记意见反馈已处理（handled: false 重新打开）",
      params: feedbackId,
      input: feedbackHandleSchema,
      output: feedbackRowSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await markFeedback(ctx, user.id, params.id, input.handled));
      },
    }),
  ];
}
