/**
 * WeChat Open Platform website login (网站应用微信登录): the QR-connect address the browser is
 * sent to, and the two server-side calls that turn its `code` into a profile. Calls go only to
 * the configured origin, with a timeout, without following redirects, and their answers are
 * capped and validated. The app secret never appears in errors or logs.
 */
import { z } from "zod";

export interface WechatSettings {
  appId: string;
  appSecret: string;
  /** https://api.weixin.qq.com unless configured. */
  apiOrigin: string;
  /** https://open.weixin.qq.com unless configured. */
  openOrigin: string;
}

export class WechatError extends Error {
  constructor(
    /** WeChat's errcode, or our own word for a transport failure (timeout, network, http_502, bad_reply). */
    readonly errcode: number | string,
    message: string,
  ) {
    super(message);
    this.name = "WechatError";
  }
}

export interface WechatProfile {
  /** The identity key: unionid when the app belongs to an open-platform account, else openid. */
  providerUid: string;
  openid: string;
  unionid: string | null;
  nickname: string | null;
}

const MAX_REPLY_BYTES = 64 * 1024;

const tokenReply = z.object({
  access_token: z.string().min(1).max(512),
  openid: z.string().min(1).max(128),
  unionid: z.string().min(1).max(128).optional(),
});
const userInfoReply = z.object({
  openid: z.string().min(1).max(128),
  nickname: z.string().max(200).optional(),
  unionid: z.string().min(1).max(128).optional(),
});

/** Where the browser goes to scan: the `state` comes back with the code and must match the browser's cookie. */
export function qrConnectUrl(settings: WechatSettings, redirectUri: string, state: string): string {
  const query = new URLSearchParams({
    appid: settings.appId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "snsapi_login",
    state,
  });
  return `${settings.openOrigin}/connect/qrconnect?${query.toString()}#wechat_redirect`;
}

export interface WechatClient {
  profileForCode(code: string): Promise<WechatProfile>;
}

export function createWechatClient(
  settings: WechatSettings,
  options: { timeoutMs?: number; fetch?: typeof fetch } = {},
): WechatClient {
  const timeoutMs = options.timeoutMs ?? 5000;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function call<T>(path: string, params: Record<string, string>, schema: z.ZodType<T>): Promise<T> {
    const url = `${settings.apiOrigin}${path}?${new URLSearchParams(params).toString()}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        headers: { Accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      // The URL carries the secret: never pass the original error (or its cause) along.
      const timedOut = (err as { name?: string } | null)?.name === "TimeoutError";
      throw new WechatError(
        timedOut ? "timeout" : "network",
        timedOut ? "WeChat API timed out" : "WeChat API unreachable",
      );
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      throw new WechatError(`http_${res.status}`, `WeChat API answered ${res.status}`);
    }
    const length = Number(res.headers.get("content-length") ?? 0);
    if (length > MAX_REPLY_BYTES) throw new WechatError("bad_reply", "WeChat API reply too large");
    const text = await res.text();
    if (text.length > MAX_REPLY_BYTES) throw new WechatError("bad_reply", "WeChat API reply too large");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new WechatError("bad_reply", "WeChat API reply is not JSON");
    }
    const error = body as { errcode?: unknown; errmsg?: unknown } | null;
    if (typeof error?.errcode === "number" && error.errcode !== 0) {
      throw new WechatError(
        error.errcode,
        `WeChat API error ${error.errcode}: ${String(error.errmsg ?? "").slice(0, 200)}`,
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new WechatError("bad_reply", "WeChat API reply has an unexpected shape");
    return parsed.data;
  }

  return {
    async profileForCode(code) {
      const token = await call(
        "/sns/oauth2/access_token",
        { appid: settings.appId, secret: settings.appSecret, code, grant_type: "authorization_code" },
        tokenReply,
      );
      const info = await call(
        "/sns/userinfo",
        { access_token: token.access_token, openid: token.openid, lang: "zh_CN" },
        userInfoReply,
      );
      if (info.openid !== token.openid) throw new WechatError("bad_reply", "WeChat userinfo is for another user");
      const unionid = info.unionid ?? token.unionid ?? null;
      return {
        providerUid: unionid ?? token.openid,
        openid: token.openid,
        unionid,
        nickname: info.nickname?.trim().slice(0, 64) || null,
      };
    },
  };
}
