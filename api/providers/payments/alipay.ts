/**
 * Alipay, PC page payment (alipay.trade.page.pay). Every request is signed RSA2 (SHA256withRSA)
 * over its parameters sorted by name as `k=v&k=v` (without sign and empty values); asynchronous
 * notifications are verified the same way without sign and sign_type, with Alipay's public key;
 * API answers are verified over the raw JSON of their response node.
 */
import { createSign, createVerify } from "node:crypto";
import { isFreshNotification } from "./freshness";
import {
  centsToYuan,
  yuanToCents,
  type GatewayOrder,
  type PaymentGateway,
  type PaymentNotice,
  type RefundRequest,
  type StartResult,
} from "./gateway";
import type { AlipaySettings } from "./settings";

export function alipaySignContent(params: Record<string, string>, omit: string[] = ["sign"]): string {
  return Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== undefined && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

export function alipaySign(privateKey: string, content: string): string {
  return createSign("RSA-SHA256").update(content, "utf8").sign(privateKey, "base64");
}

function alipayVerify(publicKey: string, content: string, signature: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(content, "utf8").verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

export function verifyAlipayNotification(s: AlipaySettings, params: Record<string, string>): boolean {
  if (!params.sign || (params.sign_type && params.sign_type !== "RSA2")) return false;
  return alipayVerify(s.alipayPublicKey, alipaySignContent(params, ["sign", "sign_type"]), params.sign);
}

/** Whether a notification's notify_time ("2026-11-22 15:30:00", China time) is within the freshness window. */
export function alipayNotificationFresh(params: Record<string, string>, now: Date): boolean {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(params.notify_time ?? "");
  return isFreshNotification(m ? Date.parse(`${m[1]}T${m[2]}+08:00`) : NaN, now);
}

/** The payment a verified notification reports, or null when it is not a successful payment for our app. */
export function parseAlipayNotification(s: AlipaySettings, p: Record<string, string>): PaymentNotice | null {
  if (p.app_id !== s.appId) return null;
  if (p.trade_status !== "TRADE_SUCCESS" && p.trade_status !== "TRADE_FINISHED") return null;
  if (!p.out_trade_no || !p.trade_no) return null;
  return {
    provider: "alipay",
    orderNo: p.out_trade_no,
    txnId: p.trade_no,
    amountCents: yuanToCents(p.total_amount ?? "") ?? -1,
    currency: "CNY",
  };
}

/** The raw text of `"<key>": {…}` inside a JSON document (what Alipay signs), or null. */
function rawJsonNode(text: string, key: string): string | null {
  const at = text.indexOf(`"${key}"`);
  if (at < 0) return null;
  const start = text.indexOf("{", at + key.length + 2);
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** "2026-11-22 15:30:00" in China time. */
export function chinaTimestamp(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
}

export class AlipayGateway implements PaymentGateway {
  readonly name = "alipay" as const;

  constructor(
    private readonly s: AlipaySettings,
    private readonly now: () => Date,
  ) {}

  signedParams(method: string, biz: unknown, extra: Record<string, string> = {}): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.s.appId,
      method,
      format: "JSON",
      charset: "utf-8",
      sign_type: "RSA2",
      timestamp: chinaTimestamp(this.now()),
      version: "1.0",
      biz_content: JSON.stringify(biz),
      ...extra,
    };
    params.sign = alipaySign(this.s.privateKey, alipaySignContent(params));
    return params;
  }

  private async call<T>(method: string, biz: unknown): Promise<T> {
    const params = this.signedParams(method, biz);
    const res = await fetch(this.s.gateway, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=utf-8" },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const nodeKey = `${method.replace(/\./g, "_")}_response`;
    const node = rawJsonNode(text, nodeKey);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const sign = typeof parsed.sign === "string" ? parsed.sign : "";
    if (!node || !alipayVerify(this.s.alipayPublicKey, node, sign))
      throw new Error(`Alipay answer to ${method} failed signature verification (HTTP ${res.status})`);
    return JSON.parse(node) as T;
  }

  async start(order: GatewayOrder, urls: { notifyUrl: string; returnUrl: string }): Promise<StartResult> {
    const params = this.signedParams(
      "alipay.trade.page.pay",
      {
        out_trade_no: order.orderNo,
        product_code: "FAST_INSTANT_TRADE_PAY",
        total_amount: centsToYuan(order.payCents),
        subject: order.title.slice(0, 128),
        time_expire: chinaTimestamp(order.expiresAt),
      },
      { notify_url: urls.notifyUrl, return_url: urls.returnUrl },
    );
    return { redirectUrl: `${this.s.gateway}?${new URLSearchParams(params).toString()}`, codeUrl: null };
  }

  async query(orderNo: string): Promise<PaymentNotice | null> {
    const r = await this.call<{
      code?: string;
      trade_status?: string;
      trade_no?: string;
      out_trade_no?: string;
      total_amount?: string;
    }>("alipay.trade.query", { out_trade_no: orderNo });
    if (r.code !== "10000" || (r.trade_status !== "TRADE_SUCCESS" && r.trade_status !== "TRADE_FINISHED")) return null;
    if (r.out_trade_no !== orderNo || !r.trade_no) return null;
    return {
      provider: "alipay",
      orderNo,
      txnId: r.trade_no,
      amountCents: yuanToCents(r.total_amount ?? "") ?? -1,
      currency: "CNY",
    };
  }

  async close(orderNo: string): Promise<void> {
    await this.call("alipay.trade.close", { out_trade_no: orderNo });
  }

  async refund(r: RefundRequest) {
    const answer = await this.call<{ code?: string; trade_no?: string; msg?: string; sub_msg?: string }>(
      "alipay.trade.refund",
      {
        out_trade_no: r.orderNo,
        refund_amount: centsToYuan(r.amountCents),
        out_request_no: r.refundNo,
        refund_reason: r.reason.slice(0, 256),
      },
    );
    return { ok: answer.code === "10000", refundId: r.refundNo, message: answer.sub_msg ?? answer.msg };
  }
}
