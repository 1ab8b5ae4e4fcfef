/**
 * Which payment methods can work in the payer's browser, read from its User-Agent (on the server
 * for the first page, so the hint is in the HTML; in the browser after that).
 *
 * - WeChat's in-app browser (`MicroMessenger`) does not open Alipay's pages.
 * - WeChat Pay here is Native payment: a QR code to scan with WeChat. A phone or tablet cannot
 *   scan its own screen, so there it needs a second device (a computer showing this page).
 */
import type { PayMethod } from "./contracts/payments";

export interface PayBrowser {
  /** WeChat's in-app browser (also WeCom's, which says MicroMessenger too). */
  wechat: boolean;
  /** A phone or tablet: a QR code on its screen cannot be scanned by itself. */
  handheld: boolean;
}

const WECHAT = /MicroMessenger/i;
const HANDHELD = /Mobi|Android|iPhone|iPad|iPod|HarmonyOS|OpenHarmony|Windows Phone/i;

export function payBrowserOf(userAgent: string | null | undefined): PayBrowser {
  const ua = userAgent ?? "";
  return { wechat: WECHAT.test(ua), handheld: HANDHELD.test(ua) };
}

/** Open this page in the phone's own browser: what WeChat's menu calls it. */
const OPEN_IN_BROWSER = "请点右上角「…」选择「在浏览器打开」后再付款";

/**
 * Why `method` cannot be used in this browser, in words for the payer, or null when it can.
 * The sandbox's hosted checkout is a plain page and works everywhere.
 */
export function payMethodBlocked(method: PayMethod, browser: PayBrowser): string | null {
  if (method === "alipay" && browser.wechat) return `微信内无法使用支付宝付款：${OPEN_IN_BROWSER}。`;
  if (method === "wechat" && browser.handheld) {
    return "微信支付需用微信扫描二维码，本机无法扫描自己屏幕上的码：请在电脑上打开此页，再用手机微信扫码付款。";
  }
  return null;
}

/** When no method on offer works here: what the payer can do instead. */
export function noUsableMethodHint(browser: PayBrowser): string {
  if (browser.wechat) return `微信内暂时无法完成付款：${OPEN_IN_BROWSER}，或在电脑上打开此页扫码付款。`;
  return "这台设备上暂时无法完成付款：请在电脑上打开此页，用手机微信扫码付款。";
}
