/**
 * What the order code asks of a payment provider: start a payment (a page to send the payer to,
 * or a QR code), ask whether an order was paid (before the expiry job closes it), close it at the
 * provider, and refund. Notifications come in through each provider's own verifier.
 */
export type GatewayName = "sandbox" | "wechat" | "alipay";

export interface GatewayOrder {
  orderNo: string;
  payCents: number;
  title: string;
  /** When the provider should stop accepting payment. */
  expiresAt: Date;
}

export interface StartResult {
  redirectUrl: string | null;
  codeUrl: string | null;
}

/** A verified notification (or query answer) that money arrived for an order. */
export interface PaymentNotice {
  provider: GatewayName;
  orderNo: string;
  txnId: string;
  amountCents: number;
  currency: string;
}

export interface RefundRequest {
  orderNo: string;
  txnId: string;
  refundNo: string;
  amountCents: number;
  totalCents: number;
  reason: string;
}

export interface PaymentGateway {
  readonly name: GatewayName;
  start(order: GatewayOrder, urls: { notifyUrl: string; returnUrl: string }): Promise<StartResult>;
  /** The payment if the provider has one for this order, else null. */
  query(orderNo: string): Promise<PaymentNotice | null>;
  close(orderNo: string): Promise<void>;
  refund(request: RefundRequest): Promise<{ ok: boolean; refundId: string; message?: string }>;
}

/** "12.34" ↔ 1234 without floating point. */
export function centsToYuan(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

export function yuanToCents(yuan: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}
