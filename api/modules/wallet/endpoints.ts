/**
 * Coins and bishan (/api/wallet): balances, daily check-in, one-way exchange, the exchange mall
 * and records. Everything here is personal (private, no-store); the item list and detail may be
 * read signed out, the rest needs a session. Calls that move currency carry an Idempotency-Key.
 */
import express, { type Router } from "express";
import {
  entriesQuerySchema,
  exchangeInputSchema,
  grantInputSchema,
  redeemInputSchema,
} from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import { handler, notFound, parseInput } from "../../http";
import { idempotentResponder } from "../../idempotency";
import { authOf, requireAuth } from "../auth/guard";
import { checkIn, exchangeCoins, grant, itemById, ledgerPage, listItems, redeemItem, walletOf } from "./wallet";

function positiveId(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647)
    throw notFound("兑换物品不存在或已下架");
  return Number(value);
}

export function createWalletRouter(ctx: ApiContext): Router {
  const router = express.Router();

  /** Money-moving calls run once per Idempotency-Key (api/idempotency.ts). */
  const idempotent = idempotentResponder(ctx.database);

  router.get(
    "/",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await walletOf(ctx, user.id));
    }),
  );

  router.post(
    "/check-in",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await checkIn(ctx, user.id));
    }),
  );

  router.post(
    "/exchange",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const input = parseInput(exchangeInputSchema, req.body);
      await idempotent(req, res, user.id, "POST /wallet/exchange", input, () =>
        exchangeCoins(ctx, user.id, input.bishan),
      );
    }),
  );

  router.get(
    "/items",
    handler(async (req, res) => {
      res.json({ items: await listItems(ctx, authOf(res)?.user.id ?? null) });
    }),
  );

  router.get(
    "/items/:id",
    handler(async (req, res) => {
      const userId = authOf(res)?.user.id ?? null;
      const item = await itemById(ctx, userId, positiveId(String(req.params.id ?? "")));
      const { balances } = userId === null ? { balances: null } : await walletOf(ctx, userId);
      res.json({ item, balances });
    }),
  );

  router.post(
    "/items/:id/redeem",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const id = positiveId(String(req.params.id ?? ""));
      const input = parseInput(redeemInputSchema, req.body);
      await idempotent(req, res, user.id, `POST /wallet/items/${id}/redeem`, input, () =>
        redeemItem(ctx, user.id, id, input.address),
      );
    }),
  );

  router.get(
    "/entries",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      const query = parseInput(entriesQuerySchema, req.query);
      res.json(await ledgerPage(ctx, user.id, query.currency, query.page));
    }),
  );

  router.post(
    "/__test/grant",
    handler(async (req, res) => {
      if (!ctx.settings.testFixtures) throw notFound("接口不存在");
      const { user } = requireAuth(req, res);
      const input = parseInput(grantInputSchema, req.body);
      res.json({ balances: await grant(ctx, user.id, input.currency, input.amount) });
    }),
  );

  return router;
}
