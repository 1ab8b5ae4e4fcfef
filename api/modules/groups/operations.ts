/** Group buying's operations for the OpenAPI document (api/openapi.ts lists them). */
import {
  expireGroupFixtureSchema,
  groupDetailSchema,
  groupOrderResultSchema,
  joinGroupSchema,
  openGroupListSchema,
  startGroupSchema,
} from "../../../shared/contracts/groups";
import { orderDetailSchema } from "../../../shared/contracts/orders";
import type { ApiOperation } from "../../openapi";

const groupNo = { groupNo: { type: "string", description: "团号（GB + 14 位数字）" } } as const;
const groupOrderResult = groupOrderResultSchema(orderDetailSchema);

export const groupOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/groups",
    summary:
      "课程正在进行、还有空位的拼团（?courseId=，按截止时间先后），团长头像与打码昵称、剩余名额、截止时间与服务器时间",
    tag: "groups",
    auth: false,
    response: openGroupListSchema,
  },
  {
    method: "post",
    path: "/groups",
    summary:
      "发起拼团（需 Idempotency-Key）：生成待团长支付的团和拼团价订单（15 分钟内支付，支付后开团、开始计时）；未支付的同一发起会被复用；已拥有课程、已在该活动的另一个团中时 409",
    tag: "groups",
    auth: true,
    request: startGroupSchema,
    response: groupOrderResult,
  },
  {
    method: "get",
    path: "/groups/{groupNo}",
    summary:
      "拼团详情：课程与拼团价、状态、已支付的成员（头像与打码昵称）、支付中的名额、剩余名额、截止时间与服务器时间，以及当前学员能否参团；团长支付前只有团长可见，其他情况 404",
    tag: "groups",
    auth: false,
    params: groupNo,
    response: groupDetailSchema,
  },
  {
    method: "get",
    path: "/groups/{groupNo}/qr.svg",
    summary: "拼团页面地址的二维码（SVG），用于邀请好友",
    tag: "groups",
    auth: false,
    params: groupNo,
  },
  {
    method: "post",
    path: "/groups/{groupNo}/join",
    summary:
      "参加拼团（需 Idempotency-Key）：占一个名额并生成拼团价订单，15 分钟内（不晚于拼团截止）支付，超时名额释放；自己的团、已在团中、团已满、已结束、已在该活动的另一个团中、已拥有课程时 409",
    tag: "groups",
    auth: true,
    params: groupNo,
    request: joinGroupSchema,
    response: groupOrderResult,
  },
  {
    method: "post",
    path: "/groups/__test/expire",
    summary: "仅测试环境：让自己发起的进行中拼团立即到期，并运行一次拼团任务（失败、退款）",
    tag: "groups",
    auth: true,
    request: expireGroupFixtureSchema,
  },
];
