/**
 * The API's composition root, with ./router.ts: the context every module works with, the order
 * purposes other modules own, every periodic job, and the demo data. Modules never wire one
 * another; they are told about each other here.
 */
import type { Logger } from "pino";
import type { ApiContext, VideoSettings } from "../context";
import type { Database } from "../db/database";
import { migrate } from "../db/migrate";
import { seed, seedIfEmpty } from "../seed/accounts";
import { seedCatalogue } from "../seed/catalogue";
import { seedCommerce } from "../seed/commerce";
import { idempotencyKeysJob } from "../idempotency";
import { orderJob } from "../jobs/commerce";
import { registerJob, startJobs } from "../jobs/registry";
import { trackPool } from "../metrics";
import { stopVideoWork, videoTranscodeJob } from "../modules/catalogue-admin/video";
import { activityGrantsHomework } from "../modules/activities/participation";
import { homeworkGrants } from "../modules/homework/grants";
import { dailyCheckIn } from "../modules/wallet/check-in";
import { checkInToday } from "../modules/practice/diary";
import { giftPurpose } from "../modules/gifts/fulfil";
import { groupPurpose } from "../modules/groups/fulfil";
import { seedHomework } from "../modules/homework/seed";
import { homeworkUploadJob } from "../modules/homework/upload-job";
import { liveStateJob } from "../modules/live/state-job";
import { accountErasureJob } from "../modules/me/deletion";
import { orderPurposes } from "../modules/orders/purposes";
import { reconcileSandboxPayments } from "../modules/payments/reconcile";
import { redemptionJob } from "../modules/wallet/redemption-job";
import { AliyunSmsTransport, type AliyunSmsSettings } from "../providers/aliyun-sms";
import { DevOutbox, type MessageTransport, Messenger, type UndeliverableChannels } from "../providers/messages";
import { configurePayments, type PaymentConfig, paymentSettingsFrom } from "../providers/payments/settings";
import type { SmtpSettings } from "../providers/smtp";
import type { WechatSettings } from "../providers/wechat";
import { EventStreams } from "../sse";

/** Where SMS go: the outbox (development; memory only in production) or Aliyun. */
export type SmsConfig = { provider: "outbox" } | ({ provider: "aliyun" } & AliyunSmsSettings);
/** Where e-mail goes: the outbox or an SMTP server. */
export type MailConfig = { transport: "outbox" } | ({ transport: "smtp" } & SmtpSettings);

/** The site's configuration as the API reads it (server/config.ts holds all of it, and more). */
export interface ApiConfig {
  production: boolean;
  deployEnv: string;
  dataDir: string;
  publicOrigin: string;
  acceptRequestHost: boolean;
  siteName: string;
  catalogueCacheMs: number;
  otpDailyPerIp: number;
  testFixtures: boolean;
  demoData: boolean;
  video: VideoSettings;
  wechat?: WechatSettings;
  sms: SmsConfig;
  mail: MailConfig;
  payments: PaymentConfig;
  /** Whether anyone may read the development outbox (server/dev-outbox.ts: never in `pro`). */
  outboxReadable: boolean;
}

/** The API running in this process: its database, its context, and how to stop its work. */
export interface Services {
  database: Database;
  api: ApiContext;
  close(): Promise<void>;
}

export async function createApiContext(
  config: ApiConfig,
  database: Database,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<ApiContext> {
  // In production the outbox keeps messages in memory only (nothing on disk, nothing readable).
  const outbox = new DevOutbox(config.outboxReadable ? config.dataDir : null);
  const sms: MessageTransport = config.sms.provider === "aliyun" ? new AliyunSmsTransport(config.sms) : outbox;
  // nodemailer is loaded only where mail goes out through SMTP.
  const email: MessageTransport =
    config.mail.transport === "smtp" ? new (await import("../providers/smtp")).SmtpTransport(config.mail) : outbox;
  if (config.production && (sms === outbox || email === outbox)) {
    logger.warn(
      { sms: config.sms.provider, mail: config.mail.transport },
      "messages are not delivered: configure SMS_PROVIDER and MAIL_TRANSPORT",
    );
  }
  // Where nobody may read the outbox, a channel left on it delivers nothing: codes are refused
  // (503, api/modules/auth/otp.ts) rather than answered "sent".
  const undeliverable: UndeliverableChannels = config.outboxReadable
    ? {}
    : {
        ...(sms === outbox ? { sms: "SMS_PROVIDER" } : {}),
        ...(email === outbox ? { email: "MAIL_TRANSPORT" } : {}),
      };
  return {
    database,
    messenger: new Messenger({ sms, email }, logger, undeliverable),
    // Readable at /dev/outbox only where that page may exist (never in the pro environment).
    outbox: config.outboxReadable && (sms === outbox || email === outbox) ? outbox : null,
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
/** What one module lets another do without importing it: order purposes, homework grants, the check-in. */
function registerPurposes() {
  orderPurposes.register("gift", giftPurpose);
  orderPurposes.register("group", groupPurpose);
  // An activity's participants may hand in its homework lesson (api/modules/homework/grants.ts).
  homeworkGrants.register("activity", activityGrantsHomework);
  // The wallet's 签到 is today's practice-diary entry (api/modules/wallet/check-in.ts).
  dailyCheckIn.register(checkInToday);
}

/** Every periodic job of the site (api/jobs/registry.ts; what they do and how often: README, "Jobs"). */
function registerJobs() {
  registerJob(accountErasureJob);
  registerJob(homeworkUploadJob);
  registerJob(idempotencyKeysJob);
  registerJob(liveStateJob);
  registerJob(orderJob);
  registerJob(redemptionJob);
  registerJob(videoTranscodeJob);
}

/** Which parts of the demo data were written (each part only once). */
export interface DemoSeeded {
  /** Demo accounts created now (0: they were there). */
  accounts: number;
  catalogue: boolean;
  commerce: boolean;
  homework: boolean;
}

/**
 * The demo accounts (with the README's published passwords), catalogue, exchange mall and
 * homework. `accounts: "if-empty"` adds accounts only to a database that has none.
 */
export async function seedDemoData(db: Database, accounts: "always" | "if-empty" = "always"): Promise<DemoSeeded> {
  return {
    accounts: accounts === "always" ? await seed(db) : (await seedIfEmpty(db)) ? 1 : 0,
    catalogue: await seedCatalogue(db),
    commerce: await seedCommerce(db),
    homework: await seedHomework(db),
  };
}

/**
 * Demo data on start: never in pro unless DEMO_DATA asks for it, and then loudly (see
 * config.demoData). Each part only once.
 */
async function seedDemoOnStart(db: Database, config: ApiConfig, logger: Logger) {
  if (!config.demoData) return;
  if (config.deployEnv === "pro")
    logger.warn("DEMO_DATA is on in the pro environment: demo accounts with published passwords may be created");
  const seeded = await seedDemoData(db, "if-empty");
  if (seeded.accounts) logger.info("first start: demo accounts created (see README)");
  if (seeded.catalogue) logger.info("first start: demo catalogue created");
  if (seeded.commerce) logger.info("first start: demo exchange mall created");
  if (seeded.homework) logger.info("first start: demo homework created");
}

/** The first start's work on a fresh database: migrate and write the demo data (decision 028). */
export async function prepareDatabase(db: Database, config: ApiConfig, logger: Logger): Promise<void> {
  await migrate(db);
  await seedDemoOnStart(db, config, logger);
}

/**
 * Starts the API on an open database: migrations, the demo data (unless `seedDemo` is false),
 * the context, payments, the order purposes and the periodic jobs.
 */
export async function startApi(
  config: ApiConfig,
  db: Database,
  logger: Logger,
  { seedDemo }: { seedDemo: boolean },
): Promise<Services> {
  registerPurposes();
  await migrate(db);
  if (seedDemo) await seedDemoOnStart(db, config, logger);
  const api = await createApiContext(config, db, logger);
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
