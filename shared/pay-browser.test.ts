import { describe, expect, it } from "vitest";
import { noUsableMethodHint, payBrowserOf, payMethodBlocked } from "./pay-browser";

const WECHAT_ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 XWEB/1300289 MMWEBSDK/20241103 MicroMessenger/8.0.54.2760(0x28003637) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64";
const WECHAT_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323c) NetType/WIFI Language/zh_CN";
const WECHAT_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/107.0.0.0 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x63090a13) XWEB/9129 Flue";
const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DESKTOP_CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe("payBrowserOf", () => {
  it("knows WeChat's in-app browser on phones and on the desktop", () => {
    expect(payBrowserOf(WECHAT_ANDROID)).toEqual({ wechat: true, handheld: true });
    expect(payBrowserOf(WECHAT_IPHONE)).toEqual({ wechat: true, handheld: true });
    expect(payBrowserOf(WECHAT_WINDOWS)).toEqual({ wechat: true, handheld: false });
  });

  it("tells phones from computers outside WeChat", () => {
    expect(payBrowserOf(ANDROID_CHROME)).toEqual({ wechat: false, handheld: true });
    expect(payBrowserOf(IPHONE_SAFARI)).toEqual({ wechat: false, handheld: true });
    expect(payBrowserOf(DESKTOP_CHROME)).toEqual({ wechat: false, handheld: false });
  });

  it("treats a missing User-Agent as a computer outside WeChat", () => {
    expect(payBrowserOf(undefined)).toEqual({ wechat: false, handheld: false });
    expect(payBrowserOf("")).toEqual({ wechat: false, handheld: false });
  });
});

describe("payMethodBlocked", () => {
  it("blocks Alipay inside WeChat with the way out", () => {
    expect(payMethodBlocked("alipay", payBrowserOf(WECHAT_ANDROID))).toBe(
      "微信内无法使用支付宝付款：请点右上角「…」选择「在浏览器打开」后再付款。",
    );
    expect(payMethodBlocked("alipay", payBrowserOf(WECHAT_WINDOWS))).toContain("微信内无法使用支付宝");
    expect(payMethodBlocked("alipay", payBrowserOf(ANDROID_CHROME))).toBeNull();
    expect(payMethodBlocked("alipay", payBrowserOf(DESKTOP_CHROME))).toBeNull();
  });

  it("blocks the WeChat Pay QR code on the phone that would have to scan it", () => {
    expect(payMethodBlocked("wechat", payBrowserOf(WECHAT_IPHONE))).toContain("请在电脑上打开此页");
    expect(payMethodBlocked("wechat", payBrowserOf(ANDROID_CHROME))).toContain("本机无法扫描");
    expect(payMethodBlocked("wechat", payBrowserOf(DESKTOP_CHROME))).toBeNull();
    expect(payMethodBlocked("wechat", payBrowserOf(WECHAT_WINDOWS))).toBeNull();
  });

  it("never blocks the sandbox's hosted checkout", () => {
    for (const ua of [WECHAT_ANDROID, WECHAT_WINDOWS, ANDROID_CHROME, DESKTOP_CHROME]) {
      expect(payMethodBlocked("sandbox", payBrowserOf(ua))).toBeNull();
    }
  });
});

describe("noUsableMethodHint", () => {
  it("sends WeChat's payers to the system browser and others to a computer", () => {
    expect(noUsableMethodHint(payBrowserOf(WECHAT_ANDROID))).toContain("在浏览器打开");
    expect(noUsableMethodHint(payBrowserOf(ANDROID_CHROME))).toContain("在电脑上打开此页");
  });
});
