import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import type { OrderDetail } from "../../../shared/contracts/orders";
import type { PayMethods } from "../../../shared/contracts/payments";
import { payBrowserOf } from "../../../shared/pay-browser";
import type { NavEnv } from "../../routing/nav-context";
import PaymentPage, { loader } from "./Payment.page";

let loaderData: unknown;
vi.mock("react-router-dom", async (original) => ({
  ...(await original<object>()),
  useLoaderData: () => loaderData,
  useRevalidator: () => ({ state: "idle", revalidate: () => {} }),
}));
vi.mock("../../components/Page", () => ({ Page: ({ children }: { children?: ReactNode }) => <main>{children}</main> }));
vi.mock("../../lib/root-data", () => ({ useRootData: () => ({ payments: "live" }) }));

const WECHAT_PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.54.2760(0x28003637) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const order = {
  orderNo: "M20261207000000000001",
  purpose: "buy",
  itemType: "course",
  itemId: 1,
  skuId: null,
  title: "楷书入门",
  skuName: null,
  coverUrl: "/covers/x.svg",
  quantity: 1,
  unitPriceCents: 19_900,
  totalCents: 19_900,
  couponDiscountCents: 0,
  coinDiscountCents: 0,
  payCents: 19_900,
  physical: false,
  state: "pending",
  stateLabel: "待支付",
  createdAt: "2026-12-07T00:00:00.000Z",
  expiresAt: "2099-12-07T00:30:00.000Z",
  refund: { allowed: false, reason: "未支付" },
  couponTitle: null,
  coinsUsed: 0,
  address: null,
  provider: null,
  paidAt: null,
  shippedAt: null,
  completedAt: null,
  cancelledAt: null,
  cancelReason: null,
  refundedCents: 0,
  carrier: null,
  trackingNo: null,
  timeline: [],
  firstLessonId: null,
  coinOffer: null,
  refundRequest: null,
  refundableQuantity: 0,
  gift: null,
  group: null,
  serverNow: "2026-12-07T00:00:00.000Z",
} as unknown as OrderDetail;

const both: PayMethods = {
  methods: [
    { method: "wechat", label: "微信支付" },
    { method: "alipay", label: "支付宝" },
  ],
};

const render = (ua: string, methods: PayMethods = both) => {
  loaderData = { order, methods, coupons: null, result: null, browser: payBrowserOf(ua) };
  return renderToString(
    <MemoryRouter>
      <PaymentPage />
    </MemoryRouter>,
  );
};

describe("the payment page in the payer's browser", () => {
  it("reads the browser from the request's User-Agent in the loader", async () => {
    const env = { isServer: true, userAgent: WECHAT_PHONE } as NavEnv;
    const request = new Request("http://localhost/payment?order=bad");
    const data = await loader({ env, request, params: {}, signal: request.signal });
    expect(data.browser).toEqual({ wechat: true, handheld: true });
  });

  it("inside WeChat on a phone: Alipay and the QR code are off with the reasons, and no pay button", () => {
    const html = render(WECHAT_PHONE);
    expect(html).toContain("微信内无法使用支付宝付款：请点右上角「…」选择「在浏览器打开」后再付款。");
    expect(html).toContain("本机无法扫描自己屏幕上的码");
    expect(html).toContain("微信内暂时无法完成付款");
    expect(html).not.toContain("立即支付");
    expect(html.match(/disabled=""/g)?.length).toBe(2);
  });

  it("a phone outside WeChat pays with Alipay; the WeChat QR code is off", () => {
    const html = render(ANDROID);
    expect(html).toContain("本机无法扫描自己屏幕上的码");
    expect(html).not.toContain("微信内无法使用支付宝");
    expect(html).toContain("立即支付");
    expect(html).toMatch(/checked="" value="alipay"/);
  });

  it("a computer is offered both, as before", () => {
    const html = render(DESKTOP);
    expect(html).not.toContain("pay-blocked");
    expect(html).toMatch(/checked="" value="wechat"/);
    expect(html).toContain("立即支付");
  });

  it("the sandbox's checkout works everywhere, WeChat included", () => {
    const html = render(WECHAT_PHONE, { methods: [{ method: "sandbox", label: "模拟支付（测试环境）" }] });
    expect(html).not.toContain("pay-blocked");
    expect(html).toContain("立即支付");
  });
});
