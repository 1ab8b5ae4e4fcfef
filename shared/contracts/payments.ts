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
