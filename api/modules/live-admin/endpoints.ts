/** Live sessions for operators (/api/admin/live…) and for the teacher of each (/api/teach/live…). */
import { z } from "zod";
import {
  adminLivePageSchema,
  adminLiveSchema,
  chatLogSchema,
  liveCancelSchema,
  liveCreateSchema,
  liveListQuerySchema,
  liveMoveSchema,
  livePatchSchema,
  muteInputSchema,
  pinInputSchema,
  recordingInputSchema,
  teachLiveListSchema,
} from "../../../shared/contracts/admin-live";
import { chinaDay } from "../../../shared/china-time";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { notFound } from "../../http";
import { likeOf, pageOfAliased } from "../catalogue-admin/common";
import { attachRecording, cancelLive, createLive, liveRowOf, liveRows, loadLive, updateLive } from "./sessions";
import { chatLog, hideMessage, muteLearner, pinMessage, unmuteLearner } from "./chat-moderation";

const empty = z.object({}).strict();
const liveParams = { id: idParam("直播场次编号") };
const muteResultSchema = z.object({ mutedUntil: z.string() });

export function adminLiveEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const base = { tag: "admin", auth: true, role: "operator" } as const;
  const json = async (id: number) => {
    const { teacherUserId: _t, ...live } = await loadLive(ctx, id);
    return live;
  };

  return [
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/live",
      summary: "直播排期：按标题、老师搜索，按状态、日期筛选，服务端排序分页",
      query: liveListQuerySchema,
      output: adminLivePageSchema,
      handler: async (_req, res, { query }) => {
        let q = liveRows(db());
        if (query.state) q = q.where("s.state", "=", query.state);
        if (query.from) q = q.where("s.starts_at", ">=", chinaDay(new Date(`${query.from}T12:00:00+08:00`)).start);
        if (query.q) {
          const like = likeOf(query.q);
          q = q.where((eb) => eb.or([eb("s.title", "ilike", like), eb("t.name", "ilike", like)]));
        }
        const page = await pageOfAliased(q, query, {
          sortable: { id: "s.id", title: "s.title", startsAt: "s.starts_at", state: "s.state" },
          defaultSort: "startsAt",
          tieBreak: "s.id",
        });
        const now = ctx.now();
        res.json({ ...page, rows: page.rows.map((r) => liveRowOf(r, now)) });
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/live",
      summary: "排一场直播（生成推流密钥）",
      input: liveCreateSchema,
      output: adminLiveSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        const id = await createLive(ctx, user.id, input);
        res.status(201).json(await json(id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/live/{id}",
      summary: "直播详情：推流地址与密钥、回放、置顶消息、会被通知的学员数",
      params: liveParams,
      output: adminLiveSchema,
      handler: async (_req, res, { params }) => {
        res.json(await json(params.id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/live/{id}",
      summary: "修改直播：标题、简介、课程、老师；改时间（未开始时）会通知预约和报名的学员",
      params: liveParams,
      input: livePatchSchema,
      output: adminLiveSchema,
      handler: async (req, res, { auth: { user }, input, params: { id } }) => {
        await updateLive(ctx, user.id, id, input);
        res.json(await json(id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/live/{id}/cancel",
      summary: "取消直播（须写原因；通知预约和报名的学员，直播间随之关闭）",
      params: liveParams,
      input: liveCancelSchema,
      output: adminLiveSchema,
      handler: async (req, res, { auth: { user }, input, params: { id } }) => {
        await cancelLive(ctx, user.id, id, input.reason);
        res.json(await json(id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "put",
      path: "/admin/live/{id}/recording",
      summary: "挂上录像作为回放，附章节标记（直播结束后）",
      params: liveParams,
      input: recordingInputSchema,
      output: adminLiveSchema,
      handler: async (req, res, { auth: { user }, input, params: { id } }) => {
        await attachRecording(ctx, user.id, id, input);
        res.json(await json(id));
      },
    }),
    ...roomModeration(ctx, "/admin/live", base, true),
  ];
}

/** The chat moderation endpoints of a room, for operators (any room) or teachers (their own). */
function roomModeration(
  ctx: ApiContext,
  prefix: string,
  base: { tag: string; auth: true; role: "operator" | "teacher" },
  operator: boolean,
): Endpoint[] {
  const room = async (id: number, user: User) => {
    const live = await loadLive(ctx, id);
    if (!operator && user.role !== "operator" && live.teacherUserId !== user.id) throw notFound("这场直播不存在");
    return id;
  };
  const endpoints: Endpoint[] = [
    defineEndpoint({
      ...base,
      method: "get",
      path: `${prefix}/{id}/chat`,
      summary: "直播间聊天记录（最近 200 条，含已隐藏的，标出正在禁言的学员）",
      params: liveParams,
      output: chatLogSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json({ messages: await chatLog(ctx, await room(params.id, user)) });
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: `${prefix}/{id}/mutes`,
      summary: "在这个直播间禁言一位学员一段时间",
      params: liveParams,
      input: muteInputSchema,
      output: muteResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const id = await room(params.id, user);
        const until = await muteLearner(ctx, user.id, id, input.userId, input.minutes);
        res.json({ mutedUntil: until.toISOString() });
      },
    }),
    defineEndpoint({
      ...base,
      method: "delete",
      path: `${prefix}/{id}/mutes/{userId}`,
      summary: "解除禁言",
      params: { ...liveParams, userId: idParam("学员编号") },
      output: z.object({ status: z.literal("ok") }),
      handler: async (req, res, { auth: { user }, params }) => {
        const id = await room(params.id, user);
        await unmuteLearner(ctx, user.id, id, params.userId);
        res.json({ status: "ok" });
      },
    }),
    defineEndpoint({
      ...base,
      method: "put",
      path: `${prefix}/{id}/pin`,
      summary: "置顶一条消息（null 取消置顶），观众立即看到",
      params: liveParams,
      input: pinInputSchema,
      output: z.object({ pinnedMessage: z.string().nullable() }),
      handler: async (req, res, { auth: { user }, input, params }) => {
        const id = await room(params.id, user);
        await pinMessage(ctx, user.id, id, input.message);
        res.json({ pinnedMessage: input.message || null });
      },
    }),
  ];
  if (operator) {
    endpoints.push(
      defineEndpoint({
        ...base,
        method: "post",
        path: `${prefix}/{id}/chat/{messageId}/hide`,
        summary: "隐藏一条聊天消息（观众那里随即消失）",
        params: { ...liveParams, messageId: idParam("消息编号") },
        input: empty,
        output: z.object({ status: z.literal("ok") }),
        handler: async (req, res, { auth: { user }, params }) => {
          const id = await room(params.id, user);
          await hideMessage(ctx, user.id, id, params.messageId);
          res.json({ status: "ok" });
        },
      }),
    );
  }
  return endpoints;
}

/** The teacher's own sessions (operators see every session of the last week and after). */
export function teachLiveEndpoints(ctx: ApiContext): Endpoint[] {
  const base = { tag: "teach", auth: true, role: "teacher" } as const;
  const own = async (id: number, user: User) => {
    const live = await loadLive(ctx, id);
    if (user.role !== "operator" && live.teacherUserId !== user.id) throw notFound("这场直播不存在");
    const { teacherUserId: _t, ...rest } = live;
    return rest;
  };
  return [
    defineEndpoint({
      ...base,
      method: "get",
      path: "/teach/live",
      summary: "我的直播（最近一周起，按开始时间）",
      output: teachLiveListSchema,
      handler: async (_req, res, { auth: { user } }) => {
        const now = ctx.now();
        let q = liveRows(ctx.database.db)
          .where("s.starts_at", ">=", new Date(now.getTime() - 7 * 86_400_000))
          .orderBy("s.starts_at", "asc")
          .orderBy("s.id", "asc")
          .limit(100);
        if (user.role !== "operator") q = q.where("t.user_id", "=", user.id);
        const rows = await q.execute();
        res.json({ sessions: rows.map((r) => liveRowOf(r, now)) });
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/teach/live/{id}",
      summary: "我的一场直播：推流地址与密钥、置顶消息（别的老师的直播 404）",
      params: liveParams,
      output: adminLiveSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await own(params.id, user));
      },
    }),
    defineEndpoint({
      ...base,
      method: "put",
      path: "/teach/live/{id}/schedule",
      summary: "调整我的直播时间（未开始时；通知预约和报名的学员）",
      params: liveParams,
      input: liveMoveSchema,
      output: adminLiveSchema,
      handler: async (req, res, { auth: { user }, input, params: { id } }) => {
        await updateLive(ctx, user.id, id, input, user.role === "operator" ? undefined : user.id);
        res.json(await own(id, user));
      },
    }),
    ...roomModeration(ctx, "/teach/live", base, false),
  ];
}
