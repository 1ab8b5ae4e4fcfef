/**
 * Gifts (/api/gifts): buying a course as a gift (signed in, Idempotency-Key), looking a gift up by
 * its claim code (anyone; the signed-in viewer also learns whether they can claim it), claiming
 * it, and the buyer's refund of an unclaimed gift (Idempotency-Key). Claim codes are secrets:
 * every call that takes one is rate-limited per IP and per learner before the code is even
 * read, and no code is written to the logs (the access log redacts them: server/logger.ts).
 */
import express, { type Request, type Router } from "express";
import { createGiftSchema, GIFT_NOT_FOUND, giftCodeSchema, giftRefundSchema } from "../../../shared/contracts/gifts";
import type { ApiContext } from "../../context";
import { ApiError, clientIp, handler, notFound, parseInput } from "../../http";
import { idempotentResponder } from "../../idempotency";
import { enforce, type Limit } from "../../rate-limit";
import { authOf, requireAuth } from "../auth/guard";
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

export function createGiftsRouter(ctx: ApiContext): Router {
  const router = express.Router();
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

  router.post(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(createGiftSchema, req.body);
      // Counted with the learner's other orders: the same key as POST /api/orders.
      await enforce(
        ctx.database,
        [{ key: `orders:create:${user.id}`, max: 30, windowSeconds: 600, message: "下单太频繁，请稍后再试" }],
        ctx.now(),
      );
      await idempotent(req, res, user.id, "POST /gifts", input, () => createGift(ctx, user.id, input), 201);
    }),
  );

  router.get(
    "/:code",
    handler(async (req, res) => {
      const viewer = authOf(res)?.user ?? null;
      await limitCodeUse(req, viewer?.id ?? null, "lookup");
      res.json(await viewGift(ctx, codeOf(req), viewer?.id ?? null));
    }),
  );

  router.post(
    "/:code/claim",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      await limitCodeUse(req, user.id, "claim");
      res.json(await claimGift(ctx, user.id, codeOf(req)));
    }),
  );

  router.post(
    "/:code/refund",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      await limitCodeUse(req, user.id, "claim");
      const code = codeOf(req);
      const input = parseInput(giftRefundSchema, req.body);
      // The code stays out of the stored route name; the body's fingerprint tells gifts apart.
      await idempotent(req, res, user.id, "POST /gifts/refund", { code, ...input }, () =>
        refundGift(ctx, user.id, code, input.reason),
      );
    }),
  );

  router.use((_req, _res, next) => next(new ApiError(404, "not_found", "接口不存在")));
  return router;
}
