/**
 * Configuration from the environment (12-factor), with working defaults for the embedded
 * mode. Every variable is documented in the README.
 */
import path from "node:path";
import type { z } from "zod";
import type { MailConfig, PaymentConfig, SmsConfig, VideoSettings, WechatSettings } from "../api/index";
import type { MetricsConfig } from "./metrics";
import { envSchema } from "./env-schema";

/** A setting the server cannot start with: main.ts prints its one-line message (no stack) and exits 1. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = z.infer<typeof envSchema>;

/** PEM keys may come on one line with \n for the line breaks. */
const pem = (v: string | undefined) => (v ?? "").replace(/\\n/g, "\n");

export interface AppConfig {
  production: boolean;
  port: number;
  host: string;
  deployEnv: string;
  dataDir: string;
  /** The shipped media (sample videos under video/): the repository's media/, /app/media in the image. */
  mediaDir: string;
  /** PostgreSQL server; absent: PGlite under dataDir. */
  databaseUrl?: string;
  publicOrigin: string;
  /** PUBLIC_ORIGIN is not set and this is not `pro`: same-site checks accept the request's own host. */
  acceptRequestHost: boolean;
  siteName: string;
  apiOrigin?: string;
  avatarOrigin?: string;
  broadcastOrigin?: string;
  mobileSiteUrl?: string;
  servicePhone: string;
  serviceEmail: string;
  /** ICP licence number (e.g. 京ICP备12345678号-1) for the footer; absent: not shown. */
  icpNumber?: string;
  baiduSiteVerification?: string;
  bingSiteVerification?: string;
  trustProxyHops: number;
  logLevel: string;
  streamTimeoutMs: number;
  /** An upstream (API_ORIGIN, AVATAR_ORIGIN, BROADCAST_ORIGIN) that has not answered within this is 504. */
  upstreamTimeoutMs: number;
  /** How long a node keeps public catalogue answers in memory (0: not at all). */
  catalogueCacheMs: number;
  /** Anonymous pages kept in memory per node (docs/decisions/026-page-cache.md); null: off. */
  pageCache: { maxEntries: number; maxBytes: number; ttlMs: number } | null;
  /** Event-loop lag (ms) from which new requests are answered 503 at once (0: never; decision 027). */
  overloadLagMs: number;
  /** Login codes (SMS and e-mail) one client IP may ask for per day. */
  otpDailyPerIp: number;
  shutdownTimeoutMs: number;
  /** Keep serving this long after SIGTERM (readiness already 503) so the load balancer can deregister. */
  drainDelayMs: number;
  /** /metrics: its own listener (METRICS_PORT, METRICS_HOST) and the bearer token for the main port. */
  metrics: MetricsConfig;
  devtoolsBlock: boolean;
  testFixtures: boolean;
  /** Lesson video uploads: the encoder (FFMPEG_PATH, else searched on PATH) and the size limit. */
  video: VideoSettings;
  /**
   * Whether the demo accounts and catalogue are created on start: on the embedded database in
   * local/dev/test, and anywhere (pro included) with DEMO_DATA=1. Never otherwise in pro.
   */
  demoData: boolean;
  /** Built client (dist/client); absent in development, where Vite serves the sources. */
  clientDir?: string;
  /**
   * The build's PGlite cluster archive (dist/pglite-cluster.tar.gz): a new embedded database is
   * unpacked from it instead of made by initdb. Absent in development and where not built.
   */
  clusterArchive?: string;
  /** WeChat website login; absent unless WECHAT_APP_ID and WECHAT_APP_SECRET are both set. */
  wechat?: WechatSettings;
  sms: SmsConfig;
  mail: MailConfig;
  /**
   * PAYMENT_PROVIDER and the providers' credentials (the sandbox secret defaults to one kept under
   * DATA_DIR). Provider `none`: buying is switched off (pro without a configured provider).
   */
  payments: PaymentConfig;
}

function missing(names: [string, string | undefined][]): string[] {
  return names.filter(([, value]) => !value).map(([name]) => name);
}

/** Outbound calls carry secrets: in production they go over HTTPS only. */
function requireHttps(production: boolean, name: string, value: string) {
  if (production && !value.startsWith("https://"))
    throw new ConfigError(`Invalid configuration: ${name} must be https in production`);
}

/** Sandbox secrets that are too easy to guess: repeated characters, few distinct ones, or placeholder words. */
export function weakSecret(secret: string): boolean {
  if (secret.length < 32) return true;
  if (new Set(secret).size < 10) return true;
  return /change.?me|changeit|secret|passw|example|default|sandbox|mochi|test|demo|placeholder|0123456789|abcdefgh/i.test(
    secret,
  );
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Settings that must never reach a public site: each one stops a `pro` start with a one-line
 * reason (main.ts prints it and exits non-zero).
 */
function refuseUnsafe(e: Env) {
  if (e.TEST_FIXTURES) throw new ConfigError("TEST_FIXTURES cannot be enabled in the pro environment");
  if (e.PAYMENT_SANDBOX_SECRET !== undefined && weakSecret(e.PAYMENT_SANDBOX_SECRET))
    throw new ConfigError(
      "Unsafe configuration for pro: PAYMENT_SANDBOX_SECRET is a well-known or weak value (use 32+ random characters, e.g. `openssl rand -hex 32`, or leave it unset to generate one under DATA_DIR)",
    );
  if (e.PUBLIC_ORIGIN) {
    const url = new URL(e.PUBLIC_ORIGIN);
    if (url.protocol === "http:" && !LOCAL_HOSTS.has(url.hostname))
      throw new ConfigError(
        `Unsafe configuration for pro: PUBLIC_ORIGIN must be https:// (got ${url.origin}); http is allowed for localhost only`,
      );
  }
  if (e.PAYMENT_PROVIDER === "sandbox" && !e.PAYMENT_SANDBOX_ALLOW)
    throw new ConfigError(
      "Unsafe configuration for pro: PAYMENT_PROVIDER=sandbox lets buyers approve their own payments; set PAYMENT_SANDBOX_ALLOW=1 for a test site, or configure wechat/alipay",
    );
}

/** WeChat website login; absent unless WECHAT_APP_ID and WECHAT_APP_SECRET are both set. */
function wechatFrom(e: Env, production: boolean): WechatSettings | undefined {
  let wechat: WechatSettings | undefined;
  if (e.WECHAT_APP_ID && e.WECHAT_APP_SECRET) {
    wechat = {
      appId: e.WECHAT_APP_ID,
      appSecret: e.WECHAT_APP_SECRET,
      apiOrigin: e.WECHAT_API_ORIGIN ?? "https://api.weixin.qq.com",
      openOrigin: e.WECHAT_OPEN_ORIGIN ?? "https://open.weixin.qq.com",
    };
    requireHttps(production, "WECHAT_API_ORIGIN", wechat.apiOrigin);
    requireHttps(production, "WECHAT_OPEN_ORIGIN", wechat.openOrigin);
  } else if (e.WECHAT_APP_ID || e.WECHAT_APP_SECRET) {
    throw new ConfigError("Invalid configuration: WECHAT_APP_ID and WECHAT_APP_SECRET must be set together");
  }
  return wechat;
}

/** SMS_PROVIDER and Aliyun's credentials. */
function smsFrom(e: Env, production: boolean): SmsConfig {
  let sms: SmsConfig = { provider: "outbox" };
  if (e.SMS_PROVIDER === "aliyun") {
    const absent = missing([
      ["ALIYUN_ACCESS_KEY_ID", e.ALIYUN_ACCESS_KEY_ID],
      ["ALIYUN_ACCESS_KEY_SECRET", e.ALIYUN_ACCESS_KEY_SECRET],
      ["ALIYUN_SMS_SIGN_NAME", e.ALIYUN_SMS_SIGN_NAME],
      ["ALIYUN_SMS_TEMPLATE_CODE", e.ALIYUN_SMS_TEMPLATE_CODE],
    ]);
    if (absent.length) throw new ConfigError(`Invalid configuration: SMS_PROVIDER=aliyun needs ${absent.join(", ")}`);
    sms = {
      provider: "aliyun",
      accessKeyId: e.ALIYUN_ACCESS_KEY_ID ?? "",
      accessKeySecret: e.ALIYUN_ACCESS_KEY_SECRET ?? "",
      signName: e.ALIYUN_SMS_SIGN_NAME ?? "",
      templateCode: e.ALIYUN_SMS_TEMPLATE_CODE ?? "",
      endpoint: e.ALIYUN_SMS_ENDPOINT ?? "https://dysmsapi.aliyuncs.com",
    };
    requireHttps(production, "ALIYUN_SMS_ENDPOINT", sms.endpoint);
  }
  return sms;
}

/** MAIL_TRANSPORT and the SMTP server. */
function mailFrom(e: Env): MailConfig {
  let mail: MailConfig = { transport: "outbox" };
  if (e.MAIL_TRANSPORT === "smtp") {
    const absent = missing([
      ["SMTP_URL", e.SMTP_URL],
      ["SMTP_FROM", e.SMTP_FROM],
    ]);
    if (absent.length) throw new ConfigError(`Invalid configuration: MAIL_TRANSPORT=smtp needs ${absent.join(", ")}`);
    mail = { transport: "smtp", url: e.SMTP_URL ?? "", from: e.SMTP_FROM ?? "" };
  }
  return mail;
}

/** PAYMENT_PROVIDER and the providers' credentials. */
function paymentsFrom(e: Env, production: boolean, pro: boolean): PaymentConfig {
  const wechatPayVars: [string, string | undefined][] = [
    ["WECHATPAY_MCH_ID", e.WECHATPAY_MCH_ID],
    ["WECHATPAY_APP_ID", e.WECHATPAY_APP_ID],
    ["WECHATPAY_SERIAL_NO", e.WECHATPAY_SERIAL_NO],
    ["WECHATPAY_PRIVATE_KEY", e.WECHATPAY_PRIVATE_KEY],
    ["WECHATPAY_API_V3_KEY", e.WECHATPAY_API_V3_KEY],
    ["WECHATPAY_PLATFORM_PUBLIC_KEY", e.WECHATPAY_PLATFORM_PUBLIC_KEY],
    ["WECHATPAY_PLATFORM_KEY_ID", e.WECHATPAY_PLATFORM_KEY_ID],
  ];
  const alipayVars: [string, string | undefined][] = [
    ["ALIPAY_APP_ID", e.ALIPAY_APP_ID],
    ["ALIPAY_PRIVATE_KEY", e.ALIPAY_PRIVATE_KEY],
    ["ALIPAY_PUBLIC_KEY", e.ALIPAY_PUBLIC_KEY],
  ];
  // Outside pro the sandbox is the default; in pro only with PAYMENT_SANDBOX_ALLOW, else buying is off.
  const provider = e.PAYMENT_PROVIDER || (!pro || e.PAYMENT_SANDBOX_ALLOW ? "sandbox" : "none");
  const payments: PaymentConfig = { provider, sandboxSecret: e.PAYMENT_SANDBOX_SECRET };
  if (wechatPayVars.some(([, v]) => v)) {
    const absent = missing(wechatPayVars);
    if (absent.length) throw new ConfigError(`Invalid configuration: WeChat Pay needs ${absent.join(", ")}`);
    payments.wechat = {
      mchId: e.WECHATPAY_MCH_ID ?? "",
      appId: e.WECHATPAY_APP_ID ?? "",
      serialNo: e.WECHATPAY_SERIAL_NO ?? "",
      privateKey: pem(e.WECHATPAY_PRIVATE_KEY),
      apiV3Key: e.WECHATPAY_API_V3_KEY ?? "",
      platformPublicKey: pem(e.WECHATPAY_PLATFORM_PUBLIC_KEY),
      platformKeyId: e.WECHATPAY_PLATFORM_KEY_ID ?? "",
      apiOrigin: e.WECHATPAY_API_ORIGIN ?? "https://api.mch.weixin.qq.com",
    };
    requireHttps(production, "WECHATPAY_API_ORIGIN", payments.wechat.apiOrigin);
  }
  if (alipayVars.some(([, v]) => v)) {
    const absent = missing(alipayVars);
    if (absent.length) throw new ConfigError(`Invalid configuration: Alipay needs ${absent.join(", ")}`);
    payments.alipay = {
      appId: e.ALIPAY_APP_ID ?? "",
      privateKey: pem(e.ALIPAY_PRIVATE_KEY),
      alipayPublicKey: pem(e.ALIPAY_PUBLIC_KEY),
      gateway: e.ALIPAY_GATEWAY ?? "https://openapi.alipay.com/gateway.do",
    };
    requireHttps(production, "ALIPAY_GATEWAY", payments.alipay.gateway);
  }
  if (payments.provider === "wechat" && !payments.wechat)
    throw new ConfigError("Invalid configuration: PAYMENT_PROVIDER=wechat needs the WECHATPAY_* variables");
  if (payments.provider === "alipay" && !payments.alipay)
    throw new ConfigError("Invalid configuration: PAYMENT_PROVIDER=alipay needs the ALIPAY_* variables");
  return payments;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const deployEnv = e.DEPLOY_ENV ?? (production ? "pro" : "dev");
  const pro = deployEnv === "pro";
  if (pro) refuseUnsafe(e);

  const wechat = wechatFrom(e, production);
  const sms = smsFrom(e, production);
  const mail = mailFrom(e);
  const payments = paymentsFrom(e, production, pro);

  return {
    production,
    port: e.PORT,
    host: e.HOST,
    deployEnv,
    dataDir: path.resolve(e.DATA_DIR),
    mediaDir: path.resolve(e.MEDIA_DIR ?? "media"),
    databaseUrl: e.DATABASE_URL,
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    acceptRequestHost: !pro && e.PUBLIC_ORIGIN === undefined,
    siteName: e.SITE_NAME,
    apiOrigin: e.API_ORIGIN,
    avatarOrigin: e.AVATAR_ORIGIN,
    broadcastOrigin: e.BROADCAST_ORIGIN,
    mobileSiteUrl: e.MOBILE_SITE_URL,
    servicePhone: e.SERVICE_PHONE,
    serviceEmail: e.SERVICE_EMAIL,
    icpNumber: e.ICP_NUMBER,
    baiduSiteVerification: e.BAIDU_SITE_VERIFICATION,
    bingSiteVerification: e.BING_SITE_VERIFICATION,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    streamTimeoutMs: e.STREAM_TIMEOUT_MS,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    // Tests change the catalogue and read it back at once: no memory there unless asked for.
    catalogueCacheMs: e.CATALOGUE_CACHE_MS ?? (e.NODE_ENV === "test" ? 0 : 5000),
    // On in production unless PAGE_CACHE=0; elsewhere (tests, development) only when asked for.
    pageCache: (
      e.PAGE_CACHE === undefined || e.PAGE_CACHE === ""
        ? e.NODE_ENV === "production"
        : e.PAGE_CACHE === "1" || e.PAGE_CACHE === "true"
    )
      ? { maxEntries: e.PAGE_CACHE_MAX_ENTRIES, maxBytes: e.PAGE_CACHE_MAX_MB * 2 ** 20, ttlMs: e.PAGE_CACHE_TTL_MS }
      : null,
    // Tests (in process, or a built server with DEPLOY_ENV=test) run on busy machines: no shedding unless asked for.
    overloadLagMs: e.OVERLOAD_LAG_MS ?? (e.NODE_ENV === "test" || deployEnv === "test" ? 0 : 200),
    otpDailyPerIp: e.OTP_DAILY_PER_IP,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: e.DRAIN_DELAY_MS,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    devtoolsBlock: e.DEVTOOLS_BLOCK,
    testFixtures: e.TEST_FIXTURES,
    // The encoder is looked for at each upload (FFMPEG_PATH, else PATH): installing it needs no restart.
    video: { ffmpegPath: e.FFMPEG_PATH, searchPath: env.PATH ?? "", uploadMaxBytes: e.VIDEO_UPLOAD_MAX_MB * 2 ** 20 },
    // On PostgreSQL only when asked for (a shared server is never filled with demo data by surprise).
    demoData: e.DEMO_DATA || (!pro && !e.DATABASE_URL),
    wechat,
    sms,
    mail,
    payments,
    ...overrides,
  };
}
