/**
 * Payment settings: which provider the site uses (PAYMENT_PROVIDER, default the hosted sandbox),
 * the sandbox's signing secret, and the WeChat Pay / Alipay credentials when configured. The
 * services register them for their API context when they start; without that (a bare context in
 * a unit test) the sandbox is used with a secret kept under DATA_DIR.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ApiContext } from "../../context";

export interface WechatPaySettings {
  mchId: string;
  appId: string;
  /** The merchant API certificate's serial number. */
  serialNo: string;
  /** The merchant private key (PEM). */
  privateKey: string;
  /** APIv3 key: 32 bytes, decrypts notification resources. */
  apiV3Key: string;
  /** The platform public key (PEM) notifications and responses are verified with, and its id. */
  platformPublicKey: string;
  platformKeyId: string;
  apiOrigin: string;
}

export interface AlipaySettings {
  appId: string;
  /** The application private key (PEM), RSA2. */
  privateKey: string;
  /** Alipay's public key (PEM), verifies notifications and responses. */
  alipayPublicKey: string;
  gateway: string;
}

export interface PaymentSettings {
  /** `none`: no provider is configured (pro without PAYMENT_PROVIDER): buying is switched off. */
  provider: "sandbox" | "wechat" | "alipay" | "none";
  sandboxSecret: string;
  wechat?: WechatPaySettings;
  alipay?: AlipaySettings;
}

/** What the configuration gives (server/config.ts): the secret may be left to DATA_DIR. */
export interface PaymentConfig {
  provider: PaymentSettings["provider"];
  sandboxSecret?: string;
  wechat?: WechatPaySettings;
  alipay?: AlipaySettings;
}

export function paymentSettingsFrom(config: PaymentConfig, dataDir: string): PaymentSettings {
  return { ...config, sandboxSecret: config.sandboxSecret ?? sandboxSecretFor(dataDir) };
}

const registry = new WeakMap<ApiContext, PaymentSettings>();

function registerPaymentSettings(ctx: ApiContext, settings: PaymentSettings) {
  registry.set(ctx, settings);
}

/** A secret generated once and kept under DATA_DIR (mode 600). */
/** Registers the payment settings for this context (the order job and the payment endpoints read them), warning when no real money can move. */
export function configurePayments(ctx: ApiContext, settings: PaymentSettings) {
  registerPaymentSettings(ctx, settings);
  if (settings.provider === "sandbox" && ctx.settings.production) {
    ctx.logger.warn("payments go to the built-in sandbox (no real money): set PAYMENT_PROVIDER and its credentials");
  }
  if (settings.provider === "none") {
    ctx.logger.warn(
      "buying is switched off: no payment provider configured; set PAYMENT_PROVIDER=wechat with the WECHATPAY_* variables or PAYMENT_PROVIDER=alipay with the ALIPAY_* variables",
    );
  }
}

function sandboxSecretFor(dataDir: string): string {
  const file = path.join(dataDir, "payment-sandbox.secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  const secret = randomBytes(32).toString("hex");
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function paymentSettingsOf(ctx: ApiContext): PaymentSettings {
  let settings = registry.get(ctx);
  if (!settings) {
    settings = { provider: "sandbox", sandboxSecret: sandboxSecretFor(ctx.settings.dataDir) };
    registry.set(ctx, settings);
  }
  return settings;
}
