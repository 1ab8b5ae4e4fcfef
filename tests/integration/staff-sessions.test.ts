/**
 * Staff sessions (issue "Hardening", item 11; reference §6 case 3): teachers and operators are
 * signed out after 2 h without a request and 12 h after signing in, by their role at each
 * request; learners keep 14 days idle and 30 days in all. A password change ends every other
 * session of the account, a reset by code ends them all. The clock is the API's (`now`).
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../api/modules/auth/passwords";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { lastCodeFor, testAppPerFile } from "./helpers";

const ORIGIN = "http://localhost:3000";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
type Role = "learner" | "teacher" | "operator";
const file = testAppPerFile({}, {}, {});
let seq = 0;

const api = () => file.h.services!.api;
const db = () => api().database.db;
const at = (when: Date) => {
  api().now = () => when;
};
const plus = (from: Date, ms: number) => new Date(from.getTime() + ms);

async function account(role: Role, extra: { email?: string; password?: string } = {}) {
  seq += 1;
  const phone = `136${String(30_000_000 + seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`;
  const row = await db()
    .insertInto("users")
    .values({
      phone,
      nickname: `账号${seq}`,
      role,
      email: extra.email ?? null,
      password_hash: extra.password ? await hashPassword(extra.password) : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, phone };
}

/** A session of the account signed in at `when`. */
/** A session started at `when`; it counts as stepped up then (as after a password login). */
async function sessionAt(userId: number, when: Date): Promise<string> {
  const meta = { userAgent: "vitest", ip: "127.0.0.1", steppedUp: true };
  const token = await createSession(api().database, userId, meta, when);
  return `${sessionCookieName(api().settings.cookies)}=${token}`;
}

/** Who the API sees at the clock's time (null: anonymous). */
const viewer = async (cookie: string): Promise<{ id: number; role: Role } | null> =>
  (await request(file.h.app).get("/api/auth/me").set("Cookie", cookie)).body.viewer;

const post = (path: string, body: object, cookie?: string) => {
  const r = request(file.h.app).post(path).set("Origin", ORIGIN).send(body);
  return cookie ? r.set("Cookie", cookie) : r;
};

describe("staff session limits", () => {
  it("signs a teacher out after 2 h and 1 s without a request, and keeps one who works within 2 h", async () => {
    const teacher = await account("teacher");
    const t0 = file.realNow();
    const idle = await sessionAt(teacher.id, t0);
    const working = await sessionAt(teacher.id, t0);
    const edge = await sessionAt(teacher.id, t0);

    at(plus(t0, 2 * HOUR - 1000));
    expect(await viewer(edge)).toMatchObject({ id: teacher.id, role: "teacher" });
    at(plus(t0, 2 * HOUR + 1000));
    expect(await viewer(idle)).toBeNull();

    // A request every 1 h 59 min keeps the session, up to the 12 h limit.
    for (const step of [1, 2, 3]) {
      at(plus(t0, step * (2 * HOUR - MINUTE)));
      expect(await viewer(working), `after ${step} steps`).not.toBeNull();
    }
    at(plus(t0, 3 * (2 * HOUR - MINUTE) + 2 * HOUR + 1000));
    expect(await viewer(working)).toBeNull();

    // The list of the teacher's sessions leaves out the ones past the limits.
    const fresh = await sessionAt(teacher.id, plus(t0, 8 * HOUR));
    at(plus(t0, 8 * HOUR + MINUTE));
    const listed = await request(file.h.app).get("/api/me/sessions").set("Cookie", fresh);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0].current).toBe(true);
  });

  it("signs an operator out 12 h after signing in, however active", async () => {
    const operator = await account("operator");
    const t0 = file.realNow();
    const cookie = await sessionAt(operator.id, t0);
    for (let minutes = 50; minutes < 12 * 60; minutes += 50) {
      at(plus(t0, minutes * MINUTE));
      expect(await viewer(cookie), `${minutes} min`).not.toBeNull();
    }
    at(plus(t0, 12 * HOUR - 1000));
    expect(await viewer(cookie)).not.toBeNull();
    at(plus(t0, 12 * HOUR));
    expect(await viewer(cookie)).toBeNull();
  });

  it("keeps a learner's limits: 14 days idle, 30 days in all", async () => {
    const learner = await account("learner");
    const t0 = file.realNow();
    const active = await sessionAt(learner.id, t0);
    const idle = await sessionAt(learner.id, t0);
    for (const after of [3 * HOUR, 13 * HOUR, 13 * DAY, 26 * DAY, 30 * DAY - 1000]) {
      at(plus(t0, after));
      expect(await viewer(active), `${after / HOUR} h`).toMatchObject({ id: learner.id, role: "learner" });
    }
    at(plus(t0, 30 * DAY));
    expect(await viewer(active)).toBeNull();

    at(plus(t0, 14 * DAY - 1000));
    expect(await viewer(idle)).not.toBeNull();
    at(plus(t0, 14 * DAY - 1000 + 14 * DAY + 1000));
    expect(await viewer(idle)).toBeNull();
  });

  it("gives a learner made operator the staff limits at the next request", async () => {
    const boss = await account("operator");
    const t0 = file.realNow();
    // Signed in 13 h ago and active just now: fine for a learner, past a staff session's 12 h.
    const longDay = await account("learner");
    const longCookie = await sessionAt(longDay.id, t0);
    // Active 3 h ago: fine for a learner, past a staff session's 2 h idle.
    const quiet = await account("learner");
    const quietCookie = await sessionAt(quiet.id, plus(t0, 10 * HOUR));

    at(plus(t0, 13 * HOUR));
    expect(await viewer(longCookie)).toMatchObject({ role: "learner" });
    const bossCookie = await sessionAt(boss.id, plus(t0, 13 * HOUR));
    for (const who of [longDay, quiet]) {
      const granted = await post(`/api/admin/users/${who.id}/role`, { action: "grant", role: "operator" }, bossCookie);
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    }
    at(plus(t0, 13 * HOUR + MINUTE));
    expect(await viewer(longCookie)).toBeNull();
    expect(await viewer(quietCookie)).toBeNull();
    expect(await viewer(bossCookie)).not.toBeNull();
  });

  it("gives a staff sign-in a 12 h cookie and a learner's a 30 day one", async () => {
    for (const [role, maxAge] of [
      ["teacher", 12 * 3600],
      ["operator", 12 * 3600],
      ["learner", 30 * 86_400],
    ] as const) {
      const { phone } = await account(role);
      expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
      const res = await post("/api/auth/sms/login", { phone, code: lastCodeFor(api().outbox, phone) });
      expect(res.status).toBe(200);
      const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="));
      expect(raw, role).toMatch(new RegExp(`Max-Age=${maxAge};`));
    }
  });
});

describe("the sessions others see", () => {
  it("lists only sessions within the role's limits, in the security page and the operator's account page", async () => {
    const boss = await account("operator");
    const teacher = await account("teacher");
    const t0 = file.realNow();
    const quiet = await sessionAt(teacher.id, t0);
    const busy = await sessionAt(teacher.id, plus(t0, 2 * HOUR));
    at(plus(t0, 2 * HOUR + MINUTE));
    // The quiet one is past a teacher's 2 h idle: it no longer works, and no list shows it.
    expect(await viewer(quiet)).toBeNull();
    const own = await request(file.h.app).get("/api/me/sessions").set("Cookie", busy);
    expect(own.status).toBe(200);
    expect(own.body.items).toHaveLength(1);
    const bossCookie = await sessionAt(boss.id, plus(t0, 2 * HOUR + MINUTE));
    const detail = await request(file.h.app).get(`/api/admin/users/${teacher.id}`).set("Cookie", bossCookie);
    expect(detail.status).toBe(200);
    expect(detail.body.sessions).toHaveLength(1);
  });
});

describe("passwords and sessions", () => {
  it("a password change keeps this session and ends the account's others", async () => {
    const teacher = await account("teacher", { password: "Old-brush-2026" });
    const other = await account("teacher");
    const t0 = file.realNow();
    const here = await sessionAt(teacher.id, t0);
    const phone = await sessionAt(teacher.id, t0);
    const laptop = await sessionAt(teacher.id, t0);
    const someoneElse = await sessionAt(other.id, t0);
    const changed = await post("/api/me/password", { current: "Old-brush-2026", password: "New-brush-2026" }, here);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await viewer(here)).toMatchObject({ id: teacher.id });
    expect(await viewer(phone)).toBeNull();
    expect(await viewer(laptop)).toBeNull();
    expect(await viewer(someoneElse)).toMatchObject({ id: other.id });
  });

  it("a reset by code ends every session of the account", async () => {
    const email = `teacher${seq + 1}-${process.pid}@example.cn`;
    const teacher = await account("teacher", { email, password: "Forgot-it-2026" });
    const t0 = file.realNow();
    const first = await sessionAt(teacher.id, t0);
    const second = await sessionAt(teacher.id, t0);
    expect((await post("/api/auth/reset/send", { channel: "email", target: email })).status).toBe(200);
    const reset = await post(
      "/api/auth/reset",
      { channel: "email", target: email, code: lastCodeFor(api().outbox, email), password: "Found-it-2026" },
      first,
    );
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(await viewer(first)).toBeNull();
    expect(await viewer(second)).toBeNull();
  });
});
