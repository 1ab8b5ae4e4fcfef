/** Coupons (/api/coupons): the claim centre, claiming, the learner's pack, the best coupon, return notices. */
import express, { type Router } from "express";
import {
  bestQuerySchema,
  claimInputSchema,
  couponListQuerySchema,
  seenInputSchema,
} from "../../../shared/contracts/coupons";
import type { ApiContext } from "../../context";
import { ApiError, handler, parseInput } from "../../http";
import { enforce } from "../../rate-limit";
import { authOf, requireAuth } from "../auth/guard";
import {
  bestCoupon,
  claimableTemplates,
  claimCoupon,
  markReturnNoticesSeen,
  myCoupons,
  returnNotices,
} from "./coupons";

export function createCouponsRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.get(
    "/templates",
    handler(async (_req, res) => {
      res.json({ items: await claimableTemplates(ctx, authOf(res)?.user.id ?? null) });
    }),
  );

  router.post(
    "/claim",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(claimInputSchema, req.body);
      await enforce(
        ctx.database,
        [{ key: `coupons:claim:${user.id}`, max: 30, windowSeconds: 60, message: "领取太频繁，请稍后再试" }],
        ctx.now(),
      );
      res.status(201).json({ coupon: await claimCoupon(ctx, user.id, input.templateId) });
    }),
  );

  router.get(
    "/mine",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const query = parseInput(couponListQuerySchema, req.query);
      res.json(await myCoupons(ctx, user.id, query.state));
    }),
  );

  router.get(
    "/best",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const query = parseInput(bestQuerySchema, req.query);
      res.json(await bestCoupon(ctx, user.id, query));
    }),
  );

  router.get(
    "/return-notices",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json({ items: await returnNotices(ctx, user.id) });
    }),
  );

  router.post(
    "/return-notices/seen",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(seenInputSchema, req.body);
      res.json({ seen: await markReturnNoticesSeen(ctx, user.id, input.couponIds) });
    }),
  );

  router.use((_req, _res, next) => next(new ApiError(404, "not_found", "接口不存在")));
  return router;
}
