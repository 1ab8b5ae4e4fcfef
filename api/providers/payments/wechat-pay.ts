/**
 * WeChat Pay APIv3, Native payment (a QR code on the PC page). Requests are signed with the
 * merchant private key (`WECHATPAY2-SHA256-RSA2048`: method, URL, timestamp, nonce and body, each
 * followed by a newline); answers and notifications are verified with the platform public key
 * (timestamp, nonce, body); a notification's resource is AES-256-GCM encrypted with the APIv3 key.
 */
import { createDecipheriv, createSign, createVerify, randomBytes } from "node:crypto";
import { isFreshNotification } from "./freshness";
import type { GatewayOrder, PaymentGateway, PaymentNotice, RefundRequest, StartResult } from "./gateway";
import type { WechatPaySettings } from "./settings";

function wechatSign(privateKey: string, message: string): string {
  return createSign("RSA-SHA256").update(message).sign(privateKey, "base64");
}

function wechatVerify(publicKey: string, message: string, signature: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(message).verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

function authorizationHeader(s: WechatPaySettings, method: string, urlPath: string, body: string, now: Date) {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString("hex");
  const signature = wechatSign(s.privateKey, `${method}\n${urlPath}\n${timestamp}\n${nonce}\n${body}\n`);
  return `WECHATPAY2-SHA256-RSA2048 mchid="${s.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${s.serialNo}"`;
}

/** Decrypts a notification resource (AEAD_AES_256_GCM: the last 16 bytes of the ciphertext are the tag). */
function decryptResource(apiV3Key: string, r: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(r.ciphertext, "base64");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(r.nonce, "utf8"));
  decipher.setAAD(Buffer.from(r.associated_data ?? "", "utf8"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

/** Checks the platform's signature (over Wechatpay-Timestamp, -Nonce and the body), then its age. */
function verifiedBy(
  s: WechatPaySettings,
  body: string,
  header: (name: string) => string | undefined,
  now: Date,
): "ok" | "stale" | "bad" {
  const timestamp = header("wechatpay-timestamp") ?? "";
  const nonce = header("wechatpay-nonce") ?? "";
  const signature = header("wechatpay-signature") ?? "";
  const serial = header("wechatpay-serial") ?? "";
  if (!/^\d{1,12}$/.test(timestamp) || !nonce || !signature) return "bad";
  if (serial && serial !== s.platformKeyId) return "bad";
  if (!wechatVerify(s.platformPublicKey, `${timestamp}\n${nonce}\n${body}\n`, signature)) return "bad";
  return isFreshNotification(Number(timestamp) * 1000, now) ? "ok" : "stale";
}

interface WechatTransaction {
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
  mchid?: string;
  appid?: string;
}

function noticeOf(s: WechatPaySettings, t: WechatTransaction): PaymentNotice | "not_paid" {
  if (t.trade_state !== "SUCCESS" || !t.out_trade_no || !t.transaction_id) return "not_paid";
  if ((t.mchid && t.mchid !== s.mchId) || (t.appid && t.appid !== s.appId)) return "not_paid";
  return {
    provider: "wechat",
    orderNo: t.out_trade_no,
    txnId: t.transaction_id,
    amountCents: Number(t.amount?.total ?? -1),
    currency: t.amount?.currency ?? "CNY",
  };
}

/**
 * Reads a payment notification: null when its signature (or decryption) fails, "stale" when it is
 * genuine but its Wechatpay-Timestamp is more than 5 minutes off (a replay), "not_paid" for events
 * other than a successful payment.
 */
export function readWechatPayNotification(
  s: WechatPaySettings,
  body: string,
  header: (name: string) => string | undefined,
  now: Date = new Date(),
): PaymentNotice | "not_paid" | "stale" | null {
  const verified = verifiedBy(s, body, header, now);
  if (verified !== "ok") return verified === "stale" ? "stale" : null;
  try {
    const event = JSON.parse(body) as {
      event_type?: string;
      resource?: { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string };
    };
    if (!event.resource || event.resource.algorithm !== "AEAD_AES_256_GCM") return null;
    const transaction = JSON.parse(decryptResource(s.apiV3Key, event.resource)) as WechatTransaction;
    if (event.event_type !== "TRANSACTION.SUCCESS") return "not_paid";
    return noticeOf(s, transaction);
  } catch {
    return null;
  }
}

/** "2026-11-22T15:30:00+08:00", as WeChat Pay wants time_expire. */
function rfc3339China(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

export class WechatPayGateway implements PaymentGateway {
  readonly name = "wechat" as const;

  constructor(
    private readonly s: WechatPaySettings,
    private readonly now: () => Date,
  ) {}

  private async call<T>(
    method: "GET" | "POST",
    urlPath: string,
    payload?: unknown,
  ): Promise<{ status: number; body: T | null }> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const res = await fetch(`${this.s.apiOrigin}${urlPath}`, {
      method,
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        Authorization: authorizationHeader(this.s, method, urlPath, body, this.now()),
      },
      body: method === "POST" ? body : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (verifiedBy(this.s, text, (name) => res.headers.get(name) ?? undefined, this.now()) !== "ok")
      throw new Error(`WeChat Pay answer to ${urlPath} failed signature verification (HTTP ${res.status})`);
    return { status: res.status, body: text ? (JSON.parse(text) as T) : null };
  }

  async start(order: GatewayOrder, urls: { notifyUrl: string; returnUrl: string }): Promise<StartResult> {
    const { status, body } = await this.call<{ code_url?: string; message?: string }>(
      "POST",
      "/v3/pay/transactions/native",
      {
        appid: this.s.appId,
        mchid: this.s.mchId,
        description: order.title.slice(0, 40),
        out_trade_no: order.orderNo,
        time_expire: rfc3339China(order.expiresAt),
        notify_url: urls.notifyUrl,
        amount: { total: order.payCents, currency: "CNY" },
      },
    );
    if (status !== 200 || !body?.code_url)
      throw new Error(`WeChat Pay native order failed: HTTP ${status} ${body?.message ?? ""}`);
    return { redirectUrl: null, codeUrl: body.code_url };
  }

  async query(orderNo: string): Promise<PaymentNotice | null> {
    const { status, body } = await this.call<WechatTransaction>(
      "GET",
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.s.mchId)}`,
    );
    if (status === 404 || !body) return null;
    if (status !== 200) throw new Error(`WeChat Pay query failed: HTTP ${status}`);
    const notice = noticeOf(this.s, body);
    return notice === "not_paid" ? null : notice;
  }

  async close(orderNo: string): Promise<void> {
    const { status } = await this.call(
      "POST",
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`,
      {
        mchid: this.s.mchId,
      },
    );
    if (status !== 204 && status !== 200) throw new Error(`WeChat Pay close failed: HTTP ${status}`);
  }

  async refund(r: RefundRequest) {
    const { status, body } = await this.call<{ refund_id?: string; status?: string; message?: string }>(
      "POST",
      "/v3/refund/domestic/refunds",
      {
        transaction_id: r.txnId,
        out_refund_no: r.refundNo,
        reason: r.reason.slice(0, 80),
        amount: { refund: r.amountCents, total: r.totalCents, currency: "CNY" },
      },
    );
    const ok = status === 200 && (body?.status === "SUCCESS" || body?.status === "PROCESSING");
    return { ok, refundId: body?.refund_id ?? "", message: body?.message };
  }
}
