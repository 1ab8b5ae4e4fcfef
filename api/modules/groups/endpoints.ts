/**
 * Group buying (/api/groups): a course's open groups and one group (readable signed out: a
 * shared link must open for anyone), its share QR code, and starting or joining a group (signed
 * in, with an Idempotency-Key: they create orders). Group numbers that cannot exist are 404.
 */
import {
  expireGroupFixtureSchema,
  GROUP_NO,
  groupDetailSchema,
  groupOrderResultSchema,
  joinGroupSchema,
  openGroupListSchema,
  openGroupsQuerySchema,
  startGroupSchema,
} from "../../../shared/contracts/groups";
import { orderDetailSchema } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { defineEndpoint, textParam, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { respondIdempotently } from "../../idempotency";
import { qrCodeSvg } from "../../qr-code";
import { enforce } from "../../rate-limit";
import { groupNotFound, joinGroup, startGroup } from "./groups";
import { groupDetail, listOpenGroups, visibleGroupId } from "./read";
import { expireGroupNow } from "./job";

const groupNoParam = { groupNo: textParam(GROUP_NO, "团号（GB + 14 位数字）", groupNotFound().message) };
const groupOrderResult = groupOrderResultSchema(orderDetailSchema);

export function groupEndpoints(ctx: ApiContext): Endpoint[] {
  /** Starting and joining create orders: the same limit per learner as buying. */
  const limitOrders = (userId: number) =>
    enforce(
      ctx.database,
      [{ key: `groups:order:${userId}`, max: 30, windowSeconds: 600, message: "操作太频繁，请稍后再试" }],
      ctx.now(),
    );

  // Served (and described) only where test fixtures are switched on.
  const fixtures = ctx.settings.testFixtures
    ? [
        defineEndpoint({
          method: "post",
          path: "/groups/__test/expire",
          summary: "仅测试环境：让自己发起的进行中拼团立即到期，并运行一次拼团任务（失败、退款）",
          tag: "groups",
          auth: true,
          input: expireGroupFixtureSchema,
          handler: async (_req, res, { auth: { user }, input }) => {
            res.json(await expireGroupNow(ctx, user.id, input.groupNo));
          },
        }),
      ]
    : [];

  return [
    defineEndpoint({
      method: "get",
      path: "/groups",
      summary:
        "课程正在进行、还有空位的拼团（?courseId=，按截止时间先后），团长头像与打码昵称、剩余名额、截止时间与服务器时间",
      tag: "groups",
      auth: false,
      query: openGroupsQuerySchema,
      output: openGroupListSchema,
      handler: async (_req, res, { auth, query }) => {
        res.json(await listOpenGroups(ctx, query.courseId, auth?.user.id ?? null));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/groups",
      summary:
        "发起拼团（需 Idempotency-Key）：生成待团长支付的团和拼团价订单（15 分钟内支付，支付后开团、开始计时）；未支付的同一发起会被复用；已拥有课程、已在该活动的另一个团中时 409",
      tag: "groups",
      auth: true,
      input: startGroupSchema,
      output: groupOrderResult,
      handler: async (req, res, { auth: { user }, input }) => {
        refuseWhileFrozen(user, "购买或支付");
        await limitOrders(user.id);
        await respondIdempotently(
          ctx.database,
          req,
          res,
          { userId: user.id, route: "POST /groups", body: input },
          () => startGroup(ctx, user.id, input.campaignId),
          201,
        );
      },
    }),
    ...fixtures,
    defineEndpoint({
      method: "get",
      path: "/groups/{groupNo}",
      summary:
        "拼团详情：课程与拼团价、状态、已支付的成员（头像与打码昵称）、支付中的名额、剩余名额、截止时间与服务器时间，以及当前学员能否参团；团长支付前只有团长可见，其他情况 404",
      tag: "groups",
      auth: false,
      params: groupNoParam,
      output: groupDetailSchema,
      handler: async (req, res, { auth, params }) => {
        res.json(await groupDetail(ctx, params.groupNo, auth?.user.id ?? null));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/groups/{groupNo}/qr.svg",
      summary: "拼团页面地址的二维码（SVG），用于邀请好友",
      tag: "groups",
      auth: false,
      params: groupNoParam,
      produces: "image/svg+xml",
      handler: async (req, res, { auth, params }) => {
        const groupNo = params.groupNo;
        await visibleGroupId(ctx, groupNo, auth?.user.id ?? null);
        const svg = await qrCodeSvg(`${ctx.settings.publicOrigin}/groupbuy/${groupNo}`);
        res.setHeader("Cache-Control", "private, max-age=3600");
        res.type("image/svg+xml").send(svg);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/groups/{groupNo}/join",
      summary:
        "参加拼团（需 Idempotency-Key）：占一个名额并生成拼团价订单，15 分钟内（不晚于拼团截止）支付，超时名额释放；自己的团、已在团中、团已满、已结束、已在该活动的另一个团中、已拥有课程时 409",
      tag: "groups",
      auth: true,
      params: groupNoParam,
      input: joinGroupSchema,
      output: groupOrderResult,
      handler: async (req, res, { auth: { user }, params }) => {
        refuseWhileFrozen(user, "购买或支付");
        const groupNo = params.groupNo;
        await limitOrders(user.id);
        await respondIdempotently(
          ctx.database,
          req,
          res,
          { userId: user.id, route: `POST /groups/${groupNo}/join`, body: {} },
          () => joinGroup(ctx, user.id, groupNo),
          201,
        );
      },
    }),
  ];
}
