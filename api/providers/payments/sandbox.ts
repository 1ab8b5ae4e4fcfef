/**
 * The built-in sandbox: a hosted checkout page like a gateway's test mode. It keeps its own
 * record of each checkout (table payment_sandbox), so the expiry job can ask it whether an order
 * was paid, and signs its notifications with HMAC-SHA256 (PAYMENT_SANDBOX_SECRET).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database } from "../../db/database";
import type { PaymentGateway, PaymentNotice, RefundRequest, StartResult, GatewayOrder } from "./gateway";

export interface SandboxNotification {
  orderNo: string;
  txnId: string;
  amountCents: number;
  currency: string;
  timestamp: number;
  nonce: string;
}

export const SANDBOX_SIGNATURE_HEADER = "x-sandbox-signature";

function canonical(n: SandboxNotification): string {
  return [n.orderNo, n.txnId, String(n.amountCents), n.currency, String(n.timestamp), n.nonce].join("\n");
}

export function signSandbox(n: SandboxNotification, secret: string): string {
  return createHmac("sha256", secret).update(canonical(n)).digest("hex");
}

/** Timing-safe check of a notification's signature. */
export function verifySandbox(n: SandboxNotification, signature: string, secret: string): boolean {
  const expected = Buffer.from(signSandbox(n, secret), "hex");
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function newSandboxNotification(orderNo: string, txnId: string, amountCents: number, now: Date) {
  return {
    orderNo,
    txnId,
    amountCents,
    currency: "CNY",
    timestamp: Math.floor(now.getTime() / 1000),
    nonce: randomBytes(8).toString("hex"),
  } satisfies SandboxNotification;
}

export class SandboxGateway implements PaymentGateway {
  readonly name = "sandbox" as const;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  async start(order: GatewayOrder): Promise<StartResult> {
    const id = randomBytes(16).toString("hex");
    await this.database.db
      .insertInto("payment_sandbox")
      .values({ id, order_no: order.orderNo, amount_cents: order.payCents, created_at: this.now() })
      .execute();
    return { redirectUrl: `/api/payments/sandbox/checkout/${id}`, codeUrl: null };
  }

  async query(orderNo: string): Promise<PaymentNotice | null> {
    const row = await this.database.db
      .selectFrom("payment_sandbox")
      .selectAll()
      .where("order_no", "=", orderNo)
      .where("state", "=", "approved")
      .orderBy("decided_at", "asc")
      .executeTakeFirst();
    if (!row || !row.txn_id) return null;
    return {
      provider: "sandbox",
      orderNo,
      txnId: row.txn_id,
      amountCents: row.amount_cents,
      currency: row.currency,
    };
  }

  async close(orderNo: string): Promise<void> {
    await this.database.db
      .updateTable("payment_sandbox")
      .set({ state: "declined", decided_at: this.now() })
      .where("order_no", "=", orderNo)
      .where("state", "=", "open")
      .execute();
  }

  async refund(request: RefundRequest) {
    return { ok: true, refundId: `SBR${request.refundNo}` };
  }
}
