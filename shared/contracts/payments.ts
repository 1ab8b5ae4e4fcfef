/** Payment (/api/payments): the methods on offer and starting a payment for an order. */
import { z } from "zod";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

export const payMethodSchema = z.enum(["sandbox", "wechat", "alipay"], "请选择支付方式");
export type PayMethod = z.infer<typeof payMethodSchema>;

export const PAY_METHOD_LABELS: Record<PayMethod, string> = {
  sandbox: "模拟支付（测试环境）",
  wechat: "微信支付",
  alipay: "支付宝",
};

/**
 * How this site takes payments, as every page sees it: `live` (WeChat Pay / Alipay), `sandbox`
 * (test payments, no real money: pages say 测试支付) or `off` (no provider configured: buying is off).
 */
export type PaymentsMode = "live" | "sandbox" | "off";
/** Why the buy buttons are off while no payment provider is configured. */
export const PAYMENTS_OFF_MESSAGE = "本站暂未开通在线支付";
/** The API's answer to an order while buying is off. */
export const PAYMENTS_OFF_ORDER_MESSAGE = "本站暂未开通在线支付，暂时无法下单";
/** The banner on checkout and order pages while payments go to the sandbox. */
export const SANDBOX_PAYMENT_NOTICE = "测试支付：本站当前使用模拟支付，不会产生真实扣款，订单仅供测试。";

export const startPaymentSchema = z.strictObject({ method: payMethodSchema }, { error: strictError });

export const startPaymentResultSchema = z.object({
  method: payMethodSchema,
  /** Where the payer goes next (the hosted checkout or the gateway's page). */
  redirectUrl: z.string().nullable(),
  /** WeChat Native: the QR code's content. */
  codeUrl: z.string().nullable(),
  /** The QR code for codeUrl as SVG markup, made on the server. */
  qrSvg: z.string().nullable(),
});
export type StartPaymentResult = z.infer<typeof startPaymentResultSchema>;

export const payMethodsSchema = z.object({
  methods: z.array(z.object({ method: payMethodSchema, label: z.string() })),
});
export type PayMethods = z.infer<typeof payMethodsSchema>;
