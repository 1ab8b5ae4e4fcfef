/**
 * A harness for the staff API tests: the app on the demo catalogue on a real socket (concurrent
 * calls use separate pooled connections on PostgreSQL), accounts of any role with a session,
 * JSON calls with the site's Origin, and anonymous page fetches. `env` reaches the app's config
 * (the page-cache tests turn the caches on).
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { BROWSER_UA, closeServer, listen, testApp } from "./helpers";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
export type Json = any;

export interface Account {
  id: number;
  cookie: string;
  nickname: string;
}

export function staffHarness(phonePrefix: string, env: NodeJS.ProcessEnv = {}) {
  let h: Awaited<ReturnType<typeof testApp>>;
  let server: Server;
  let base: string;
  let realNow: () => Date;
  let seq = 0;

  beforeAll(async () => {
    h = await testApp({}, {}, env, { catalogue: true });
    realNow = h.services!.api.now;
    ({ server, base } = await listen(h.handler));
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

  /** A session that counts as stepped up (as after a password login) unless `steppedUp` is false. */
  async function account(
    role: "learner" | "teacher" | "operator" = "learner",
    { steppedUp = true }: { steppedUp?: boolean } = {},
  ): Promise<Account> {
    seq += 1;
    const phone = `${phonePrefix}${String(10_000_000 + seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`;
    const nickname = `${role === "operator" ? "运营" : role === "teacher" ? "老师" : "学员"}${seq}`;
    const user = await db()
      .insertInto("users")
      .values({ phone, nickname, role })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(
      api().database,
      user.id,
      { userAgent: "vitest", ip: "127.0.0.1", steppedUp },
      api().now(),
    );
    return { id: user.id, nickname, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
  }

  /** A teacher account with its own teacher profile (and the courses given to that profile). */
  async function teacher(): Promise<Account & { teacherId: number }> {
    const who = await account("teacher");
    const row = await db()
      .insertInto("teachers")
      .values({ user_id: who.id, name: who.nickname, portrait_char: "师" })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ...who, teacherId: row.id };
  }

  async function call(
    who: Account | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json; headers: Headers }> {
    const h2: Record<string, string> = { Accept: "application/json", "User-Agent": BROWSER_UA, ...headers };
    if (who) h2.Cookie = who.cookie;
    if (method !== "GET") h2.Origin = "http://localhost:3000";
    let payload: BodyInit | undefined;
    if (Buffer.isBuffer(body)) payload = new Uint8Array(body);
    else if (body !== undefined) {
      h2["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${base}${path}`, { method, headers: h2, body: payload, redirect: "manual" });
    const text = await res.text();
    let parsed: Json = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // HTML or empty
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** An anonymous page as a browser gets it (no cookie: the page cache may answer). */
  async function page(path: string): Promise<{ status: number; html: string; cache: string | null }> {
    const res = await fetch(`${base}${path}`, { headers: { "User-Agent": BROWSER_UA, Accept: "text/html" } });
    return { status: res.status, html: await res.text(), cache: res.headers.get("x-page-cache") };
  }

  return { app: () => h, api, db, base: () => base, account, teacher, call, page };
}
