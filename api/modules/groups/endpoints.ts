/**
 * Group buying (/api/groups): a course's open groups and one group (readable signed out: a
 * shared link must open for anyone), its share QR code, and starting or joining a group (signed
 * in, with an Idempotency-Key: they create orders). Group numbers that cannot exist are 404.
 */
import express, { type Request, type Router } from "express";
import QRCode from "qrcode";
import {
  expireGroupFixtureSchema,
  GROUP_NO,
  joinGroupSchema,
  openGroupsQuerySchema,
  startGroupSchema,
} from "../../../shared/contracts/groups";
import type { ApiContext } from "../../context";
import { ApiError, handler, notFound, parseInput } from "../../http";
import { respondIdempotently } from "../../idempotency";
import { enforce } from "../../rate-limit";
import { authOf, requireAuth } from "../auth/guard";
import { groupDetail, groupNotFound, joinGroup, listOpenGroups, startGroup, visibleGroupId } from "./groups";
import { expireGroupNow } from "./job";

function groupNoOf(req: Request): string {
  const value = String(req.params.groupNo ?? "");
  if (!GROUP_NO.test(value)) throw groupNotFound();
  return value;
}

export function createGroupsRouter(ctx: ApiContext): Router {
  const router = express.Router();

  /** Starting and joining create orders: the same limit per learner as buying. */
  const limitOrders = (userId: number) =>
    enforce(
      ctx.database,
      [{ key: `groups:order:${userId}`, max: 30, windowSeconds: 600, message: "操作太频繁，请稍后再试" }],
      ctx.now(),
    );

  router.get(
    "/",
    handler(async (req, res) => {
      const query = parseInput(openGroupsQuerySchema, req.query);
      res.json(await listOpenGroups(ctx, query.courseId, authOf(res)?.user.id ?? null));
    }),
  );

  router.post(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(startGroupSchema, req.body);
      await limitOrders(user.id);
      await respondIdempotently(
        ctx.database,
        req,
        res,
        { userId: user.id, route: "POST /groups", body: input },
        () => startGroup(ctx, user.id, input.campaignId),
        201,
      );
    }),
  );

  router.post(
    "/__test/expire",
    handler(async (req, res) => {
      if (!ctx.settings.testFixtures) throw notFound("接口不存在");
      const { user } = requireAuth(req, res);
      const input = parseInput(expireGroupFixtureSchema, req.body);
      res.json(await expireGroupNow(ctx, user.id, input.groupNo));
    }),
  );

  router.get(
    "/:groupNo",
    handler(async (req, res) => {
      res.json(await groupDetail(ctx, groupNoOf(req), authOf(res)?.user.id ?? null));
    }),
  );

  router.get(
    "/:groupNo/qr.svg",
    handler(async (req, res) => {
      const groupNo = groupNoOf(req);
      await visibleGroupId(ctx, groupNo, authOf(res)?.user.id ?? null);
      const svg = await QRCode.toString(`${ctx.settings.publicOrigin}/groupbuy/${groupNo}`, {
        type: "svg",
        margin: 1,
        errorCorrectionLevel: "M",
        color: { dark: "#222222", light: "#fffdf8" },
      });
      res.setHeader("Cache-Control", "private, max-age=3600");
      res.type("image/svg+xml").send(svg);
    }),
  );

  router.post(
    "/:groupNo/join",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const groupNo = groupNoOf(req);
      parseInput(joinGroupSchema, req.body);
      await limitOrders(user.id);
      await respondIdempotently(
        ctx.database,
        req,
        res,
        { userId: user.id, route: `POST /groups/${groupNo}/join`, body: {} },
        () => joinGroup(ctx, user.id, groupNo),
        201,
      );
    }),
  );

  router.use((_req, _res, next) => next(new ApiError(404, "not_found", "接口不存在")));
  return router;
}
