/** Gifts as the OpenAPI description lists them (api/openapi.ts). */
import {
  createGiftSchema,
  giftClaimResultSchema,
  giftRefundSchema,
  giftViewSchema,
} from "../../../shared/contracts/gifts";
import { createOrderResultSchema, orderDetailSchema } from "../../../shared/contracts/orders";
import type { ApiOperation } from "../../openapi";

const code = {
  code: { type: "string", description: "领取码（12 位，可带或不带连字符，不区分大小写）" },
} as const;

export const giftOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/gifts",
    summary: "购买课程赠送好友（需 Idempotency-Key；生成待支付的赠送订单和领取码；同一课程的待支付赠送订单会被复用）",
    tag: "gifts",
    auth: true,
    request: createGiftSchema,
    response: createOrderResultSchema,
  },
  {
    method: "get",
    path: "/gifts/{code}",
    summary: "按领取码查看礼物：课程、赠送人、赠言、状态、领取期限；登录时附能否领取及原因（按 IP 与用户限频）",
    tag: "gifts",
    auth: false,
    params: code,
    response: giftViewSchema,
  },
  {
    method: "post",
    path: "/gifts/{code}/claim",
    summary: "领取礼物：报名课程，礼物只能被领取一次（不能领取自己赠送的、已拥有的课程；按 IP 与用户限频）",
    tag: "gifts",
    auth: true,
    params: code,
    response: giftClaimResultSchema,
  },
  {
    method: "post",
    path: "/gifts/{code}/refund",
    summary: "赠送人为领取期满仍未被领取的礼物申请全额退款（需 Idempotency-Key）",
    tag: "gifts",
    auth: true,
    params: code,
    request: giftRefundSchema,
    response: orderDetailSchema,
  },
];
