/**
 * A test harness for commerce API tests: an app on the demo catalogue listening on a real socket
 * (so concurrent requests use separate pooled connections on PostgreSQL), learners with sessions,
 * JSON calls with the CSRF origin, Idempotency-Key headers, signed sandbox payment notifications
 * and an injectable clock. Call `commerceHarness()` at the top of a test file.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { newSandboxNotification, signSandbox } from "../../api/providers/payments/sandbox";
import { paymentSettingsOf } from "../../api/providers/payments/settings";
import { closeServer, listen, testApp } from "./helpers";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
export type Json = any;

export interface Learner {
  id: number;
  cookie: string;
}

export const DAY = 86_400_000;
export const idem = () => ({ "Idempotency-Key": randomUUID() });

export function commerceHarness(phonePrefix = "137") {
  let h: Awaited<ReturnType<typeof testApp>>;
  let server: Server;
  let base: string;
  let realNow: () => Date;
  let seq = 0;

  beforeAll(async () => {
    h = await testApp({}, {}, {}, { catalogue: true });
    realNow = h.services!.api.now;
    ({ server, base } = await listen(h.app));
  });
  afterAll(async () => {
    await closeServer(server);
    await h.dispose();
  });
  beforeEach(() => {
    h.services!.api.now = realNow;
  });

  const api = () => h.services!.api;
  const db = () => api().database.db;

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
    const phone = `${phonePrefix}${String(10_000_000 + ++seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`;
    const user = await db()
      .insertInto("users")
      .values({ phone, nickname: `学员${seq}`, role })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(
      api().database,
      user.id,
      { userAgent: "vitest", ip: "127.0.0.1", steppedUp },
      api().now(),
    );
    return { id: user.id, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
  }

  async function call(
    who: Learner | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json }> {
    const h2: Record<string, string> = { Accept: "application/json", ...headers };
    if (who) h2.Cookie = who.cookie;
    if (method !== "GET") h2.Origin = "http://localhost:3000";
    if (body !== undefined) h2["Content-Type"] = "application/json";
    const res = await fetch(`${base}${path}`, {
      method,
      headers: h2,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
    });
    const text = await res.text();
    let parsed: Json = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // HTML or empty
    }
    return { status: res.status, body: parsed };
  }

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
    app: () => h,
    api,
    db,
    base: () => base,
    later,
    realNow: () => realNow(),
    learner,
    call,
    notifySandbox,
    paidCourse,
    orderRow,
  };
}
