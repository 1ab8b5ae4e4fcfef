/**
 * The API service: JSON only, mounted in-process at /api by default or run on its own
 * (API_ORIGIN). Business modules mount their routers here.
 */
import express, { type RequestHandler, type Router } from "express";
import { z } from "zod";
import type { ApiContext } from "./context";
import { ApiError, apiErrorHandler, jsonBody, sameOriginOnly } from "./http";
import { recordRoutePattern } from "./metrics";
import { microCache } from "./micro-cache";
import { attachSession, passwordChangeGate } from "./modules/auth/guard";
import { createAccountFlowsRouter } from "./modules/auth/flows.router";
import { createQrRouter } from "./modules/auth/qr.router";
import { createAuthRouter } from "./modules/auth/router";
import { createWechatRouter } from "./modules/auth/wechat.router";
import { createMeRouter } from "./modules/me/router";
import { createNoticesRouter } from "./modules/notices/router";
import { createPracticeRouter } from "./modules/practice/router";
import { createCoursesRouter } from "./modules/courses/router";
import { createLearningRouter } from "./modules/learning/router";
import { createLiveRouter } from "./modules/live/router";
import { createShopRouter } from "./modules/shop/router";
import { createSearchRouter } from "./modules/search/router";
import { createActivitiesRouter } from "./modules/activities/router";
import { createHomeRouter } from "./modules/home/router";
import { sitemapHandler } from "./modules/seo/sitemap";
import { createWalletRouter } from "./modules/wallet/router";
import { createOrdersRouter } from "./modules/orders/router";
import { createPaymentsRouter } from "./modules/payments/router";
import { createCouponsRouter } from "./modules/coupons/router";
import { createGroupsRouter } from "./modules/groups/router";
import { giftEndpoints } from "./modules/gifts/endpoints";
import { homeworkEndpoints, teachHomeworkEndpoints } from "./modules/homework/endpoints";
import { openApiEndpoint } from "./openapi";
import { defineEndpoint, endpointRouter, type Endpoint } from "./endpoint";

export interface ApiErrorBody {
  error: { code: string; message: string };
}

export function apiError(code: string, message: string): ApiErrorBody {
  return { error: { code, message } };
}

export function createApiRouter(ctx: ApiContext): Router {
  const api = express.Router();
  // Metrics label API requests by the route pattern they match, never by their raw path.
  api.use(recordRoutePattern);
  // Personal by default; public catalogue endpoints say otherwise themselves.
  api.use((_req, res, next) => {
    res.setHeader("Cache-Control", "private, no-store");
    next();
  });
  api.use(sameOriginOnly([ctx.settings.publicOrigin]));
  api.use(jsonBody());
  api.use(attachSession(ctx));
  api.use(passwordChangeGate());

  // Public catalogue answers stay a few seconds in memory (anonymous requests only).
  const catalogueCache = microCache({ ttlMs: ctx.settings.catalogueCacheMs });

  /** Every endpoint that is mounted, for the OpenAPI document. */
  const mounted: Endpoint[] = [];
  const mount = (mountPath: string, endpoints: readonly Endpoint[], ...before: RequestHandler[]) => {
    mounted.push(...endpoints);
    api.use(mountPath, ...before, endpointRouter(mountPath, endpoints));
  };

  api.use("/auth", createAuthRouter(ctx));
  api.use("/auth", createAccountFlowsRouter(ctx));
  api.use("/auth/qr", createQrRouter(ctx));
  api.use("/auth/wechat", createWechatRouter(ctx));
  api.use("/me", createMeRouter(ctx));
  api.use("/notices", createNoticesRouter(ctx));
  api.use("/practice", createPracticeRouter(ctx.now));

  api.use("/courses", catalogueCache, createCoursesRouter(ctx));
  api.use("/learning", createLearningRouter(ctx));
  api.use("/live", createLiveRouter(ctx));
  api.use("/shop", catalogueCache, createShopRouter(ctx));
  api.use("/search", createSearchRouter(ctx));
  api.use("/activities", createActivitiesRouter(ctx));
  api.use("/home", catalogueCache, createHomeRouter(ctx));
  api.use("/wallet", createWalletRouter(ctx));
  api.use("/orders", createOrdersRouter(ctx));
  api.use("/payments", createPaymentsRouter(ctx));
  api.use("/coupons", createCouponsRouter(ctx));
  api.use("/groups", createGroupsRouter(ctx));
  mount("/gifts", giftEndpoints(ctx));
  mount("/homework", homeworkEndpoints(ctx));
  mount("/teach", teachHomeworkEndpoints(ctx));
  mount(
    "/",
    metaEndpoints(ctx, () => mounted),
  );
  api.use((_req, _res, next) => next(new ApiError(404, "not_found", "接口不存在")));
  api.use(apiErrorHandler);
  return api;
}

/** The service's own endpoints: liveness, the sitemap and this document. */
function metaEndpoints(ctx: ApiContext, mounted: () => readonly Endpoint[]): Endpoint[] {
  const sitemap = sitemapHandler(ctx);
  return [
    defineEndpoint({
      method: "get",
      path: "/health",
      summary: "存活检查",
      tag: "meta",
      auth: false,
      output: z.object({ ok: z.literal(true) }),
      handler: (_req, res) => {
        res.json({ ok: true });
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/sitemap.xml",
      summary: "站点地图（公开页面）",
      tag: "meta",
      auth: false,
      produces: "application/xml",
      handler: (req, res) =>
        new Promise<void>((resolve, reject) => {
          res.on("finish", () => resolve());
          sitemap(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
        }),
    }),
    openApiEndpoint(ctx, mounted),
  ];
}
