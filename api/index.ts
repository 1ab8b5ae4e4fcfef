/**
 * The API's face: everything the web server (server/) uses of the API, and nothing else. The
 * composition root (api/compose/) wires the modules, their order purposes and the periodic jobs;
 * server/ imports only this file (a lint rule holds it).
 */

/** Starting the API: its router, its context and services, the demo data and the first start. */
export { createApiRouter } from "./compose/router";
export {
  type ApiConfig,
  createApiContext,
  type DemoSeeded,
  type MailConfig,
  prepareDatabase,
  seedDemoData,
  type Services,
  type SmsConfig,
  startApi,
} from "./compose/services";
export type { ApiContext, VideoSettings } from "./context";
export type { PaymentConfig } from "./providers/payments/settings";
export type { WechatSettings } from "./providers/wechat";

/** The database: opening it, migrating it, the embedded cluster archive made at build time. */
export { type Database, type DatabaseOptions, hasPgliteDatabase, openDatabase } from "./db/database";
export { currentClusterStamp, migrate, migratedCluster } from "./db/migrate";
export {
  CLUSTER_ARCHIVE_NAME,
  clusterArchiveIsCurrent,
  readClusterArchive,
  writeClusterArchive,
} from "./db/pglite-cluster";
/** A dependency that cannot be reached is "busy, retry" (503), not broken (decision 014). */
export { isConnectionError, SERVICE_BUSY_RETRY_AFTER_S } from "./db/connection-errors";
/** Catalogue changes heard from any node (the page cache empties itself on them). */
export { watchCatalogue } from "./catalogue-changes";

/** Pages rendered in this process: the visitor's session, and loaders' calls handed over without a socket. */
export { readPageSession } from "./compose/page-session";
export { readSessionToken } from "./modules/auth/sessions";
export { handOverJson, type JsonHandOver } from "./json-hand-over";
/** Upload routes whose bodies take hours, not minutes (the request deadline). */
export { VIDEO_BODY_ROUTES } from "./http";

/** Files and pictures the web server serves: lesson videos, the sitemap, the brush hand. */
export { lessonVideoRoot } from "./modules/catalogue-admin/video";
export { lastGoodSitemap, sitemapHandler } from "./modules/seo/sitemap";
export { centredGlyphPath, glyphPath, textPath } from "./brush-font";
export { loadSharp } from "./providers/images";

/** The development outbox (/dev/outbox). */
export type { DevOutbox, OutgoingMessage } from "./providers/messages";

/** Prometheus metrics: one registry for the web server and the API. */
export {
  httpDuration,
  httpRequests,
  metricsRegistry,
  pageCacheBytes,
  pageCacheInvalidations,
  pageCacheRequests,
  ssrLoaders,
  ssrRender,
  startDefaultMetrics,
} from "./metrics";

/** The command line (server/cli.ts): accounts, roles, two-factor reset, the audit chain. */
export {
  AccountCommandError,
  changeRole,
  createAccount,
  type GrantableRole,
  resetTwoFactorOf,
} from "./modules/admin/accounts-admin";
export { verifyAuditChain } from "./modules/audit/chain";
