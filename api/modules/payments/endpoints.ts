/**
 * Payments (/api/payments): the methods on offer, starting a payment, the providers' signed
 * notifications, and the hosted sandbox checkout (a small server-rendered page with approve and
 * decline buttons that POST back; no script, so it works under the strictest CSP).
 */
import { randomBytes } from "node:crypto";
import express, { type Request, type Response } from "express";
import { z } from "zod";
import {
  PAY_METHOD_LABELS,
  payMethodsSchema,
  SANDBOX_PAYMENT_NOTICE,
  startPaymentResultSchema,
  startPaymentSchema,
} from "../../../shared/contracts/payments";
import { formatYuan } from "../../../shared/money";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { orderNoParam } from "../orders/order-no";
import { refuseWhileFrozen } from "../../account-freeze";
import { ApiError, notFound } from "../../http";
import { enforce } from "../../rate-limit";
import {
  alipayNotificationFresh,
  parseAlipayNotification,
  verifyAlipayNotification,
} from "../../providers/payments/alipay";
import type { SandboxNotification } from "../../providers/payments/sandbox";
import { SANDBOX_SIGNATURE_HEADER } from "../../providers/payments/sandbox";
import { paymentSettingsOf } from "../../providers/payments/settings";
import { readWechatPayNotification } from "../../providers/payments/wechat-pay";
import { availableMethods } from "../../providers/payments/gateways";
import { creditPayment, decideSandbox, receiveSandboxNotification, sandboxCheckout, startPayment } from "./payments";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** `refreshSeconds`: reload the page after that long (a meta refresh: the page runs no script). */
function sandboxPage(res: Response, status: number, title: string, body: string, refreshSeconds?: number) {
  const nonce = randomBytes(16).toString("base64");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("X-Robots-Tag", "noindex");
  res.status(status).send(`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ""}
<style nonce="${nonce}">
body{margin:0;font:15px/1.6 "Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;background:#f3f1ec;color:#222}
.bar{background:#1f6f5c;color:#fff;padding:14px 24px;font-weight:600;letter-spacing:.05em}
.bar small{font-weight:400;opacity:.8;margin-left:12px}
main{max-width:520px;margin:40px auto;background:#fff;border-radius:10px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px 32px}
h1{font-size:18px;margin:0 0 4px}.muted{color:#777;font-size:13px}
.amount{font-size:40px;font-weight:700;color:#c0392b;margin:18px 0 8px}
dl{display:grid;grid-template-columns:5em 1fr;gap:6px 12px;margin:16px 0 24px}dt{color:#777}dd{margin:0}
.actions{display:flex;flex-direction:column;gap:10px}
button{font:inherit;padding:11px 16px;border-radius:6px;border:1px solid #ccc;background:#fff;cursor:pointer;text-align:left}
button.primary{background:#1f6f5c;border-color:#1f6f5c;color:#fff;font-weight:600;text-align:center;font-size:16px}
button.danger{color:#c0392b;border-color:#e4b9b3;text-align:center}
fieldset{border:1px dashed #ccc;border-radius:6px;padding:10px 14px;margin:6px 0 0}legend{font-size:13px;color:#777}
fieldset button{width:100%;margin-top:8px}
.notice{padding:12px 14px;border-radius:6px;background:#fbf3e4;color:#8a5a00}
.test-banner{margin:0 0 16px;padding:10px 14px;border-radius:6px;background:#fdecea;color:#a12a1c;font-weight:600}
a{color:#1f6f5c}
</style></head><body><div class="bar">墨池收银台 <small>沙箱测试模式 · 不会产生真实扣款</small></div><main><p class="test-banner" role="note">${SANDBOX_PAYMENT_NOTICE}</p>${body}</main></body></html>`);
}

/** Delay and copies of the sandbox's notification, as the test buttons ask for them; out of range is clamped. */
const sandboxDecisionQuerySchema = z.object({
  delay: z.coerce
    .number()
    .catch(0)
    .transform((ms) => Math.min(10_000, Math.max(0, ms || 0)))
    .describe("支付通知延迟的毫秒数（0–10000）"),
  copies: z.coerce
    .number()
    .catch(1)
    .transform((n) => Math.min(5, Math.max(1, Math.trunc(n) || 1)))
    .describe("支付通知发送的次数（1–5）"),
});

const SANDBOX_DECISIONS: ReadonlyArray<{ decision: "approve" | "decline" | "fail"; label: string }> = [
  { decision: "approve", label: "同意付款（?delay= 延迟发送、?copies= 重复发送支付通知）" },
  { decision: "decline", label: "拒绝付款" },
  { decision: "fail", label: "模拟支付失败（余额不足）" },
];

const checkoutParam = { id: z.string().describe("沙箱支付单编号（32 位十六进制）") };

// The provider's routes are always mounted and check the payment settings per request (the services
// register them when they start); one for a provider that is not in use is a 404 that says so.
const requireSandbox = (ctx: ApiContext) => {
  // Only while the sandbox is the provider (in pro: PAYMENT_SANDBOX_ALLOW).
  if (paymentSettingsOf(ctx).provider !== "sandbox") throw notFound("未启用沙箱支付");
};

export function paymentEndpoints(ctx: ApiContext): Endpoint[] {
  return [...paymentStartEndpoints(ctx), ...notificationEndpoints(ctx), ...sandboxCheckoutEndpoints(ctx)];
}

/** The payment methods in use, and starting a payment of an order. */
function paymentStartEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/payments/methods",
      summary: "可用的支付方式",
      tag: "payments",
      auth: false,
      output: payMethodsSchema,
      handler: (_req, res) => {
        res.json({ methods: availableMethods(ctx).map((method) => ({ method, label: PAY_METHOD_LABELS[method] })) });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/payments/{orderNo}/start",
      summary: "发起支付：沙箱收银台地址、支付宝页面地址或微信支付二维码内容",
      tag: "payments",
      auth: true,
      params: orderNoParam,
      input: startPaymentSchema,
      output: startPaymentResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        refuseWhileFrozen(user, "购买或支付");
        const { orderNo } = params;
        await enforce(
          ctx.database,
          [{ key: `payments:start:${user.id}`, max: 30, windowSeconds: 600, message: "支付请求太频繁，请稍后再试" }],
          ctx.now(),
        );
        res.json(await startPayment(ctx, user.id, orderNo, input.method));
      },
    }),
  ];
}

/** The providers’ notifications (no session: verified by signature). */
function notificationEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "post",
      path: "/payments/notify/sandbox",
      summary:
        "沙箱支付异步通知（JSON：orderNo、txnId、amountCents、currency、timestamp、nonce；HMAC-SHA256 签名，X-Sandbox-Signature；仅沙箱为支付方式时）",
      tag: "payments",
      auth: false,
      output: z.object({ ok: z.literal(true), outcome: z.string() }),
      handler: async (req, res) => {
        requireSandbox(ctx);
        const b = (req.body ?? {}) as Partial<SandboxNotification>;
        const valid =
          typeof b.orderNo === "string" &&
          typeof b.txnId === "string" &&
          Number.isInteger(b.amountCents) &&
          typeof b.currency === "string" &&
          Number.isInteger(b.timestamp) &&
          typeof b.nonce === "string";
        if (!valid) throw new ApiError(400, "invalid_notification", "通知内容不完整");
        const outcome = await receiveSandboxNotification(
          ctx,
          b as SandboxNotification,
          String(req.get(SANDBOX_SIGNATURE_HEADER) ?? ""),
        );
        if (outcome === "bad_signature") throw new ApiError(401, "bad_signature", "签名校验失败");
        if (outcome === "stale") throw new ApiError(400, "stale_notification", "通知已过期");
        if (outcome === "unknown_order") throw new ApiError(404, "unknown_order", "订单不存在");
        if (outcome === "amount_mismatch") throw new ApiError(400, "amount_mismatch", "金额与订单不符");
        res.json({ ok: true, outcome });
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/payments/notify/wechat",
      summary: "微信支付 APIv3 支付通知（按原始字节以平台公钥验签，AES-256-GCM 解密；成功 204；未启用微信支付时 404）",
      tag: "payments",
      auth: false,
      // JSON, but verified over its exact bytes (kept by the API's JSON parser), not validated by a schema.
      raw: { binary: ["application/json"], maxBytes: 32 * 1024 },
      handler: async (req, res) => {
        const settings = paymentSettingsOf(ctx).wechat;
        if (!settings) throw notFound("未启用微信支付");
        const raw = (req as Request & { rawBody?: Buffer }).rawBody?.toString("utf8") ?? JSON.stringify(req.body ?? {});
        const notice = readWechatPayNotification(settings, raw, (name) => req.get(name), ctx.now());
        if (!notice) {
          ctx.logger.warn({ provider: "wechat" }, "payment notification with a bad signature");
          res.status(401).json({ code: "FAIL", message: "签名错误" });
          return;
        }
        if (notice === "stale") {
          ctx.logger.warn(
            { provider: "wechat", sentAt: req.get("wechatpay-timestamp") },
            "stale payment notification refused",
          );
          res.status(400).json({ code: "FAIL", message: "通知已过期" });
          return;
        }
        if (notice === "not_paid") {
          res.status(204).end();
          return;
        }
        const outcome = await creditPayment(ctx, notice);
        if (outcome === "unknown_order" || outcome === "amount_mismatch") {
          res.status(400).json({ code: "FAIL", message: outcome === "unknown_order" ? "订单不存在" : "金额不符" });
          return;
        }
        res.status(204).end();
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/payments/notify/alipay",
      summary: "支付宝异步通知（表单，RSA2 验签；回答 success 或 failure；未启用支付宝时 404）",
      tag: "payments",
      auth: false,
      raw: { binary: ["application/x-www-form-urlencoded"], maxBytes: 16 * 1024 },
      produces: "text/plain",
      before: [express.urlencoded({ extended: false, limit: "16kb" })],
      handler: async (req, res) => {
        const settings = paymentSettingsOf(ctx).alipay;
        if (!settings) throw notFound("未启用支付宝");
        const params = Object.fromEntries(
          Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        );
        res.type("text/plain");
        if (!verifyAlipayNotification(settings, params)) {
          ctx.logger.warn({ provider: "alipay" }, "payment notification with a bad signature");
          res.status(400).send("failure");
          return;
        }
        if (!alipayNotificationFresh(params, ctx.now())) {
          ctx.logger.warn(
            { provider: "alipay", orderNo: params.out_trade_no, sentAt: params.notify_time },
            "stale payment notification refused",
          );
          res.status(400).send("failure");
          return;
        }
        const notice = parseAlipayNotification(settings, params);
        if (!notice) {
          res.send("success");
          return;
        }
        const outcome = await creditPayment(ctx, notice);
        res.status(outcome === "unknown_order" || outcome === "amount_mismatch" ? 400 : 200);
        res.send(outcome === "unknown_order" || outcome === "amount_mismatch" ? "failure" : "success");
      },
    }),
  ];
}

/** The sandbox’s hosted checkout: the page and its decisions. */
function sandboxCheckoutEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/payments/sandbox/checkout/{id}",
      summary: "沙箱收银台页面（HTML，无脚本）：订单金额与同意、拒绝、模拟失败的按钮（仅沙箱为支付方式时）",
      tag: "payments",
      auth: false,
      params: checkoutParam,
      produces: "text/html",
      handler: async (req, res, { params }) => {
        requireSandbox(ctx);
        const checkout = await sandboxCheckout(ctx, params.id);
        if (!checkout) {
          sandboxPage(
            res,
            404,
            "收银台",
            `<h1>支付单不存在</h1><p class="muted">链接可能已失效，请回到订单重新发起支付。</p><p><a href="/my/order">查看我的订单</a></p>`,
          );
          return;
        }
        const back = `/payment?order=${encodeURIComponent(checkout.orderNo)}`;
        const summary = `<h1>${escapeHtml(checkout.title)}</h1>
  <p class="muted">订单号 ${escapeHtml(checkout.orderNo)}</p>
  <div class="amount">¥${formatYuan(checkout.amountCents)}</div>
  <dl><dt>商品</dt><dd>${escapeHtml(checkout.title)}${checkout.skuName ? ` · ${escapeHtml(checkout.skuName)}` : ""} × ${checkout.quantity}</dd>
  <dt>收款方</dt><dd>${escapeHtml(ctx.settings.siteName)}</dd><dt>币种</dt><dd>人民币（CNY）</dd></dl>`;
        const result = `/payment/success?order=${encodeURIComponent(checkout.orderNo)}`;
        if (checkout.state === "approved") {
          // Success only once the site has credited the order; until then the page says so and reloads.
          if (checkout.settlement === "credited")
            sandboxPage(
              res,
              200,
              "收银台",
              `${summary}<p class="notice">支付成功，订单已到账。</p><p><a href="${result}">返回商户</a></p>`,
            );
          else if (checkout.settlement === "refunded")
            sandboxPage(
              res,
              200,
              "收银台",
              `${summary}<p class="notice">订单已关闭或已支付，这笔付款已原路退回。</p><p><a href="/my/order">查看我的订单</a></p>`,
            );
          else
            sandboxPage(
              res,
              200,
              "收银台 · 处理中",
              `${summary}<p class="notice" role="status">处理中：付款已提交，正在等待商户确认到账，本页会自动刷新，请勿重复付款。</p><p><a href="${result}">返回商户</a></p>`,
              2,
            );
          return;
        }
        if (checkout.state !== "open" || checkout.orderState !== "pending") {
          sandboxPage(
            res,
            200,
            "收银台",
            `${summary}<p class="notice">这笔支付已结束。</p><p><a href="${back}">返回商户</a></p>`,
          );
          return;
        }
        const action = (path: string) => `/api/payments/sandbox/checkout/${checkout.id}/${path}`;
        sandboxPage(
          res,
          200,
          `收银台 · ¥${formatYuan(checkout.amountCents)}`,
          `${summary}<form method="post" class="actions">
  <button class="primary" type="submit" formaction="${action("approve")}">同意付款</button>
  <button class="danger" type="submit" formaction="${action("decline")}">拒绝付款</button>
  <fieldset><legend>模拟网关行为（测试用）</legend>
  <button type="submit" formaction="${action("approve?delay=4000")}">同意付款，延迟 4 秒发送支付通知</button>
  <button type="submit" formaction="${action("approve?copies=3")}">同意付款，重复发送 3 次支付通知</button>
  <button type="submit" formaction="${action("fail")}">模拟支付失败（余额不足）</button>
  </fieldset></form>`,
        );
      },
    }),
    ...SANDBOX_DECISIONS.map(({ decision, label }) =>
      defineEndpoint({
        method: "post",
        path: `/payments/sandbox/checkout/{id}/${decision}`,
        summary: `沙箱收银台：${label}，然后 303 跳回商户的支付结果页（仅沙箱为支付方式时）`,
        tag: "payments",
        auth: false,
        params: checkoutParam,
        query: sandboxDecisionQuerySchema,
        produces: "text/html",
        handler: async (req, res, { query, params }) => {
          requireSandbox(ctx);
          const result = await decideSandbox(ctx, params.id, decision, {
            delayMs: query.delay,
            copies: query.copies,
          });
          if (!result) {
            sandboxPage(res, 404, "收银台", `<h1>支付单不存在</h1><p><a href="/my/order">查看我的订单</a></p>`);
            return;
          }
          const order = encodeURIComponent(result.checkout.orderNo);
          result.delivered.catch(() => undefined);
          if (result.checkout.state === "approved") res.redirect(303, `/payment/success?order=${order}`);
          else if (result.checkout.state === "failed") res.redirect(303, `/payment?order=${order}&result=failed`);
          else if (result.checkout.state === "declined") res.redirect(303, `/payment?order=${order}&result=declined`);
          else res.redirect(303, `/payment?order=${order}`);
        },
      }),
    ),
  ];
}
