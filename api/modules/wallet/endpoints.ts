/**
 * Coins and bishan (/api/wallet): balances, daily check-in, one-way exchange, the exchange mall
 * and records. Everything here is personal (private, no-store); the item list and detail may be
 * read signed out, the rest needs a session. Calls that move currency carry an Idempotency-Key.
 */
import { z } from "zod";
import {
  balancesSchema,
  checkInResultSchema,
  entriesQuerySchema,
  exchangeInputSchema,
  exchangeItemDetailSchema,
  exchangeItemListSchema,
  exchangeResultSchema,
  grantInputSchema,
  ledgerPageSchema,
  redeemInputSchema,
  redeemResultSchema,
  walletSchema,
} from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { refuseWhileFrozen } from "../../account-freeze";
import { idempotentResponder } from "../../idempotency";
import { itemById, listItems, redeemItem } from "./exchange-mall";
import { ledgerPage } from "./ledger-page";
import { confirmRedemption, myRedemptions } from "./delivery";
import {
  myRedemptionPageSchema,
  myRedemptionQuery,
  myRedemptionSchema,
} from "../../../shared/contracts/staff-commerce";
import { dailyCheckIn } from "./check-in";
import { exchangeCoins, grant, walletOf } from "./wallet";

const itemId = { id: idParam("兑换物品编号", "兑换物品不存在或已下架") };

export function walletEndpoints(ctx: ApiContext): Endpoint[] {
  /** Money-moving calls run once per Idempotency-Key (api/idempotency.ts). */
  const idempotent = idempotentResponder(ctx.database);

  // Served (and described) only where test fixtures are switched on.
  const fixtures = ctx.settings.testFixtures
    ? [
        defineEndpoint({
          method: "post",
          path: "/wallet/__test/grant",
          summary: "仅测试环境：发放金币或笔山",
          tag: "wallet",
          auth: true,
          input: grantInputSchema,
          output: z.object({ balances: balancesSchema }),
          handler: async (_req, res, { auth: { user }, input }) => {
            res.json({ balances: await grant(ctx, user.id, input.currency, input.amount) });
          },
        }),
      ]
    : [];

  return [
    defineEndpoint({
      method: "get",
      path: "/wallet",
      summary: "金币与笔山余额、今日各项学习奖励及上限、兑换比例",
      tag: "wallet",
      auth: true,
      output: walletSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await walletOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/wallet/check-in",
      summary: "每日签到（按北京时间每天一次，重复签到返回 already: true）",
      tag: "wallet",
      auth: true,
      output: checkInResultSchema,
      handler: async (_req, res, { auth: { user } }) => {
        refuseWhileFrozen(user, "签到领金币");
        res.json(await dailyCheckIn.run(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/wallet/exchange",
      summary: "金币兑换笔山（100 金币 = 1 笔山，单向；需要 Idempotency-Key 请求头）",
      tag: "wallet",
      auth: true,
      input: exchangeInputSchema,
      output: exchangeResultSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        refuseWhileFrozen(user, "兑换");
        await idempotent(req, res, user.id, "POST /wallet/exchange", input, () =>
          exchangeCoins(ctx, user.id, input.bishan),
        );
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/wallet/items",
      summary: "兑换商城物品（价格、库存、每人限兑、本人已兑数量）",
      tag: "wallet",
      auth: false,
      output: exchangeItemListSchema,
      handler: async (_req, res, { auth }) => {
        res.json({ items: await listItems(ctx, auth?.user.id ?? null) });
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/wallet/items/{id}",
      summary: "兑换物品详情（登录时附余额）",
      tag: "wallet",
      auth: false,
      params: itemId,
      output: exchangeItemDetailSchema,
      handler: async (req, res, { auth, params }) => {
        const userId = auth?.user.id ?? null;
        const item = await itemById(ctx, userId, params.id);
        const { balances } = userId === null ? { balances: null } : await walletOf(ctx, userId);
        res.json({ item, balances });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/wallet/items/{id}/redeem",
      summary: "兑换物品（实物需收货地址；需要 Idempotency-Key 请求头；发放失败自动退回）",
      tag: "wallet",
      auth: true,
      params: itemId,
      input: redeemInputSchema,
      output: redeemResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        refuseWhileFrozen(user, "兑换");
        const id = params.id;
        await idempotent(req, res, user.id, `POST /wallet/items/${id}/redeem`, input, () =>
          redeemItem(ctx, user.id, id, input.address, input.addressId),
        );
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/wallet/entries",
      summary: "金币或笔山明细（?currency=coin|bishan&page=，每页 20 条，最新在前）",
      tag: "wallet",
      auth: true,
      query: entriesQuerySchema,
      output: ledgerPageSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await ledgerPage(ctx, user.id, query.currency, query.page));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/wallet/redemptions",
      summary: "我的兑换记录（最新在前，每页 10 条；实物附发货状态、快递公司和运单号）",
      tag: "wallet",
      auth: true,
      query: myRedemptionQuery,
      output: myRedemptionPageSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await myRedemptions(ctx, user.id, query.page));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/wallet/redemptions/{id}/confirm",
      summary: "确认收到兑换的实物（已发货 → 已签收）",
      tag: "wallet",
      auth: true,
      params: { id: idParam("兑换记录编号", "兑换记录不存在") },
      output: myRedemptionSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await confirmRedemption(ctx, user.id, params.id));
      },
    }),
    ...fixtures,
  ];
}
