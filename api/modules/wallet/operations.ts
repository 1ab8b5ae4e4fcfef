/** The wallet's endpoints as the OpenAPI description lists them (api/openapi.ts). */
import { z } from "zod";
import {
  balancesSchema,
  checkInResultSchema,
  exchangeInputSchema,
  exchangeItemDetailSchema,
  exchangeItemListSchema,
  exchangeResultSchema,
  ledgerPageSchema,
  redeemInputSchema,
  redeemResultSchema,
  walletSchema,
} from "../../../shared/contracts/wallet";
import type { ApiOperation } from "../../openapi";

const idParam = { id: { type: "integer", description: "兑换物品编号" } } as const;

export const walletOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/wallet",
    summary: "金币与笔山余额、今日各项学习奖励及上限、兑换比例",
    tag: "wallet",
    auth: true,
    response: walletSchema,
  },
  {
    method: "post",
    path: "/wallet/check-in",
    summary: "每日签到（按北京时间每天一次，重复签到返回 already: true）",
    tag: "wallet",
    auth: true,
    response: checkInResultSchema,
  },
  {
    method: "post",
    path: "/wallet/exchange",
    summary: "金币兑换笔山（100 金币 = 1 笔山，单向；需要 Idempotency-Key 请求头）",
    tag: "wallet",
    auth: true,
    request: exchangeInputSchema,
    response: exchangeResultSchema,
  },
  {
    method: "get",
    path: "/wallet/items",
    summary: "兑换商城物品（价格、库存、每人限兑、本人已兑数量）",
    tag: "wallet",
    auth: false,
    response: exchangeItemListSchema,
  },
  {
    method: "get",
    path: "/wallet/items/{id}",
    summary: "兑换物品详情（登录时附余额）",
    tag: "wallet",
    auth: false,
    params: idParam,
    response: exchangeItemDetailSchema,
  },
  {
    method: "post",
    path: "/wallet/items/{id}/redeem",
    summary: "兑换物品（实物需收货地址；需要 Idempotency-Key 请求头；发放失败自动退回）",
    tag: "wallet",
    auth: true,
    params: idParam,
    request: redeemInputSchema,
    response: redeemResultSchema,
  },
  {
    method: "get",
    path: "/wallet/entries",
    summary: "金币或笔山明细（?currency=coin|bishan&page=，每页 20 条，最新在前）",
    tag: "wallet",
    auth: true,
    response: ledgerPageSchema,
  },
  {
    method: "post",
    path: "/wallet/__test/grant",
    summary: "仅测试环境：发放金币或笔山",
    tag: "wallet",
    auth: true,
    request: z.object({ currency: z.enum(["coin", "bishan"]), amount: z.number().int() }),
    response: z.object({ balances: balancesSchema }),
  },
];
