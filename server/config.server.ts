/**
 * Configuration from the environment (12-factor), with working defaults for the embedded
 * mode. Every variable is documented in the README.
 */
import path from "node:path";
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

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DEPLOY_ENV: z.string().optional(),
  DATA_DIR: z.string().default("./data"),
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
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  STREAM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  DEVTOOLS_BLOCK: bool,
  TEST_FIXTURES: bool,
});

export interface AppConfig {
  production: boolean;
  port: number;
  host: string;
  deployEnv: string;
  dataDir: string;
  /** PostgreSQL server; absent: PGlite under dataDir. */
  databaseUrl?: string;
  publicOrigin: string;
  siteName: string;
  apiOrigin?: string;
  avatarOrigin?: string;
  broadcastOrigin?: string;
  mobileSiteUrl?: string;
  servicePhone: string;
  serviceEmail: string;
  trustProxyHops: number;
  logLevel: string;
  streamTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** Keep serving this long after SIGTERM (readiness already 503) so the load balancer can deregister. */
  drainDelayMs: number;
  devtoolsBlock: boolean;
  testFixtures: boolean;
  /** Built client (dist/client); absent in development, where Vite serves the sources. */
  clientDir?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === "production";
  const deployEnv = e.DEPLOY_ENV ?? (production ? "pro" : "dev");
  if (deployEnv === "pro" && e.TEST_FIXTURES) throw new Error("TEST_FIXTURES cannot be enabled in the pro environment");
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    deployEnv,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    siteName: e.SITE_NAME,
    apiOrigin: e.API_ORIGIN,
    avatarOrigin: e.AVATAR_ORIGIN,
    broadcastOrigin: e.BROADCAST_ORIGIN,
    mobileSiteUrl: e.MOBILE_SITE_URL,
    servicePhone: e.SERVICE_PHONE,
    serviceEmail: e.SERVICE_EMAIL,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    logLevel: e.LOG_LEVEL,
    streamTimeoutMs: e.STREAM_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: e.DRAIN_DELAY_MS,
    devtoolsBlock: e.DEVTOOLS_BLOCK,
    testFixtures: e.TEST_FIXTURES,
    ...overrides,
  };
}
