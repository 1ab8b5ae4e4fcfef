/** Notices (/api/notices): the latest ones with the unread count, and marking them read. */
import express, { type Router } from "express";
import { type NoticeList, noticesReadSchema } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import { handler, parseInput } from "../../http";
import { requireAuth } from "../auth/guard";
import { listNotices, markNoticesRead } from "./notices";

export function createNoticesRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.get(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json((await listNotices(ctx, user.id)) satisfies NoticeList);
    }),
  );

  router.post(
    "/read",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const { ids } = parseInput(noticesReadSchema, req.body);
      res.json({ unread: await markNoticesRead(ctx, user.id, ids) });
    }),
  );

  return router;
}
