/**
 * The services behind the site in this process: the database (migrated on start, seeded on
 * the first embedded start), outgoing messages and the API context.
 */
import type { Logger } from "pino";
import type { ApiContext } from "../api/context";
import { type Database, hasPgliteDatabase, openDatabase } from "../api/db/database";
import { migrate } from "../api/db/migrate";
import { seedCatalogue } from "../api/seed/catalogue";
import { seedCommerce } from "../api/seed/commerce";
import { seedIfEmpty } from "../api/seed/accounts";
import { seedHomework } from "../api/modules/homework/seed";
import { idempotencyKeysJob } from "../api/idempotency";
import { registerJob, startJobs } from "../api/jobs/registry";
import { trackPool } from "../api/metrics";
import { orderJob } from "../api/jobs/commerce";
import { activityGrantsHomework } from "../api/modules/activities/participation";
import { giftPurpose } from "../api/modules/gifts/fulfil";
import { groupPurpose } from "../api/modules/groups/fulfil";
import { homeworkGrants } from "../api/modules/homework/grants";
import { homeworkUploadJob } from "../api/modules/homework/upload-job";
import { liveStateJob } from "../api/modules/live/state-job";
import { stopVideoWork, videoTranscodeJob } from "../api/modules/catalogue-admin/video";
import { orderPurposes } from "../api/modules/orders/purposes";
import { reconcileSandboxPayments } from "../api/modules/payments/reconcile";
import { redemptionJob } from "../api/modules/wallet/redemption-job";
import { dailyCheckIn } from "../api/modules/wallet/check-in";
import { checkInToday } from "../api/modules/practice/diary";
import { configurePayments, paymentSettingsFrom } from "../api/providers/payments/settings";
import { accountErasureJob } from "../api/modules/me/deletion";
import { AliyunSmsTransport } from "../api/providers/aliyun-sms";
import { DevOutbox, type MessageTransport, Messenger, type UndeliverableChannels } from "../api/providers/messages";
import { EventStreams } from "../api/sse";
import type { AppConfig } from "./config";
import { databaseOptions } from "./database-options";
import { outboxAllowed } from "./dev-outbox";

export interface Services {
  database: Database;
  api: ApiContext;
  close(): Promise<void>;
}

export async function apiContextFor(
  config: AppConfig,
  database: Database,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<ApiContext> {
  // In production the outbox keeps messages in memory only (nothing on disk, nothing readable).
  const outbox = new DevOutbox(outboxAllowed(config) ? config.dataDir : null);
  const sms: MessageTransport = config.sms.provider === "aliyun" ? new AliyunSmsTransport(config.sms) : outbox;
  // nodemailer is loaded only where mail goes out through SMTP.
  const email: MessageTransport =
    config.mail.transport === "smtp" ? new (await import("../api/providers/smtp")).SmtpTransport(config.mail) : outbox;
  if (config.production && (sms === outbox || email === outbox)) {
    logger.warn(
      { sms: config.sms.provider, mail: config.mail.transport },
      "messages are not delivered: configure SMS_PROVIDER and MAIL_TRANSPORT",
    );
  }
  // Where nobody may read the outbox, a channel left on it delivers nothing: codes are refused
  // (503, api/modules/auth/otp.ts) rather than answered "sent".
  const undeliverable: UndeliverableChannels = outboxAllowed(config)
    ? {}
    : {
        ...(sms === outbox ? { sms: "SMS_PROVIDER" } : {}),
        ...(email === outbox ? { email: "MAIL_TRANSPORT" } : {}),
      };
  return {
    database,
    messenger: new Messenger({ sms, email }, logger, undeliverable),
    // Readable at /dev/outbox only where that page may exist (never in the pro environment).
    outbox: outboxAllowed(config) && (sms === outbox || email === outbox) ? outbox : null,
    settings: {
      production: config.production,
      publicOrigin: config.publicOrigin,
      acceptRequestHost: config.acceptRequestHost,
      siteName: config.siteName,
      dataDir: config.dataDir,
      cookies: { secure: config.publicOrigin.startsWith("https:") },
      catalogueCacheMs: config.catalogueCacheMs,
      otpDailyPerIp: config.otpDailyPerIp,
      operatorsNeedTwoFactor: config.deployEnv === "pro",
      testFixtures: config.testFixtures,
      wechat: config.wechat,
      video: config.video,
    },
    logger,
    now,
    eventStreams: new EventStreams(),
  };
}

/**
 * What the order purposes other modules own do when their orders move (api/modules/orders/purposes.ts):
 * orders never imports the modules that build on it.
 */
export function registerOrderPurposes() {
  orderPurposes.register("gift", giftPurpose);
  orderPurposes.register("group", groupPurpose);
}

/** Every periodic job of the site (api/jobs/registry.ts; what they do and how often: README, "Jobs"). */
export function registerJobs() {
  registerJob(accountErasureJob);
  registerJob(homeworkUploadJob);
  registerJob(idempotencyKeysJob);
  registerJob(liveStateJob);
  registerJob(orderJob);
  registerJob(redemptionJob);
  registerJob(videoTranscodeJob);
}

/**
 * Demo accounts (with the README's published passwords) and the demo catalogue: never in pro
 * unless DEMO_DATA asks for them, and then loudly (see config.demoData). Each part only once.
 */
async function seedDemo(db: Database, config: AppConfig, logger: Logger) {
  if (!config.demoData) return;
  if (config.deployEnv === "pro")
    logger.warn("DEMO_DATA is on in the pro environment: demo accounts with published passwords may be created");
  if (await seedIfEmpty(db)) logger.info("first start: demo accounts created (see README)");
  if (await seedCatalogue(db)) logger.info("first start: demo catalogue created");
  if (await seedCommerce(db)) logger.info("first start: demo exchange mall created");
  if (await seedHomework(db)) logger.info("first start: demo homework created");
}

/**
 * Whether this node's embedded database is still to be created with the demo data. PGlite's
 * WebAssembly memory grows while the demo data is written and never gives it back (a node that
 * did it idled at about 800 MB, one started on the same folder afterwards at about 300 MB), so the
 * server has a short-lived process of its own do that first (decision 028).
 */
export function needsFirstStart(config: AppConfig): boolean {
  return !config.apiOrigin && !config.databaseUrl && config.demoData && !hasPgliteDatabase(config.dataDir);
}

/** The first start's work, in its own process: migrate, write the demo data, close. */
export async function prepareFirstStart(config: AppConfig, logger: Logger): Promise<void> {
  const db = await openDatabase(databaseOptions(config, logger));
  try {
    await migrate(db);
    await seedDemo(db, config, logger);
  } finally {
    await db.close();
  }
}

export async function openServices(config: AppConfig, logger: Logger, database?: Database): Promise<Services> {
  registerOrderPurposes();
  // An activity's participants may hand in its homework lesson (api/modules/homework/grants.ts).
  homeworkGrants.register("activity", activityGrantsHomework);
  // The wallet's 签到 is today's practice-diary entry (api/modules/wallet/check-in.ts).
  dailyCheckIn.register(checkInToday);
  const db = database ?? (await openDatabase(databaseOptions(config, logger)));
  await migrate(db);
  if (!database) await seedDemo(db, config, logger);
  const api = await apiContextFor(config, db, logger);
  configurePayments(api, paymentSettingsFrom(config.payments, config.dataDir));
  // Periodic jobs, each run once per period across all nodes.
  registerJobs();
  const jobs = startJobs(api);
  // The connection pool's use and queue for /metrics (the embedded database has no pool).
  const untrackPool = db.poolStats ? trackPool(db.poolStats) : () => {};
  // Approvals a crash left uncredited are settled before the first visitor, not 30 s later.
  await reconcileSandboxPayments(api).catch((err: unknown) =>
    logger.error({ err }, "sandbox payment reconciliation at start failed"),
  );
  return {
    database: db,
    api,
    close: async () => {
      // ffmpeg is killed at once; its job is taken again (here or on another node) when its lease expires.
      stopVideoWork(api);
      await jobs.stop();
      untrackPool();
      await db.close();
    },
  };
}
