/**
 * A harness for the staff API tests: the app on the demo catalogue on a real socket (concurrent
 * calls use separate pooled connections on PostgreSQL), accounts of any role with a session,
 * JSON calls with the site's Origin, and anonymous page fetches. `env` reaches the app's config
 * (the page-cache tests turn the caches on).
 */
import { BROWSER_UA, demoAppOnSocket, jsonCall } from "./helpers";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
export type Json = any;

export interface Account {
  id: number;
  cookie: string;
  nickname: string;
}

export function staffHarness(phonePrefix: string, env: NodeJS.ProcessEnv = {}) {
  const { app, api, db, base, userWithSession } = demoAppOnSocket(phonePrefix, env, "handler");

  /** A session that counts as stepped up (as after a password login) unless `steppedUp` is false. */
  function account(
    role: "learner" | "teacher" | "operator" = "learner",
    { steppedUp = true }: { steppedUp?: boolean } = {},
  ): Promise<Account> {
    return userWithSession(role, role === "operator" ? "运营" : role === "teacher" ? "老师" : "学员", steppedUp);
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

  const call = (
    who: Account | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => jsonCall(base(), who, method, path, body, { "User-Agent": BROWSER_UA, ...headers });

  /** An anonymous page as a browser gets it (no cookie: the page cache may answer). */
  async function page(path: string): Promise<{ status: number; html: string; cache: string | null }> {
    const res = await fetch(`${base()}${path}`, { headers: { "User-Agent": BROWSER_UA, Accept: "text/html" } });
    return { status: res.status, html: await res.text(), cache: res.headers.get("x-page-cache") };
  }

  /** Polls a public page until `test` holds (the change notification arrives asynchronously). */
  async function pageUntil(path: string, test: (html: string) => boolean): Promise<string> {
    let html = "";
    for (let i = 0; i < 40; i++) {
      html = (await page(path)).html;
      if (test(html)) return html;
      await new Promise((r) => setTimeout(r, 50));
    }
    return html;
  }

  return { app, api, db, base, account, teacher, call, page, pageUntil };
}
