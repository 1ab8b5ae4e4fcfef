/**
 * Scan-code login (reliability-security case 8): the ticket is bound to the browser that showed
 * it, lives 2 minutes, is used once, and a confirmation made on any web node reaches the
 * computer's event stream.
 */
import { createHash } from "node:crypto";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiContext } from "../../api/context";
import { userForPhone } from "../../api/modules/auth/accounts";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { BROWSER_UA, TestBrowser, closeServer, listen, testApp, testAppOnSameDatabase } from "./helpers";
import { readEventStream } from "./sse";

const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

type TestApp = Awaited<ReturnType<typeof testApp>>;

let first: TestApp;
let second: Awaited<ReturnType<typeof testAppOnSameDatabase>>;
let ctx: ApiContext;
let base: string;
let baseB: string;
const servers: Server[] = [];

beforeAll(async () => {
  first = await testApp();
  second = await testAppOnSameDatabase(first);
  ctx = first.services!.api;
  const a = await listen(first.app);
  const b = await listen(second.app);
  servers.push(a.server, b.server);
  base = a.base;
  baseB = b.base;
});

afterAll(async () => {
  for (const server of servers) await closeServer(server);
  await second?.dispose();
  await first?.dispose();
});

let phoneSeq = 0;
/** A phone with a logged-in session on the server at `on`. */
async function loggedInPhone(on = base) {
  phoneSeq += 1;
  const { user } = await userForPhone(ctx, `1390000${String(1000 + phoneSeq).slice(-4)}`);
  const token = await createSession(ctx.database, user.id, { userAgent: PHONE_UA, ip: "10.1.2.3" }, ctx.now());
  const phone = new TestBrowser(on, PHONE_UA);
  phone.cookies.set(sessionCookieName(ctx.settings.cookies), token);
  return { phone, user };
}

async function newTicket(desktop: TestBrowser) {
  const res = await desktop.json("POST", "/api/auth/qr", {});
  expect(res.status).toBe(201);
  return res.body as { ticket: string; confirmUrl: string; qrSvg: string; expiresAt: string };
}

/** Reads a ticket's Server-Sent Events, each a `{status}`. */
async function openEvents(browser: TestBrowser, ticket: string) {
  const stream = await readEventStream(browser, `/api/auth/qr/${ticket}/events`);
  const statuses = () => stream.events.map((e) => (e.data as { status: string }).status);
  return {
    ...stream,
    get statuses() {
      return statuses();
    },
    waitFor: (status: string, ms?: number) => stream.until(() => statuses().includes(status), status, ms),
  };
}

describe("creating a ticket (desktop)", () => {
  it("answers a random short-lived ticket, a real QR code and an httpOnly bind cookie, storing only its hash", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const before = Date.now();
    const res = await desktop.json("POST", "/api/auth/qr", {});
    const after = Date.now();
    expect(res.status).toBe(201);
    const { ticket, confirmUrl, qrSvg, expiresAt } = res.body;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{6,64}$/);
    expect(Buffer.from(ticket, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(confirmUrl).toBe(`http://localhost:3000/m/qr/${ticket}`);
    expect(qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(qrSvg).toContain("<path");
    // Two minutes from the moment the server answered, which lies between before and after.
    const expires = Date.parse(expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(120_000 - 1_000);
    expect(expires - after).toBeLessThanOrEqual(120_000 + 1_000);

    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("qr_bind="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/qr/);
    const secret = desktop.cookies.get("qr_bind") ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const row = await ctx.database.db.selectFrom("qr_tickets").selectAll().where("id", "=", ticket).executeTakeFirst();
    expect(row?.status).toBe("pending");
    expect(row?.browser_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(row?.requester_ua).toBe(DESKTOP_UA);
    expect(row?.requester_ip).toMatch(/127\.0\.0\.1/);
  });

  it("refuses foreign bodies and cross-site callers", async () => {
    const desktop = new TestBrowser(base);
    expect((await desktop.json("POST", "/api/auth/qr", { userId: 1 })).status).toBe(400);
    const evil = new TestBrowser(base, BROWSER_UA, "https://evil.example");
    expect((await evil.json("POST", "/api/auth/qr", {})).status).toBe(403);
  });
});

describe("scan-code login", () => {
  it("happy path: pending → scanned → confirmed on the stream, then one claim gives this browser a session", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const { ticket } = await newTicket(desktop);
    const { phone, user } = await loggedInPhone();

    const events = await openEvents(desktop, ticket);
    expect(events.res.status).toBe(200);
    expect(events.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.res.headers.get("cache-control")).toBe("no-store");
    expect(events.res.headers.get("x-accel-buffering")).toBe("no");
    expect(events.res.headers.get("content-encoding")).toBeNull();
    await events.waitFor("pending");

    const seen = await phone.json("GET", `/api/auth/qr/${ticket}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      status: "scanned",
      requester: {
        device: expect.stringMatching(/^Chrome( \d+)? · Windows$/),
        ip: "127.0.0.*",
        createdAt: expect.any(String),
      },
      expiresAt: expect.any(String),
    });
    await events.waitFor("scanned");

    const confirmed = await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {});
    expect(confirmed).toMatchObject({ status: 200, body: { status: "confirmed" } });
    await events.waitFor("confirmed");
    await events.ended();
    expect(events.statuses).toEqual(["pending", "scanned", "confirmed"]);

    // The desktop had no session before.
    expect((await desktop.json("GET", "/api/auth/me")).body.viewer).toBeNull();
    const claim = await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {});
    expect(claim.status).toBe(200);
    expect(claim.body.status).toBe("ok");
    expect([null, "complete_info"]).toContain(claim.body.next);
    const me = await desktop.json("GET", "/api/auth/me");
    expect(me.body.viewer).toMatchObject({ id: user.id });

    // Single use: a second claim and a replayed confirm are conflicts.
    const again = await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "qr_state", details: { status: "consumed" } });
    const replay = await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {});
    expect(replay.status).toBe(409);
    expect((await phone.json("GET", `/api/auth/qr/${ticket}`)).body.status).toBe("consumed");
    await events.close();
  });

  it("a second browser with only the ticket id gets nothing: no stream, no claim", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    await phone.json("GET", `/api/auth/qr/${ticket}`);
    expect((await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(200);

    const attacker = new TestBrowser(base, DESKTOP_UA);
    const stream = await openEvents(attacker, ticket);
    expect(stream.res.status).toBe(404);
    await stream.close();
    expect((await attacker.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(404);
    // Its own bind cookie (from its own ticket) does not open someone else's ticket either.
    await newTicket(attacker);
    expect((await attacker.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(404);
    attacker.cookies.set("qr_bind", "x".repeat(43));
    expect((await attacker.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(404);
    expect((await attacker.json("GET", "/api/auth/me")).body.viewer).toBeNull();

    // The rightful browser still can.
    expect((await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(200);
  });

  it("the phone must be logged in to look, confirm or cancel", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const anonymous = new TestBrowser(base, PHONE_UA);
    expect((await anonymous.json("GET", `/api/auth/qr/${ticket}`)).status).toBe(401);
    expect((await anonymous.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(401);
    expect((await anonymous.json("POST", `/api/auth/qr/${ticket}/cancel`, {})).status).toBe(401);
    const { phone } = await loggedInPhone();
    expect((await phone.json("GET", "/api/auth/qr/no-such-ticket")).status).toBe(404);
    expect((await phone.json("GET", "/api/auth/qr/bad!id")).status).toBe(404);
  });

  it("claiming before the phone confirmed is refused with the current state", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const early = await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {});
    expect(early.status).toBe(409);
    expect(early.body.error.details).toEqual({ status: "pending" });
  });

  it("cancel: the stream says cancelled, and the ticket can be neither confirmed nor claimed", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    const events = await openEvents(desktop, ticket);
    await events.waitFor("pending");
    expect((await phone.json("POST", `/api/auth/qr/${ticket}/cancel`, {})).body).toEqual({ status: "cancelled" });
    await events.waitFor("cancelled");
    await events.ended();
    const confirm = await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {});
    expect(confirm.status).toBe(409);
    expect(confirm.body.error.details).toEqual({ status: "cancelled" });
    expect((await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(409);
    expect((await phone.json("GET", `/api/auth/qr/${ticket}`)).body.status).toBe("cancelled");
    await events.close();
  });

  it("the first phone that scans holds the ticket; another account cannot confirm it", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const a = await loggedInPhone();
    const b = await loggedInPhone();
    await a.phone.json("GET", `/api/auth/qr/${ticket}`);
    const taken = await b.phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {});
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("qr_taken");
    expect((await a.phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(200);
  });

  it("confirm is protected against cross-site requests", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    const res = await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {}, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    const crossSite = await phone.json(
      "POST",
      `/api/auth/qr/${ticket}/confirm`,
      {},
      { "Sec-Fetch-Site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    const row = await ctx.database.db
      .selectFrom("qr_tickets")
      .select("status")
      .where("id", "=", ticket)
      .executeTakeFirst();
    expect(row?.status).toBe("pending");
  });
});

describe("expiry", () => {
  it("after 2 minutes a ticket is expired for the phone, the stream and the claim", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    await phone.json("GET", `/api/auth/qr/${ticket}`);
    const realNow = ctx.now;
    ctx.now = () => new Date(Date.now() + 121_000);
    try {
      const seen = await phone.json("GET", `/api/auth/qr/${ticket}`);
      expect(seen.body.status).toBe("expired");
      const confirm = await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {});
      expect(confirm.status).toBe(409);
      expect(confirm.body.error.details).toEqual({ status: "expired" });
      const events = await openEvents(desktop, ticket);
      await events.ended();
      expect(events.statuses).toEqual(["expired"]);
      expect((await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {})).body.error.details).toEqual({
        status: "expired",
      });
    } finally {
      ctx.now = realNow;
    }
  });

  it("a ticket confirmed but not claimed in time cannot be claimed", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    expect((await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(200);
    const realNow = ctx.now;
    ctx.now = () => new Date(Date.now() + 121_000);
    try {
      const claim = await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {});
      expect(claim.status).toBe(409);
      expect(claim.body.error.details).toEqual({ status: "expired" });
    } finally {
      ctx.now = realNow;
    }
  });

  it("an open stream says expired and closes when the time is up", async () => {
    const desktop = new TestBrowser(base);
    const realNow = ctx.now;
    // Made 119.3 s ago: 0.7 s left.
    ctx.now = () => new Date(Date.now() - 119_300);
    let ticket: string;
    try {
      ({ ticket } = await newTicket(desktop));
    } finally {
      ctx.now = realNow;
    }
    const events = await openEvents(desktop, ticket);
    await events.waitFor("pending");
    await events.ended(4000);
    expect(events.statuses).toEqual(["pending", "expired"]);
  });
});

describe("fan-out between web nodes", () => {
  it("a phone confirming on node B reaches the computer's stream on node A", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const { ticket } = await newTicket(desktop);
    const { phone, user } = await loggedInPhone(baseB);
    const events = await openEvents(desktop, ticket);
    await events.waitFor("pending");
    expect((await phone.json("GET", `/api/auth/qr/${ticket}`)).body.status).toBe("scanned");
    await events.waitFor("scanned");
    expect((await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(200);
    await events.waitFor("confirmed");
    await events.ended();
    expect((await desktop.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(200);
    expect((await desktop.json("GET", "/api/auth/me")).body.viewer.id).toBe(user.id);
    expect(first.services!.database.kind).toBe(second.services.database.kind);
    if (process.env.TEST_DATABASE_URL) expect(second.services.database).not.toBe(first.services!.database);
  });

  it("streams on a node clean up their listeners when the client goes away", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const streams = await Promise.all([1, 2, 3].map(() => openEvents(desktop, ticket)));
    for (const s of streams) await s.waitFor("pending");
    for (const s of streams) await s.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Five at most per ticket: after closing, new ones are accepted again.
    const more = await Promise.all([1, 2, 3, 4, 5].map(() => openEvents(desktop, ticket)));
    for (const s of more) expect(s.res.status).toBe(200);
    const sixth = await openEvents(desktop, ticket);
    expect(sixth.res.status).toBe(429);
    await sixth.close();
    for (const s of more) await s.close();
  });
});

describe("a node that drains", () => {
  it("tells the computer's stream to reconnect; on another node it resumes from the ticket's state", async () => {
    const third = await testAppOnSameDatabase(first);
    const c = await listen(third.app);
    try {
      const desktop = new TestBrowser(c.base, DESKTOP_UA);
      const { ticket } = await newTicket(desktop);
      const events = await openEvents(desktop, ticket);
      await events.waitFor("pending");
      expect(third.services.api.eventStreams.drain()).toBe(1);
      await events.ended();
      expect(events.events.at(-1)?.event).toBe("reconnect");

      // The phone scans while the computer is away; it comes back to node A with its bind cookie.
      const { phone, user } = await loggedInPhone();
      expect((await phone.json("GET", `/api/auth/qr/${ticket}`)).body.status).toBe("scanned");
      const back = new TestBrowser(base, DESKTOP_UA);
      for (const [k, v] of desktop.cookies) back.cookies.set(k, v);
      const resumed = await openEvents(back, ticket);
      await resumed.waitFor("scanned");
      expect((await phone.json("POST", `/api/auth/qr/${ticket}/confirm`, {})).status).toBe(200);
      await resumed.waitFor("confirmed");
      await resumed.ended();
      expect((await back.json("POST", `/api/auth/qr/${ticket}/claim`, {})).status).toBe(200);
      expect((await back.json("GET", "/api/auth/me")).body.viewer.id).toBe(user.id);
    } finally {
      await closeServer(c.server);
      await third.dispose();
    }
  });
});

describe("rate limit", () => {
  it("caps ticket creation per IP", async () => {
    const realNow = ctx.now;
    // A fresh window of its own, far from the other tests' tickets.
    const at = new Date(Date.now() + 30 * 86_400_000);
    ctx.now = () => at;
    try {
      const desktop = new TestBrowser(base);
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await desktop.json("POST", "/api/auth/qr", {})).status);
      expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
      expect(statuses[20]).toBe(429);
    } finally {
      ctx.now = realNow;
    }
  });
});

describe("the phone's confirm page /m/qr/:ticket", () => {
  it("shows the requesting device, coarse IP and the two buttons", async () => {
    const desktop = new TestBrowser(base, DESKTOP_UA);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    const res = await phone.fetch(`/m/qr/${ticket}`, { headers: { Accept: "text/html" } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("一台电脑正在请求登录你的账号");
    expect(html).toMatch(/Chrome( \d+)? · Windows/);
    expect(html).toContain("127.0.0.*");
    expect(html).toContain("确认登录");
    expect(html).toContain("取消");
    // Opening the page counts as scanning.
    const row = await ctx.database.db
      .selectFrom("qr_tickets")
      .select("status")
      .where("id", "=", ticket)
      .executeTakeFirst();
    expect(row?.status).toBe("scanned");
  });

  it("asks a logged-out phone to log in first and come back", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const anonymous = new TestBrowser(base, PHONE_UA);
    const res = await anonymous.fetch(`/m/qr/${ticket}`, { headers: { Accept: "text/html" } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain("请先在手机上登录");
    expect(html).toContain(`href="/?login=1&amp;redirect=${encodeURIComponent(`/m/qr/${ticket}`)}"`);
  });

  it("explains an expired ticket, and an unknown one is a 404", async () => {
    const desktop = new TestBrowser(base);
    const { ticket } = await newTicket(desktop);
    const { phone } = await loggedInPhone();
    const realNow = ctx.now;
    ctx.now = () => new Date(Date.now() + 121_000);
    try {
      const html = await (await phone.fetch(`/m/qr/${ticket}`, { headers: { Accept: "text/html" } })).text();
      expect(html).toContain("二维码已过期");
    } finally {
      ctx.now = realNow;
    }
    const missing = await phone.fetch("/m/qr/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { headers: { Accept: "text/html" } });
    expect(missing.status).toBe(404);
  });
});
