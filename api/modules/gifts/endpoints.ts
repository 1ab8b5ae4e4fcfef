/**
 * Gifts (/api/gifts): buying a course as a gift (signed in, Idempotency-Key), looking a gift up by
 * its claim code (anyone; the signed-in viewer also learns whether they can claim it), claiming
 * it, and the buyer's refund of an unclaimed gift (Idempotency-Key). Claim codes are secrets:
 * every call that takes one is rate-limited per IP and per learner before the code is even
 * read, and no code is written to the logs (the access log redacts them: server/logger.ts).
 */
import { z } from "zod";
import type { Request } from "express";
import {
  createGiftSchema,
  GIFT_NOT_FOUND,
  giftClaimResultSchema,
  giftCodeSchema,
  giftRefundSchema,
  giftViewSchema,
} from "../../../shared/contracts/gifts";
import { createOrderResultSchema, orderDetailSchema } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { clientIp, notFound } from "../../http";
import { idempotentResponder } from "../../idempotency";
import { enforce, type Limit } from "../../rate-limit";
import { limitOrderCreation } from "../orders/create";
import { claimGift, createGift, refundGift, viewGift } from "./gifts";

/** How often a code may be tried: generous for people with a link, useless for guessing 60-bit codes. */
export const GIFT_LIMITS = {
  lookupsPerIp: 120,
  lookupsPerUser: 30,
  claimsPerIp: 60,
  claimsPerUser: 10,
  windowSeconds: 600,
} as const;

const SLOW_DOWN = "尝试太频繁，请稍后再试";

function codeOf(req: Request): string {
  const parsed = giftCodeSchema.safeParse(req.params.code);
  if (!parsed.success) throw notFound(GIFT_NOT_FOUND);
  return parsed.data;
}

/** Read after the rate limits have counted the call (codeOf), so a malformed code is counted too. */
const codeParam = { code: z.string().describe("领取码（12 位，可带或不带连字符，不区分大小写）") };

export function giftEndpoints(ctx: ApiContext): Endpoint[] {
  const idempotent = idempotentResponder(ctx.database);

  /** Counts a use of a code against the IP and, when signed in, the learner. */
  const limitCodeUse = (req: Request, userId: number | null, kind: "lookup" | "claim") => {
    const perIp = kind === "lookup" ? GIFT_LIMITS.lookupsPerIp : GIFT_LIMITS.claimsPerIp;
    const perUser = kind === "lookup" ? GIFT_LIMITS.lookupsPerUser : GIFT_LIMITS.claimsPerUser;
    const limits: Limit[] = [
      {
        key: `gifts:${kind}:ip:${clientIp(req)}`,
        max: perIp,
        windowSeconds: GIFT_LIMITS.windowSeconds,
        message: SLOW_DOWN,
      },
    ];
    if (userId !== null)
      limits.push({
        key: `gifts:${kind}:user:${userId}`,
        max: perUser,
        windowSeconds: GIFT_LIMITS.windowSeconds,
        message: SLOW_DOWN,
      });
    return enforce(ctx.database, limits, ctx.now());
  };

  return [
    defineEndpoint({
      method: "post",
      path: "/gifts",
      summary: "购买课程赠送好友（需 Idempotency-Key；生成待支付的赠送订单和领取码；同一课程的待支付赠送订单会被复用）",
      tag: "gifts",
      auth: true,
      input: createGiftSchema,
      output: createOrderResultSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        refuseWhileFrozen(user, "购买或支付");
        // Counted with the learner's other orders (POST /api/orders).
        await limitOrderCreation(ctx, user.id);
        await idempotent(req, res, user.id, "POST /gifts", input, () => createGift(ctx, user.id, input), 201);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/gifts/{code}",
      summary: "按领取码查看礼物：课程、赠送人、赠言、状态、领取期限；登录时附能否领取及原因（按 IP 与用户限频）",
      tag: "gifts",
      auth: false,
      params: codeParam,
      output: giftViewSchema,
      handler: async (req, res, { auth }) => {
        const viewer = auth?.user ?? null;
        await limitCodeUse(req, viewer?.id ?? null, "lookup");
        res.json(await viewGift(ctx, codeOf(req), viewer?.id ?? null));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/gifts/{code}/claim",
      summary: "领取礼物：报名课程，礼物只能被领取一次（不能领取自己赠送的、已拥有的课程；按 IP 与用户限频）",
      tag: "gifts",
      auth: true,
      params: codeParam,
      output: giftClaimResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        await limitCodeUse(req, user.id, "claim");
        res.json(await claimGift(ctx, user.id, codeOf(req)));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/gifts/{code}/refund",
      summary: "赠送人为领取期满仍未被领取的礼物申请全额退款（需 Idempotency-Key）",
      tag: "gifts",
      auth: true,
      params: codeParam,
      input: giftRefundSchema,
      output: orderDetailSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        await limitCodeUse(req, user.id, "claim");
        const code = codeOf(req);
        // The code stays out of the stored route name; the body's fingerprint tells gifts apart.
        await idempotent(req, res, user.id, "POST /gifts/refund", { code, ...input }, () =>
          refundGift(ctx, user.id, code, input.reason),
        );
      },
    }),
  ];
}
