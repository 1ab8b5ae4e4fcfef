/**
 * A test harness for commerce API tests: an app on the demo catalogue listening on a real socket
 * (so concurrent requests use separate pooled connections on PostgreSQL), learners with sessions,
 * JSON calls with the CSRF origin, Idempotency-Key headers, signed sandbox payment notifications
 * and an injectable clock. Call `commerceHarness()` at the top of a test file.
 */
import { randomUUID } from "node:crypto";
import { newSandboxNotification, signSandbox } from "../../api/providers/payments/sandbox";
import { paymentSettingsOf } from "../../api/providers/payments/settings";
import { demoAppOnSocket, jsonCall } from "./helpers";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
export type Json = any;

export interface Learner {
  id: number;
  cookie: string;
}

export const DAY = 86_400_000;
export const idem = () => ({ "Idempotency-Key": randomUUID() });

export function commerceHarness(phonePrefix = "137") {
  const { app, api, db, base, realNow, userWithSession } = demoAppOnSocket(phonePrefix);

  /** Moves the API's clock `ms` past the real time (until the next test). */
  const later = (ms: number) => {
    const at = new Date(realNow().getTime() + ms);
    api().now = () => at;
  };

  /**
   * A learner with a session (the login itself is the auth tests' business). The session counts
   * as stepped up, as after a password login, unless `steppedUp` is false (step-up.test.ts).
   */
  async function learner(
    role: "learner" | "teacher" | "operator" = "learner",
    { steppedUp = true }: { steppedUp?: boolean } = {},
  ): Promise<Learner> {
    const { id, cookie } = await userWithSession(role, "学员", steppedUp);
    return { id, cookie };
  }

  const call = (who: Learner | null, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    jsonCall(base(), who, method, path, body, headers);

  /** What the sandbox would send when the payer approves: signed with the configured secret unless given another. */
  async function notifySandbox(
    orderNo: string,
    amountCents: number,
    txnId = `SB${randomUUID().slice(0, 8)}`,
    secret?: string,
  ) {
    // Sent "now" by the API's clock (which a test may have moved): notifications must be fresh.
    const n = newSandboxNotification(orderNo, txnId, amountCents, api().now());
    const signature = signSandbox(n, secret ?? paymentSettingsOf(api()).sandboxSecret);
    return call(null, "POST", "/api/payments/notify/sandbox", n, { "X-Sandbox-Signature": signature });
  }

  /** The `offset`-th paid published course (by id, wrapping around). */
  async function paidCourse(offset = 0) {
    const rows = await db()
      .selectFrom("courses")
      .select(["id", "title", "price_cents"])
      .where("price_cents", ">", 0)
      .where("status", "=", "published")
      .orderBy("id")
      .execute();
    return rows[offset % rows.length]!;
  }

  async function orderRow(orderNo: string) {
    return db().selectFrom("orders").selectAll().where("order_no", "=", orderNo).executeTakeFirstOrThrow();
  }

  return {
    /** The whole test app (for another node on the same database). */
    app,
    api,
    db,
    base,
    later,
    realNow,
    learner,
    call,
    notifySandbox,
    paidCourse,
    orderRow,
  };
}
