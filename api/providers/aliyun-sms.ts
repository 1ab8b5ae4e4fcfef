/**
 * SMS through Aliyun (阿里云短信服务) SendSms: an HTTPS RPC call signed with HMAC-SHA1
 * (signature version 1.0). The template carries only the code, so a message must bring its
 * `code`. One attempt, no retry (sending is not idempotent), a short timeout, no redirects.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { MessageTransport, OutgoingMessage } from "./messages";

export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  /** https://dysmsapi.aliyuncs.com unless configured (tests point it at a local fake). */
  endpoint: string;
}

export class AliyunSmsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AliyunSmsError";
  }
}

/** Aliyun's percent-encoding: RFC 3986 unreserved characters stay, everything else is %XY (upper case). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Signature version 1.0: HMAC-SHA1 over `METHOD&%2F&encode(sorted, encoded query)`, key `secret&`. */
export function rpcSignature(method: "GET" | "POST", params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((key) => `${percentEncode(key)}=${percentEncode(params[key] ?? "")}`)
    .join("&");
  const stringToSign = `${method}&${percentEncode("/")}&${percentEncode(canonical)}`;
  return createHmac("sha1", `${accessKeySecret}&`).update(stringToSign, "utf8").digest("base64");
}

/** ISO 8601 in UTC without milliseconds, as the API wants it: 2026-05-01T08:00:00Z. */
function rpcTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export interface AliyunSmsOptions {
  timeoutMs?: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

export class AliyunSmsTransport implements MessageTransport {
  private readonly timeoutMs: number;
  private readonly now: () => Date;
  private readonly doFetch: typeof fetch;

  constructor(
    private readonly settings: AliyunSmsSettings,
    options: AliyunSmsOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.now = options.now ?? (() => new Date());
    this.doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== "sms") throw new Error("The Aliyun transport sends SMS only");
    if (!message.code) throw new Error("Aliyun SMS templates need the message's code");
    const params: Record<string, string> = {
      AccessKeyId: this.settings.accessKeyId,
      Action: "SendSms",
      Format: "JSON",
      PhoneNumbers: message.to,
      SignName: this.settings.signName,
      TemplateCode: this.settings.templateCode,
      TemplateParam: JSON.stringify({ code: message.code }),
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: randomUUID(),
      SignatureVersion: "1.0",
      Timestamp: rpcTimestamp(this.now()),
      Version: "2017-05-25",
    };
    const body = new URLSearchParams({
      ...params,
      Signature: rpcSignature("POST", params, this.settings.accessKeySecret),
    });
    let res: Response;
    try {
      res = await this.doFetch(`${this.settings.endpoint}/`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: body.toString(),
        redirect: "manual",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as { name?: string } | null)?.name === "TimeoutError";
      throw new AliyunSmsError(
        timedOut ? "timeout" : "network",
        timedOut ? "Aliyun SMS timed out" : "Aliyun SMS unreachable",
      );
    }
    const text = await res.text();
    let reply: { Code?: unknown; Message?: unknown } | null = null;
    try {
      reply = JSON.parse(text) as { Code?: unknown; Message?: unknown };
    } catch {
      reply = null;
    }
    const code = typeof reply?.Code === "string" ? reply.Code : `http_${res.status}`;
    if (res.status !== 200 || code !== "OK") {
      throw new AliyunSmsError(code, `Aliyun SMS refused: ${code} ${String(reply?.Message ?? "").slice(0, 200)}`);
    }
  }
}
