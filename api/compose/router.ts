/**
 * The API service: JSON only, mounted in-process at /api by default or run on its own
 * (API_ORIGIN). Every business module's endpoints are mounted here, and only here.
 */
import express, { type RequestHandler, type Router } from "express";
import { z } from "zod";
import type { ApiContext } from "../context";
import { ApiError, apiErrorHandler, jsonBody, sameOriginOnly } from "../http";
import { recordRoutePattern } from "../metrics";
import { watchCatalogue } from "../catalogue-changes";
import { microCache } from "../micro-cache";
import { attachSession, passwordChangeGate, twoFactorGate } from "../modules/auth/guard";
import { twoFactorLoginEndpoints, twoFactorSettingsEndpoints } from "../modules/auth/two-factor.endpoints";
import { accountFlowEndpoints } from "../modules/auth/flows.endpoints";
import { qrEndpoints } from "../modules/auth/qr.endpoints";
import { authEndpoints } from "../modules/auth/endpoints";
import { wechatEndpoints } from "../modules/auth/wechat.endpoints";
import { meEndpoints } from "../modules/me/endpoints";
import { noticeEndpoints } from "../modules/notices/endpoints";
import { practiceEndpoints } from "../modules/practice/endpoints";
import { liveEndpoints } from "../modules/live/endpoints";
import { courseEndpoints } from "../modules/courses/endpoints";
import { learningEndpoints } from "../modules/learning/endpoints";
import { shopEndpoints } from "../modules/shop/endpoints";
import { searchEndpoints } from "../modules/search/endpoints";
import { activitiesEndpoints } from "../modules/activities/endpoints";
import { homeEndpoints } from "../modules/home/endpoints";
import { sitemapHandler } from "../modules/seo/sitemap";
import { walletEndpoints } from "../modules/wallet/endpoints";
import { orderEndpoints } from "../modules/orders/endpoints";
import { paymentEndpoints } from "../modules/payments/endpoints";
import { couponEndpoints } from "../modules/coupons/endpoints";
import { groupEndpoints } from "../modules/groups/endpoints";
import { giftEndpoints } from "../modules/gifts/endpoints";
import { homeworkEndpoints, teachHomeworkEndpoints } from "../modules/homework/endpoints";
import { auditEndpoints } from "../modules/audit/endpoints";
import { adminOrderEndpoints } from "../modules/admin/orders.endpoints";
import { adminUserEndpoints } from "../modules/admin/users.endpoints";
import { adminCatalogueEndpoints } from "../modules/catalogue-admin/endpoints";
import { adminLiveEndpoints, teachLiveEndpoints } from "../modules/live-admin/endpoints";
import { teachCourseEndpoints } from "../modules/teach-courses/endpoints";
import { mallAdminEndpoints } from "../modules/wallet/admin.endpoints";
import { couponAdminEndpoints } from "../modules/coupons/admin.endpoints";
import { campaignAdminEndpoints } from "../modules/campaigns/admin.endpoints";
import { feedbackAdminEndpoints, feedbackEndpoints } from "../modules/feedback/endpoints";
import { moderationEndpoints } from "../modules/homework/moderation.endpoints";
import { openApiEndpoint } from "../openapi";
import { defineEndpoint, endpointRouter, type Endpoint } from "../endpoint";

export function createApiRouter(ctx: ApiContext): Router {
  const api = express.Router();
  // Metrics label API requests by the route pattern they match, never by their raw path.
  api.use(recordRoutePattern);
  // Personal by default; public catalogue endpoints say otherwise themselves.
  api.use((_req, res, next) => {
    res.setHeader("Cache-Control", "private, no-store");
    next();
  });
  api.use(sameOriginOnly({ origins: [ctx.settings.publicOrigin], acceptRequestHost: ctx.settings.acceptRequestHost }));
  api.use(jsonBody());
  api.use(attachSession(ctx));
  api.use(passwordChangeGate());
  api.use(twoFactorGate(ctx));

  // Public catalogue answers stay a few seconds in memory (anonymous requests only).
  const catalogueCache = microCache({ ttlMs: ctx.settings.catalogueCacheMs });
  // Search answers too, in a table of their own, so many different queries cannot push the catalogue out.
  const searchCache = microCache({ ttlMs: ctx.settings.catalogueCacheMs, maxEntries: 200 });
  const wallCache = microCache({ ttlMs: ctx.settings.catalogueCacheMs, maxEntries: 50, sameForEveryone: true });
  // A catalogue change on any node empties them at once (no waiting out their few seconds).
  if (ctx.settings.catalogueCacheMs > 0) {
    watchCatalogue(ctx.database, () => {
      for (const cache of [catalogueCache, searchCache, wallCache]) cache.clear();
    }).catch((err: unknown) =>
      ctx.logger.warn({ err: { message: (err as Error).message } }, "catalogue changes not heard"),
    );
  }

  /** Every endpoint that is mounted, for the OpenAPI document. */
  const mounted: Endpoint[] = [];
  const mount = (mountPath: string, endpoints: readonly Endpoint[], ...before: RequestHandler[]) => {
    mounted.push(...endpoints);
    api.use(mountPath, ...before, endpointRouter(mountPath, endpoints));
  };

  mount("/auth", authEndpoints(ctx));
  mount("/auth", accountFlowEndpoints(ctx));
  mount("/auth", twoFactorLoginEndpoints(ctx));
  mount("/auth/qr", qrEndpoints(ctx));
  mount("/auth/wechat", wechatEndpoints(ctx));
  mount("/me", meEndpoints(ctx));
  mount("/me", twoFactorSettingsEndpoints(ctx));
  mount("/notices", noticeEndpoints(ctx));
  mount("/practice", practiceEndpoints(ctx));

  mount("/courses", courseEndpoints(ctx), catalogueCache);
  mount("/learning", learningEndpoints(ctx));
  // The schedule only: a live room's own answers (events, messages, online count) are never held.
  mount("/live", liveEndpoints(ctx), (req, res, next) => (req.path === "/" ? catalogueCache(req, res, next) : next()));
  mount("/shop", shopEndpoints(ctx), catalogueCache);
  mount("/search", searchEndpoints(ctx), searchCache);
  mount("/activities", activitiesEndpoints(ctx));
  mount("/home", homeEndpoints(ctx), catalogueCache);
  mount("/wallet", walletEndpoints(ctx));
  mount("/orders", orderEndpoints(ctx));
  mount("/payments", paymentEndpoints(ctx));
  mount("/coupons", couponEndpoints(ctx));
  mount("/groups", groupEndpoints(ctx));
  mount("/gifts", giftEndpoints(ctx));
  // The wall (on every home page) is the same for every anonymous visitor: held a few seconds, never by browsers.
  mount("/homework", homeworkEndpoints(ctx), (req, res, next) =>
    req.path === "/wall" ? wallCache(req, res, next) : next(),
  );
  mount("/teach", teachHomeworkEndpoints(ctx));
  mount("/feedback", feedbackEndpoints(ctx));
  // Staff areas: every endpoint below declares the role it needs (teacher or operator).
  mount("/admin", auditEndpoints(ctx));
  mount("/admin", adminOrderEndpoints(ctx));
  mount("/admin", adminUserEndpoints(ctx));
  mount("/admin", adminCatalogueEndpoints(ctx));
  mount("/admin", adminLiveEndpoints(ctx));
  mount("/teach", teachCourseEndpoints(ctx));
  mount("/teach", teachLiveEndpoints(ctx));
  mount("/admin", [
    ...mallAdminEndpoints(ctx),
    ...couponAdminEndpoints(ctx),
    ...campaignAdminEndpoints(ctx),
    ...feedbackAdminEndpoints(ctx),
    ...moderationEndpoints(ctx),
  ]);
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
