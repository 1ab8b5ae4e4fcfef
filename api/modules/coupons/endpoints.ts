/** Coupons (/api/coupons): the claim centre, claiming, the learner's pack, the best coupon, return notices. */
import { z } from "zod";
import {
  bestCouponSchema,
  bestQuerySchema,
  claimInputSchema,
  claimResultSchema,
  couponListQuerySchema,
  couponListSchema,
  returnNoticeListSchema,
  seenInputSchema,
  templateListSchema,
} from "../../../shared/contracts/coupons";
import type { ApiContext } from "../../context";
import { refuseWhileFrozen } from "../../account-freeze";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { enforce } from "../../rate-limit";
import {
  bestCoupon,
  claimableTemplates,
  claimCoupon,
  markReturnNoticesSeen,
  myCoupons,
  returnNotices,
} from "./coupons";

export function couponEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/coupons/templates",
      summary: "领券中心：可领取的优惠券",
      tag: "coupons",
      auth: false,
      output: templateListSchema,
      handler: async (_req, res, { auth }) => {
        res.json({ items: await claimableTemplates(ctx, auth?.user.id ?? null) });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/coupons/claim",
      summary: "领取优惠券（每人限领、总量有限）",
      tag: "coupons",
      auth: true,
      input: claimInputSchema,
      output: claimResultSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        refuseWhileFrozen(user, "领取优惠券");
        await enforce(
          ctx.database,
          [{ key: `coupons:claim:${user.id}`, max: 30, windowSeconds: 60, message: "领取太频繁，请稍后再试" }],
          ctx.now(),
        );
        res.status(201).json({ coupon: await claimCoupon(ctx, user.id, input.templateId) });
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/coupons/mine",
      summary: "我的卡包（?state=可用|已使用|已过期|已退回），附各分类数量",
      tag: "coupons",
      auth: true,
      query: couponListQuerySchema,
      output: couponListSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await myCoupons(ctx, user.id, query.state));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/coupons/best",
      summary: "结算时最优惠的优惠券（?itemType&itemId&skuId&quantity）",
      tag: "coupons",
      auth: true,
      query: bestQuerySchema,
      output: bestCouponSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await bestCoupon(ctx, user.id, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/coupons/return-notices",
      summary: "未读的优惠券退回提醒",
      tag: "coupons",
      auth: true,
      output: returnNoticeListSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json({ items: await returnNotices(ctx, user.id) });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/coupons/return-notices/seen",
      summary: "标记优惠券退回提醒已读",
      tag: "coupons",
      auth: true,
      input: seenInputSchema,
      output: z.object({ seen: z.number().int() }),
      handler: async (_req, res, { auth: { user }, input }) => {
        res.json({ seen: await markReturnNoticesSeen(ctx, user.id, input.couponIds) });
      },
    }),
  ];
}
