/**
 * Every environment variable the server reads, and its form (server/config.ts turns them into the
 * configuration). Every variable is documented in the README.
 */
import { z } from "zod";
import { SITE_NAME_DEFAULT } from "../shared/constants";

const bool = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");
const origin = z
  .string()
  .optional()
  .transform((v) => (v ? v.replace(/\/+$/, "") : undefined))
  .pipe(z.url({ protocol: /^https?$/ }).optional());
/** Unset and empty are the same: a variable left blank in a deployment file means "not configured". */
const text = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);
/** A site verification code: letters, digits, `-` and `_` only (it goes into a meta tag). */
const verificationCode = text.pipe(
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{4,128}$/, "letters, digits, - and _ only")
    .optional(),
);

/** Every variable the server reads; exported so a test holds the README and .env.example to it. */
export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DEPLOY_ENV: text,
  DATA_DIR: z.string().default("./data"),
  MEDIA_DIR: text,
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
        .optional(),
    ),
  PUBLIC_ORIGIN: origin,
  SITE_NAME: z.string().min(1).default(SITE_NAME_DEFAULT),
  API_ORIGIN: origin,
  AVATAR_ORIGIN: origin,
  BROADCAST_ORIGIN: origin,
  MOBILE_SITE_URL: origin,
  SERVICE_PHONE: z.string().default("400-820-6618"),
  SERVICE_EMAIL: z.email().default("service@mochi-classroom.cn"),
  ICP_NUMBER: text,
  BAIDU_SITE_VERIFICATION: verificationCode,
  BING_SITE_VERIFICATION: verificationCode,
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  STREAM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  CATALOGUE_CACHE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  PAGE_CACHE: z.enum(["0", "1", "true", "false", ""]).optional(),
  PAGE_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(100_000).default(1000),
  PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  FFMPEG_PATH: text,
  VIDEO_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(65536).default(2048),
  PAGE_CACHE_TTL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  OVERLOAD_LAG_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  OTP_DAILY_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(8_000),
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  METRICS_PORT: text
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default("127.0.0.1"),
  METRICS_TOKEN: text.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  DEVTOOLS_BLOCK: bool,
  TEST_FIXTURES: bool,
  DEMO_DATA: bool,
  WECHAT_APP_ID: text,
  WECHAT_APP_SECRET: text,
  WECHAT_API_ORIGIN: origin,
  WECHAT_OPEN_ORIGIN: origin,
  SMS_PROVIDER: z.enum(["outbox", "aliyun"]).default("outbox"),
  ALIYUN_ACCESS_KEY_ID: text,
  ALIYUN_ACCESS_KEY_SECRET: text,
  ALIYUN_SMS_SIGN_NAME: text,
  ALIYUN_SMS_TEMPLATE_CODE: text,
  ALIYUN_SMS_ENDPOINT: origin,
  MAIL_TRANSPORT: z.enum(["outbox", "smtp"]).default("outbox"),
  SMTP_URL: text.pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  SMTP_FROM: text,
  PAYMENT_PROVIDER: z.enum(["sandbox", "wechat", "alipay", ""]).optional(),
  PAYMENT_SANDBOX_ALLOW: bool,
  PAYMENT_SANDBOX_SECRET: text.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  WECHATPAY_MCH_ID: text,
  WECHATPAY_APP_ID: text,
  WECHATPAY_SERIAL_NO: text,
  WECHATPAY_PRIVATE_KEY: text,
  WECHATPAY_API_V3_KEY: text.pipe(z.string().length(32, "must be 32 characters").optional()),
  WECHATPAY_PLATFORM_PUBLIC_KEY: text,
  WECHATPAY_PLATFORM_KEY_ID: text,
  WECHATPAY_API_ORIGIN: origin,
  ALIPAY_APP_ID: text,
  ALIPAY_PRIVATE_KEY: text,
  ALIPAY_PUBLIC_KEY: text,
  ALIPAY_GATEWAY: text.pipe(z.url({ protocol: /^https?$/ }).optional()),
});
