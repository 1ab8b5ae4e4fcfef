/**
 * /api/practice and /calmness: the 千字文 pages, stroke data per character, the practice diary
 * (one entry per China day, the make-up rule, streaks, coins once a day under concurrency, the
 * photo), tracing, the learning calendar and its private ICS feed (parsed back with ical.js).
 * Run on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import ICAL from "ical.js";
import sharp from "sharp";
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { chinaDate } from "../../shared/china-time";
import { characterOfDay, distinctCharacters } from "../../api/modules/practice/endpoints";
import { streaks } from "../../api/modules/practice/diary";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { commerceHarness, type Learner } from "./commerce";
import { BROWSER_UA } from "./helpers";

const { app: harness, api, db, call, learner, base } = commerceHarness("133");
const baseUrl = () => base();
type Express = ReturnType<typeof harness>["app"];
let app: Express;
beforeAll(() => {
  app = harness().app;
});

let seq = 0;
/** A learner whose session starts at `when` (so a clock set months ahead still finds it valid). */
async function learnerOn(when: string): Promise<Learner> {
  const user = await db()
    .insertInto("users")
    .values({
      phone: `132${String(10_000_000 + ++seq * 7919 + (process.pid % 1000) * 13).slice(-8)}`,
      nickname: `练字${seq}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const token = await createSession(api().database, user.id, { userAgent: "vitest", ip: "127.0.0.1" }, new Date(when));
  return { id: user.id, cookie: `${sessionCookieName(api().settings.cookies)}=${token}` };
}

/** Sets the API's clock to a fixed instant (until the next test). */
const at = (iso: string) => {
  const t = new Date(iso);
  api().now = () => t;
};

describe("practice API", () => {
  it("pages through the whole text", async () => {
    const first = await request(app).get("/api/practice/characters?offset=0&limit=24");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(24);
    expect(first.body.items[0]).toEqual({ index: 0, char: "天", phrase: "天地玄黄" });
    expect(first.body.nextOffset).toBe(24);
    const last = await request(app).get(`/api/practice/characters?offset=${first.body.total - 5}&limit=24`);
    expect(last.body.items).toHaveLength(5);
    expect(last.body.nextOffset).toBeNull();
  });

  it("rejects bad queries with a JSON error", async () => {
    for (const q of ["limit=0", "limit=49", "offset=-1", "offset=abc", "extra=1"]) {
      const res = await request(app).get(`/api/practice/characters?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatchObject({ code: "invalid_input", message: "查询参数不正确" });
    }
  });

  it("the character of the day follows the date in China", () => {
    // 23:30 UTC on 21 Nov is already 22 Nov in Beijing.
    expect(characterOfDay(new Date("2026-11-21T23:30:00Z")).date).toBe("2026-11-22");
    const a = characterOfDay(new Date("2026-11-22T01:00:00Z"));
    const b = characterOfDay(new Date("2026-11-23T01:00:00Z"));
    expect(b.character.index).toBe((a.character.index + 1) % 408);
  });

  it("says how many distinct characters it really offers", async () => {
    const first = await request(app).get("/api/practice/characters?offset=0&limit=1");
    expect(first.body.total).toBe(408);
    // The text repeats some characters; the page shows the distinct ones it has stroke data for.
    expect(first.body.distinct).toBe(distinctCharacters.length);
    expect(first.body.distinct).toBeLessThan(408);
    expect(first.body.distinct).toBeGreaterThan(350);
  });

  it("serves one character's stroke data at a time, from our own server", async () => {
    const res = await request(app).get(`/api/practice/strokes/${encodeURIComponent("永")}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.headers["cache-control"]).toContain("public");
    expect(res.body.strokes).toHaveLength(5);
    expect(res.body.medians).toHaveLength(5);
    for (const bad of ["a", "..%2Fpackage", "%E6%B0%B8%E6%B0%B8", "%F0%9F%98%80"]) {
      expect((await request(app).get(`/api/practice/strokes/${bad}`)).status, bad).toBe(404);
    }
  });

  it("unknown API paths are JSON 404s and API replies are private", async () => {
    const res = await request(app).get("/api/nothing");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("generated practice sheets", () => {
  it("draws a CJK character over a 米字格 grid", async () => {
    const res = await request(app).get("/media/glyph/6c38.svg");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/image\/svg\+xml/);
    expect(res.headers["cache-control"]).toContain("immutable");
    const svg = Buffer.from(res.body as Buffer).toString("utf8");
    // The brush font's outline of the character (a path), named for screen readers.
    expect(svg).toContain('aria-label="永"');
    expect(svg).toMatch(/<path d="M[\d.]+ [\d.]+Q/);
  });
  it("refuses anything that is not a CJK code point", async () => {
    for (const f of ["41.svg", "3c.svg", "0041.svg", "6c38.png", "zzzz.svg", "110000.svg"]) {
      expect((await request(app).get(`/media/glyph/${f}`)).status, f).toBe(404);
    }
  });
});

describe("/calmness", () => {
  it("renders the character of the day on the server through the API client", async () => {
    const today = characterOfDay(new Date());
    const res = await request(app).get("/calmness").set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`今日一字「${today.character.char}」`);
    expect(res.text).toContain(`<title>静心习字 - 墨池课堂</title>`);
  });
});

/* ---------------- the practice diary ---------------- */

const put = (who: Learner, date: string, body: Record<string, unknown>) =>
  call(who, "PUT", `/api/practice/diary/${date}`, { minutes: 20, characters: "", note: "", ...body });
const summary = async (who: Learner) => (await call(who, "GET", "/api/practice/diary")).body;

async function checkInLines(userId: number) {
  return db()
    .selectFrom("wallet_entries")
    .select(["amount", "idempotency_key", "ref_type"])
    .where("user_id", "=", userId)
    .where("reason", "=", "daily_check_in")
    .orderBy("id")
    .execute();
}

describe("practice diary", () => {
  it("keeps one entry per China day, editable all day, and the day follows Beijing time", async () => {
    const me = await learnerOn("2026-11-21T00:00:00Z");
    // 23:30 UTC on 21 Nov is 07:30 on 22 Nov in Beijing.
    at("2026-11-21T23:30:00Z");
    const first = await put(me, "2026-11-22", { minutes: 15, characters: "永永和 a 和", note: "起笔要顿" });
    expect(first.status).toBe(200);
    expect(first.body.entry).toMatchObject({ date: "2026-11-22", minutes: 15, characters: "永和", editable: true });
    expect(first.body.coins).toBe(5);
    at("2026-11-22T15:59:00Z"); // 23:59 in Beijing, same day
    const again = await put(me, "2026-11-22", { minutes: 40, characters: "永", note: "" });
    expect(again.status).toBe(200);
    expect(again.body.entry).toMatchObject({ minutes: 40, characters: "永" });
    expect(again.body.coins).toBe(0);
    const rows = await db().selectFrom("practice_diary").selectAll().where("user_id", "=", me.id).execute();
    expect(rows.map((r) => r.day)).toEqual(["2026-11-22"]);
    expect(await checkInLines(me.id)).toEqual([{ amount: 5, idempotency_key: "2026-11-22", ref_type: "check_in" }]);
    const bad = await put(me, "2026-11-22", { minutes: -1 });
    expect(bad.status).toBe(400);
    expect((await put(me, "2026-11-22", { minutes: 10, note: "字".repeat(501) })).status).toBe(400);
  });

  it("lets one missed day be made up the next day only, never earlier, never ahead", async () => {
    const me = await learnerOn("2026-03-10T00:00:00Z");
    at("2026-03-10T04:00:00Z"); // 10 March, noon in Beijing
    expect((await put(me, "2026-03-11", {})).body.error.message).toBe("还没到这一天，不能提前写日记");
    const early = await put(me, "2026-03-08", {});
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("只能补写昨天漏掉的一天，更早的日子不能补写");
    const s0 = await summary(me);
    expect(s0.makeUpDate).toBe("2026-03-09");
    const made = await put(me, "2026-03-09", { minutes: 30, characters: "天地" });
    expect(made.status).toBe(200);
    expect(made.body.entry).toMatchObject({ date: "2026-03-09", madeUp: true, editable: true });
    // A made-up day earns no coins: the coins are today's check-in.
    expect(made.body.coins).toBe(0);
    expect((await put(me, "2026-03-09", { minutes: 35 })).status).toBe(200);
    expect((await summary(me)).makeUpDate).toBeNull();
    at("2026-03-11T01:00:00Z"); // the next day: the made-up entry is closed now
    const late = await put(me, "2026-03-09", { minutes: 50 });
    expect(late.status).toBe(409);
    // A day written on its own day cannot be rewritten the next day.
    const other = await learnerOn("2026-03-10T00:00:00Z");
    at("2026-03-10T04:00:00Z");
    expect((await put(other, "2026-03-10", {})).status).toBe(200);
    at("2026-03-11T04:00:00Z");
    const closed = await put(other, "2026-03-10", { minutes: 99 });
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toBe("昨天的日记已经写过了，只能修改今天的日记");
    expect((await summary(other)).makeUpDate).toBeNull();
  });

  it("counts streaks across month and year ends", () => {
    expect(streaks(["2025-12-30", "2025-12-31", "2026-01-01"], "2026-01-01")).toEqual({ current: 3, longest: 3 });
    expect(streaks(["2026-02-27", "2026-02-28", "2026-03-01"], "2026-03-02")).toEqual({ current: 3, longest: 3 });
    expect(streaks(["2028-02-28", "2028-02-29", "2028-03-01"], "2028-03-01")).toEqual({ current: 3, longest: 3 });
    // A gap (no 29 Feb in 2026... but 2 March missing) breaks the run; today still open keeps yesterday's run.
    expect(streaks(["2026-01-30", "2026-01-31", "2026-02-02", "2026-02-03"], "2026-02-04")).toEqual({
      current: 2,
      longest: 2,
    });
    expect(streaks(["2026-01-30", "2026-01-31"], "2026-02-02")).toEqual({ current: 0, longest: 2 });
    expect(streaks([], "2026-02-02")).toEqual({ current: 0, longest: 0 });
  });

  it("counts streaks by China date across the year end and the UTC date line", async () => {
    const me = await learnerOn("2026-12-30T00:00:00Z");
    at("2026-12-30T03:00:00Z"); // 30 Dec, Beijing
    expect((await put(me, "2026-12-30", {})).status).toBe(200);
    at("2026-12-31T15:30:00Z"); // 23:30 on 31 Dec in Beijing
    expect((await put(me, "2026-12-31", {})).status).toBe(200);
    at("2026-12-31T16:30:00Z"); // 00:30 on 1 Jan 2027 in Beijing, the same UTC date
    expect((await put(me, "2027-01-01", {})).status).toBe(200);
    const s = await summary(me);
    expect(s.today).toBe("2027-01-01");
    expect(s.streak).toEqual({ current: 3, longest: 3 });
    expect(s.totals).toMatchObject({ days: 3, minutes: 60 });
    // Three China days, three check-in lines, though two fell on one UTC date.
    expect((await checkInLines(me.id)).map((l) => l.idempotency_key)).toEqual([
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
    ]);
    expect(s.heat.map((h: { date: string }) => h.date)).toEqual(["2027-01-01", "2026-12-31", "2026-12-30"]);
    at("2027-01-02T04:00:00Z");
    expect((await summary(me)).streak).toEqual({ current: 3, longest: 3 });
    at("2027-01-03T04:00:00Z");
    expect((await summary(me)).streak).toEqual({ current: 0, longest: 3 });
  });

  it("pays the check-in coins once per China day when the diary, tracing and 签到 race", async () => {
    const me = await learner();
    const attempts = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => put(me, chinaDate(new Date()), { minutes: 10 + i, characters: "永" })),
      ...Array.from({ length: 6 }, () => call(me, "POST", "/api/wallet/check-in", {})),
      ...Array.from({ length: 6 }, (_, i) =>
        call(me, "POST", "/api/practice/trace", { char: "天地玄黄宇宙"[i], seconds: 30 }),
      ),
    ]);
    expect(attempts.map((a) => a.status)).toEqual(Array(18).fill(200));
    const lines = await checkInLines(me.id);
    expect(lines).toHaveLength(1);
    const wallet = await db()
      .selectFrom("wallets")
      .select("balance")
      .where("user_id", "=", me.id)
      .where("currency", "=", "coin")
      .executeTakeFirstOrThrow();
    expect(wallet.balance).toBe(5);
    const checkIns = attempts.slice(6, 12).map((a) => a.body.already);
    const paid = attempts.filter((a, i) => (i >= 6 && i < 12 ? a.body.already === false : a.body.coins > 0));
    expect(paid).toHaveLength(1);
    expect(checkIns.filter((x) => x === true).length).toBeGreaterThanOrEqual(5);
    const rows = await db().selectFrom("practice_diary").selectAll().where("user_id", "=", me.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.traced_seconds).toBe(180);
    expect([...rows[0]!.traced_characters].sort()).toEqual([..."天地玄黄宇宙"].sort());
  });

  it("tracing adds its minutes and characters to today's entry, beside the learner's own", async () => {
    const me = await learnerOn("2026-05-04T00:00:00Z");
    at("2026-05-04T02:00:00Z");
    expect((await put(me, "2026-05-04", { minutes: 10, characters: "永" })).status).toBe(200);
    const t1 = await call(me, "POST", "/api/practice/trace", { char: "和", seconds: 50 });
    expect(t1.status).toBe(200);
    const t2 = await call(me, "POST", "/api/practice/trace", { char: "永", seconds: 40 });
    expect(t2.body.entry).toMatchObject({ ownMinutes: 10, tracedMinutes: 2, minutes: 12, characters: "永和" });
    expect(t2.body.entry.tracedCharacters).toBe("和永");
    expect((await call(me, "POST", "/api/practice/trace", { char: "a", seconds: 5 })).status).toBe(400);
    expect((await call(me, "POST", "/api/practice/trace", { char: "和", seconds: 99999 })).status).toBe(400);
    expect((await call(null, "POST", "/api/practice/trace", { char: "和", seconds: 5 })).status).toBe(401);
    const s = await summary(me);
    expect(s.topCharacters[0]).toEqual({ char: "永", days: 1 });
    expect(s.weeks).toHaveLength(12);
    expect(s.weeks.at(-1)).toEqual({ start: "2026-05-04", minutes: 12 });
  });

  it("keeps the photo private and without its EXIF data, with homework's upload rules", async () => {
    const me = await learner();
    const other = await learner();
    const today = chinaDate(new Date());
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#eee" } })
      .jpeg()
      .withExif({ IFD0: { Make: "SecretCam", Copyright: "GPS here" } })
      .toBuffer();
    expect(jpeg.includes("SecretCam")).toBe(true);
    /** `type` null sends no Content-Type, as a browser does for a file it cannot name. */
    const upload = (who: Learner, body: Buffer, type: string | null = "image/jpeg") =>
      fetch(`${baseUrl()}/api/practice/diary/${today}/photo`, {
        method: "POST",
        headers: { Cookie: who.cookie, Origin: "http://localhost:3000", ...(type ? { "Content-Type": type } : {}) },
        body: new Uint8Array(body),
      });
    const bad = await upload(me, Buffer.from("GIF89a not really"), "image/gif");
    expect(bad.status).toBe(415);
    // Judged by the bytes: a photo without a useful type is taken, a page sent as bytes is not.
    expect((await upload(me, jpeg, "application/octet-stream")).status).toBe(201);
    expect((await upload(me, jpeg, null)).status).toBe(201);
    expect(
      (await upload(me, Buffer.from("<html><script>alert(1)</script></html>"), "application/octet-stream")).status,
    ).toBe(415);
    expect((await upload(me, Buffer.from("<html><script>alert(1)</script></html>"), null)).status).toBe(415);
    const res = await upload(me, jpeg);
    expect(res.status).toBe(201);
    const photo = (await res.json()) as { id: string; url: string };
    const mine = await fetch(`${baseUrl()}${photo.url}`, { headers: { Cookie: me.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toContain("private");
    const bytes = Buffer.from(await mine.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(bytes.includes("SecretCam")).toBe(false);
    expect((await fetch(`${baseUrl()}${photo.url}`, { headers: { Cookie: other.cookie } })).status).toBe(404);
    expect((await fetch(`${baseUrl()}${photo.url}`)).status).toBe(401);
    const s = await summary(me);
    expect(s.entries[0].photo.url).toBe(photo.url);
    // Removing it from the entry keeps the rest.
    const kept = await put(me, today, { minutes: 5, keepPhoto: false });
    expect(kept.body.entry.photo).toBeNull();
  });
});

/* ---------------- calendar and feed ---------------- */

async function liveFor(me: Learner, startsAt: Date, title: string) {
  const course = await db()
    .selectFrom("courses")
    .select(["id", "teacher_id"])
    .where("kind", "=", "live")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const row = await db()
    .insertInto("live_sessions")
    .values({
      course_id: null,
      teacher_id: course.teacher_id,
      title,
      cover_char: "永",
      starts_at: startsAt,
      ends_at: new Date(startsAt.getTime() + 3_600_000),
      stream_key: "test",
      chapter_marks: "[]",
      is_open: true,
      updated_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db().insertInto("live_bookings").values({ user_id: me.id, live_id: row.id, created_at: new Date() }).execute();
  return row.id;
}

describe("learning calendar", () => {
  it("merges booked live lessons, camp unlock days and diary entries by China date", async () => {
    const me = await learnerOn("2026-06-13T00:00:00Z");
    const stranger = await learnerOn("2026-06-13T00:00:00Z");
    // 20:00 on 14 June in Beijing = 12:00 UTC.
    const liveId = await liveFor(me, new Date("2026-06-14T12:00:00Z"), "日历测试直播");
    const camp = await db()
      .selectFrom("courses")
      .select("id")
      .where("kind", "=", "camp")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    await db().updateTable("courses").set({ camp_starts_on: "2026-06-10" }).where("id", "=", camp.id).execute();
    await db().insertInto("enrolments").values({ user_id: me.id, course_id: camp.id, source: "admin" }).execute();
    at("2026-06-14T02:00:00Z");
    await put(me, "2026-06-14", { minutes: 25, characters: "永" });
    const res = await call(me, "GET", "/api/practice/calendar?from=2026-06-01&to=2026-06-30");
    expect(res.status).toBe(200);
    const live = res.body.events.find((e: { id: string }) => e.id === `live-${liveId}`);
    expect(live).toMatchObject({ kind: "live", date: "2026-06-14", time: "20:00", href: `/live/${liveId}` });
    expect(live.detail).toContain("已预约");
    const campDays = res.body.events.filter((e: { kind: string }) => e.kind === "camp");
    expect(campDays.length).toBeGreaterThan(0);
    expect(campDays[0]).toMatchObject({ date: "2026-06-10" });
    expect(campDays[0].title).toContain("训练营第 1 天解锁");
    expect(res.body.events.find((e: { kind: string }) => e.kind === "diary")).toMatchObject({
      date: "2026-06-14",
      title: "练字打卡 25 分钟",
    });
    const theirs = await call(stranger, "GET", "/api/practice/calendar?from=2026-06-01&to=2026-06-30");
    expect(theirs.body.events.find((e: { id: string }) => e.id === `live-${liveId}`)).toBeUndefined();
    expect((await call(me, "GET", "/api/practice/calendar?from=2026-06-01&to=2026-12-30")).status).toBe(400);
    expect((await call(null, "GET", "/api/practice/calendar?from=2026-06-01&to=2026-06-30")).status).toBe(401);
  });

  it("serves a private ICS feed that parses, reminds 15 minutes ahead, follows a moved lesson, and can be reset or turned off", async () => {
    const me = await learner();
    const other = await learner();
    const startsAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 86_400_000);
    const liveId = await liveFor(me, startsAt, "订阅测试直播");
    expect((await call(me, "GET", "/api/practice/calendar/feed")).body).toEqual({ enabled: false, url: null });
    const on = await call(me, "POST", "/api/practice/calendar/feed", {});
    expect(on.body.enabled).toBe(true);
    const url = new URL(on.body.url as string);
    expect(url.pathname).toMatch(/^\/api\/practice\/feed\/[A-Za-z0-9_-]{32}\.ics$/);
    const fetchFeed = (path: string) => fetch(`${baseUrl()}${path}`);
    const first = await fetchFeed(url.pathname);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/calendar/);
    const text = await first.text();
    expect(text).toContain("BEGIN:VTIMEZONE\r\nTZID:Asia/Shanghai");
    const parsed = new ICAL.Component(ICAL.parse(text));
    // The feed carries its own VTIMEZONE: register it, as calendar applications do.
    ICAL.TimezoneService.register(parsed.getFirstSubcomponent("vtimezone")!);
    const event = parsed
      .getAllSubcomponents("vevent")
      .find((e) => String(e.getFirstPropertyValue("uid")).startsWith(`live-${liveId}@`));
    expect(event).toBeDefined();
    const ev = new ICAL.Event(event!);
    expect(ev.summary).toBe("直播：订阅测试直播");
    expect(event!.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Asia/Shanghai");
    expect(ev.startDate.toJSDate().getTime()).toBe(startsAt.getTime());
    const alarm = event!.getFirstSubcomponent("valarm")!;
    expect(String(alarm.getFirstPropertyValue("trigger"))).toBe("-PT15M");
    const uid = ev.uid;
    const seq = ev.sequence;

    // The lesson moves: same UID, later start, higher SEQUENCE.
    const moved = new Date(startsAt.getTime() + 2 * 3_600_000);
    await db()
      .updateTable("live_sessions")
      .set({
        starts_at: moved,
        ends_at: new Date(moved.getTime() + 3_600_000),
        updated_at: new Date(Date.now() + 5000),
      })
      .where("id", "=", liveId)
      .execute();
    const again = new ICAL.Component(ICAL.parse(await (await fetchFeed(url.pathname)).text()));
    const ev2 = new ICAL.Event(
      again.getAllSubcomponents("vevent").find((e) => e.getFirstPropertyValue("uid") === uid)!,
    );
    expect(ev2.startDate.toJSDate().getTime()).toBe(moved.getTime());
    expect(ev2.sequence).toBeGreaterThan(seq);

    // Another learner's feed is theirs alone; a made-up token is 404.
    const theirs = await call(other, "POST", "/api/practice/calendar/feed", {});
    const theirText = await (await fetchFeed(new URL(theirs.body.url as string).pathname)).text();
    expect(theirText).not.toContain(`live-${liveId}@`);
    expect((await fetchFeed(`/api/practice/feed/${"A".repeat(32)}.ics`)).status).toBe(404);
    expect((await fetchFeed(`/api/practice/feed/short.ics`)).status).toBe(404);

    // Reset: the old address stops at once, the new one works.
    const reset = await call(me, "POST", "/api/practice/calendar/feed", {});
    expect(reset.body.url).not.toBe(on.body.url);
    expect((await fetchFeed(url.pathname)).status).toBe(404);
    const newPath = new URL(reset.body.url as string).pathname;
    expect((await fetchFeed(newPath)).status).toBe(200);
    // Off: no address works.
    expect((await call(me, "DELETE", "/api/practice/calendar/feed")).body).toEqual({ enabled: false, url: null });
    expect((await fetchFeed(newPath)).status).toBe(404);
  });
});
