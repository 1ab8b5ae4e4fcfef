/**
 * Live lessons: the schedule, states moved by the clock (job and reads), booking and its
 * one-time reminder, who may watch, chat (validation, rate limit, SSE with history and resume,
 * fan-out between two web nodes on one database), check-in once and attendance by heartbeat.
 */
import type { Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApiContext } from "../../api/context";
import { advanceLiveSessions, LIVE_START_NOTICE_KIND } from "../../api/modules/live/state-job";
import { publishRoomEvent } from "../../api/modules/live/room-hub";
import { TestBrowser, closeServer, listen, testApp, testAppOnSameDatabase } from "./helpers";
import { readEventStream } from "./sse";

type TestApp = Awaited<ReturnType<typeof testApp>>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let first: TestApp;
let second: Awaited<ReturnType<typeof testAppOnSameDatabase>>;
let ctx: ApiContext;
let realNow: () => Date;
let base: string;
let baseB: string;
const servers: Server[] = [];
const seededAt = new Date();

beforeAll(async () => {
  first = await testApp({}, {}, {}, { catalogue: true, now: seededAt });
  second = await testAppOnSameDatabase(first);
  ctx = first.services!.api;
  realNow = ctx.now;
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

afterEach(() => {
  ctx.now = realNow;
});

const setNow = (at: Date) => {
  ctx.now = () => at;
};

let phoneSeq = 0;
/** A learner signed in by phone and SMS code (the code read from the outbox), on `on`. */
async function signIn(on = base) {
  phoneSeq += 1;
  const phone = `136${String(10_000_000 + phoneSeq * 7_919 + (Date.now() % 1000) * 11).slice(-8)}`;
  const browser = new TestBrowser(base);
  expect((await browser.json("POST", "/api/auth/sms/send", { phone })).status).toBe(200);
  const message = ctx.outbox!.list().find((m) => m.to === phone);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  expect(code, `a code for ${phone}`).toBeTruthy();
  expect((await browser.json("POST", "/api/auth/sms/login", { phone, code })).status).toBe(200);
  const user = await ctx.database.db
    .selectFrom("users")
    .select(["id", "nickname"])
    .where("phone", "=", phone)
    .executeTakeFirstOrThrow();
  const onNode = new TestBrowser(on);
  for (const [k, v] of browser.cookies) onNode.cookies.set(k, v);
  return { browser: onNode, id: user.id, nickname: user.nickname };
}

async function enrol(userId: number, courseId: number) {
  await ctx.database.db
    .insertInto("enrolments")
    .values({ user_id: userId, course_id: courseId, source: "admin" })
    .onConflict((oc) => oc.columns(["user_id", "course_id"]).doNothing())
    .execute();
}

let courseId: number;
let teacherId: number;
beforeAll(async () => {
  const course = await ctx.database.db
    .selectFrom("courses")
    .select(["id", "teacher_id"])
    .orderBy("id")
    .executeTakeFirstOrThrow();
  courseId = course.id;
  teacherId = course.teacher_id;
});

/** A session of the first course, `startsIn` from `from`, lasting `minutes`. */
async function makeSession(
  from: Date,
  startsInMs: number,
  minutes: number,
  extra: { isOpen?: boolean; recording?: string | null; cancelled?: boolean; title?: string } = {},
) {
  const startsAt = new Date(from.getTime() + startsInMs);
  const row = await ctx.database.db
    .insertInto("live_sessions")
    .values({
      course_id: courseId,
      teacher_id: teacherId,
      title: extra.title ?? "测试直播 · 横画",
      cover_char: "横",
      starts_at: startsAt,
      ends_at: new Date(startsAt.getTime() + minutes * MINUTE),
      state: extra.cancelled ? "cancelled" : "scheduled",
      stream_key: "test-stream",
      recording_video_key: extra.recording === undefined ? "yong" : extra.recording,
      chapter_marks: "[]",
      is_open: extra.isOpen ?? false,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function storedState(id: number) {
  return (
    await ctx.database.db.selectFrom("live_sessions").select("state").where("id", "=", id).executeTakeFirstOrThrow()
  ).state;
}

const anonymous = () => new TestBrowser(base);

/** Reads a room's Server-Sent Events. */
async function openRoom(browser: TestBrowser, liveId: number, headers: Record<string, string> = {}) {
  const stream = await readEventStream(browser, `/api/live/${liveId}/events`, headers);
  const { events, until } = stream;
  const chats = () => events.filter((e) => e.event === "chat").map((e) => e.data as { id: number; body: string });
  const lastOnline = () =>
    (events.filter((e) => e.event === "online").at(-1)?.data as { online: number } | undefined)?.online;
  return {
    ...stream,
    chats,
    lastOnline,
    /** Resolves once the initial history, state and online count have arrived. */
    ready: () => until(() => events.some((e) => e.event === "online"), "the initial online count"),
    waitForChat: (body: string, ms?: number) => until(() => chats().some((c) => c.body === body), `chat "${body}"`, ms),
    waitForOnline: (n: number, ms?: number) => until(() => lastOnline() === n, `online = ${n}`, ms),
  };
}

describe("the schedule", () => {
  it("lists the open class that is live now under 直播中, and every item of that tab is live", async () => {
    const res = await anonymous().json("GET", "/api/live?tab=live");
    expect(res.status).toBe(200);
    expect(res.body.tab).toBe("live");
    expect(res.body.items.length).toBeGreaterThanOrEqual(2);
    for (const item of res.body.items) expect(item.state).toBe("live");
    const open = res.body.items.find((i: { isOpen: boolean }) => i.isOpen);
    expect(open.title).toBe("写字诊断 · 今日连线");
    expect(open.teacherName).toBeTruthy();
    expect(open.courseTitle).toBeTruthy();
  });

  it("即将开始 is in start order, ends in the future only, and shows cancelled sessions as 已取消", async () => {
    const { body } = await anonymous().json("GET", "/api/live?tab=upcoming");
    const starts = body.items.map((i: { startsAt: string }) => Date.parse(i.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const s of starts) expect(s).toBeGreaterThan(Date.parse(body.serverNow));
    const states = new Set(body.items.map((i: { state: string }) => i.state));
    expect([...states].sort()).toEqual(["cancelled", "scheduled"]);
  });

  it("已结束 holds ended, processing and replay sessions, newest first", async () => {
    const justEnded = await makeSession(realNow(), -90 * MINUTE, 60);
    const { body } = await anonymous().json("GET", "/api/live?tab=ended");
    expect(body.items.length).toBeGreaterThanOrEqual(7);
    for (const item of body.items) expect(["ended", "processing", "replay"]).toContain(item.state);
    expect(body.items.some((i: { state: string }) => i.state === "replay")).toBe(true);
    expect(body.items.find((i: { id: number }) => i.id === justEnded)?.state).toBe("processing");
    const starts = body.items.map((i: { startsAt: string }) => Date.parse(i.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it("今日 is the China-time date of the server clock", async () => {
    // 2031-03-01 23:30 in Beijing is 15:30 UTC: a session at 00:10 Beijing the next day is not today.
    const at = new Date("2031-03-01T15:30:00Z");
    const today = await makeSession(at, -2 * HOUR, 30, { title: "今日早课" });
    const tomorrow = await makeSession(at, 40 * MINUTE, 30, { title: "明日零点课" });
    setNow(at);
    const { body } = await anonymous().json("GET", "/api/live?tab=today");
    const ids = body.items.map((i: { id: number }) => i.id);
    expect(ids).toContain(today);
    expect(ids).not.toContain(tomorrow);
    for (const item of body.items) {
      expect(new Date(Date.parse(item.startsAt) + 8 * HOUR).toISOString().slice(0, 10)).toBe("2031-03-01");
    }
  });

  it("an unknown tab is a Chinese 400", async () => {
    const res = await anonymous().json("GET", "/api/live?tab=tomorrow");
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("请选择今日、即将开始、直播中或已结束");
  });

  it("is cached publicly for anonymous visitors only; a learner's copy says what they booked", async () => {
    const anon = await anonymous().json("GET", "/api/live?tab=upcoming");
    expect(anon.headers.get("cache-control")).toBe("public, max-age=60");
    expect(anon.headers.get("vary")).toMatch(/Cookie/);
    const learner = await signIn();
    await enrol(learner.id, courseId);
    const id = await makeSession(realNow(), 3 * HOUR, 60);
    expect((await learner.browser.json("POST", `/api/live/${id}/booking`, {})).status).toBe(200);
    const mine = await learner.browser.json("GET", "/api/live?tab=upcoming");
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.body.signedIn).toBe(true);
    const item = mine.body.items.find((i: { id: number }) => i.id === id);
    expect(item.booked).toBe(true);
    expect(mine.body.items.filter((i: { booked: boolean }) => i.booked)).toHaveLength(1);
  });

  it("says who the viewer is to each session, so 预约 is offered only where booking can succeed", async () => {
    const id = await makeSession(realNow(), 3 * HOUR, 60);
    const accessOf = (body: { items: { id: number; access: string }[] }) => body.items.find((i) => i.id === id)?.access;
    expect(accessOf((await anonymous().json("GET", "/api/live?tab=upcoming")).body)).toBe("sign_in");
    const learner = await signIn();
    expect(accessOf((await learner.browser.json("GET", "/api/live?tab=upcoming")).body)).toBe("not_enrolled");
    // What the list says is what the booking answers.
    expect((await learner.browser.json("POST", `/api/live/${id}/booking`, {})).status).toBe(403);
    await enrol(learner.id, courseId);
    expect(accessOf((await learner.browser.json("GET", "/api/live?tab=upcoming")).body)).toBe("enrolled");
    expect((await learner.browser.json("POST", `/api/live/${id}/booking`, {})).status).toBe(200);
  });
});

describe("the room's details and who may watch", () => {
  it("an unknown or malformed id is 404 in Chinese", async () => {
    for (const path of ["/api/live/999999", "/api/live/abc", "/api/live/0"]) {
      const res = await anonymous().json("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.message).toBe("这场直播不存在");
    }
  });

  it("a closed session live now: anonymous visitors are asked to sign in, others to enrol; learners get the stream", async () => {
    const id = await makeSession(realNow(), -10 * MINUTE, 60);
    const anon = await anonymous().json("GET", `/api/live/${id}`);
    expect(anon.status).toBe(200);
    expect(anon.headers.get("cache-control")).toBe("private, no-store");
    expect(anon.body.live.state).toBe("live");
    expect(anon.body.access).toBe("sign_in");
    expect(anon.body.streamUrl).toBeNull();
    expect(anon.body.course.id).toBe(courseId);
    expect(anon.body.teacher.name).toBeTruthy();
    expect(Math.abs(Date.parse(anon.body.serverNow) - Date.now())).toBeLessThan(5000);

    const stranger = await signIn();
    const other = await stranger.browser.json("GET", `/api/live/${id}`);
    expect(other.body.access).toBe("not_enrolled");
    expect(other.body.streamUrl).toBeNull();

    await enrol(stranger.id, courseId);
    const enrolled = await stranger.browser.json("GET", `/api/live/${id}`);
    expect(enrolled.body.access).toBe("enrolled");
    expect(enrolled.body.streamUrl).toBe("/broadcast/test-stream/index.m3u8");
  });

  it("an open class streams to everyone; the stream stops with the live state", async () => {
    const id = await makeSession(realNow(), -5 * MINUTE, 30, { isOpen: true });
    const anon = await anonymous().json("GET", `/api/live/${id}`);
    expect(anon.body.access).toBe("open");
    expect(anon.body.streamUrl).toBe("/broadcast/test-stream/index.m3u8");
    setNow(new Date(realNow().getTime() + 40 * MINUTE));
    const later = await anonymous().json("GET", `/api/live/${id}`);
    expect(later.body.live.state).toBe("processing");
    expect(later.body.streamUrl).toBeNull();
    expect(later.body.replayUrl).toBeNull();
    setNow(new Date(realNow().getTime() + 3 * HOUR));
    const replay = await anonymous().json("GET", `/api/live/${id}`);
    expect(replay.body.live.state).toBe("replay");
    expect(replay.body.replayUrl).toBe(`/playback?id=${id}`);
  });
});

describe("states move by the clock", () => {
  it("scheduled → live → processing → replay; the job is idempotent and reads never lag behind it", async () => {
    const t0 = new Date("2030-05-01T10:00:00Z");
    const id = await makeSession(t0, 10 * MINUTE, 60);
    const noRecording = await makeSession(t0, 10 * MINUTE, 60, { recording: null });
    const cancelled = await makeSession(t0, 10 * MINUTE, 60, { cancelled: true });

    setNow(t0);
    await advanceLiveSessions(ctx);
    expect(await storedState(id)).toBe("scheduled");

    // At the start a read already says live, before any job has run.
    setNow(new Date(t0.getTime() + 10 * MINUTE));
    expect((await anonymous().json("GET", `/api/live/${id}`)).body.live.state).toBe("live");
    expect(await storedState(id)).toBe("scheduled");
    const moves = await advanceLiveSessions(ctx);
    expect(moves).toContainEqual({ id, from: "scheduled", to: "live" });
    expect(await storedState(id)).toBe("live");
    expect(await advanceLiveSessions(ctx)).toEqual([]);
    expect(await storedState(id)).toBe("live");

    // At the end: ended, and processing right after, in one run.
    setNow(new Date(t0.getTime() + 70 * MINUTE));
    expect((await anonymous().json("GET", `/api/live/${id}`)).body.live.state).toBe("processing");
    await advanceLiveSessions(ctx);
    expect(await storedState(id)).toBe("processing");
    await advanceLiveSessions(ctx);
    expect(await storedState(id)).toBe("processing");

    // Two hours after the end the recording is a replay; without a recording it waits.
    setNow(new Date(t0.getTime() + 70 * MINUTE + 2 * HOUR));
    await advanceLiveSessions(ctx);
    await advanceLiveSessions(ctx);
    expect(await storedState(id)).toBe("replay");
    expect(await storedState(noRecording)).toBe("processing");
    expect((await anonymous().json("GET", `/api/live/${noRecording}`)).body.live.state).toBe("processing");
    expect(await storedState(cancelled)).toBe("cancelled");
    expect((await anonymous().json("GET", `/api/live/${cancelled}`)).body.live.state).toBe("cancelled");
  });

  it("a session the job never saw live is closed after its end without a reminder", async () => {
    const t0 = new Date("2030-06-01T10:00:00Z");
    const id = await makeSession(t0, 10 * MINUTE, 30);
    setNow(t0);
    const learner = await signIn();
    await enrol(learner.id, courseId);
    expect((await learner.browser.json("POST", `/api/live/${id}/booking`, {})).status).toBe(200);
    setNow(new Date(t0.getTime() + 5 * HOUR));
    const moves = await advanceLiveSessions(ctx);
    expect(moves.filter((m) => m.id === id).map((m) => m.to)).toEqual(["ended", "processing", "replay"]);
    const notices = await ctx.database.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", learner.id)
      .where("kind", "=", LIVE_START_NOTICE_KIND)
      .execute();
    expect(notices).toHaveLength(0);
  });
});

describe("booking", () => {
  it("needs a session, a signed-in learner with access, and a session that has not started", async () => {
    const id = await makeSession(realNow(), 2 * HOUR, 60);
    expect((await anonymous().json("POST", `/api/live/${id}/booking`, {})).status).toBe(401);
    const learner = await signIn();
    const refused = await learner.browser.json("POST", `/api/live/${id}/booking`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^报名《.+》后才能预约这场直播$/);
    expect((await learner.browser.json("POST", "/api/live/999999/booking", {})).status).toBe(404);
    await enrol(learner.id, courseId);
    expect((await learner.browser.json("POST", `/api/live/${id}/booking`, { extra: 1 })).status).toBe(400);

    const live = await makeSession(realNow(), -5 * MINUTE, 60);
    const tooLate = await learner.browser.json("POST", `/api/live/${live}/booking`, {});
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.error.message).toBe("直播已经开始，直接进入直播间即可");
    const cancelled = await makeSession(realNow(), 2 * HOUR, 60, { cancelled: true });
    const refusedCancelled = await learner.browser.json("POST", `/api/live/${cancelled}/booking`, {});
    expect(refusedCancelled.status).toBe(409);
    expect(refusedCancelled.body.error.message).toBe("本场直播已取消");
  });

  it("is idempotent both ways and counts bookings", async () => {
    const id = await makeSession(realNow(), 2 * HOUR, 60);
    const [a, b] = [await signIn(), await signIn()];
    await enrol(a.id, courseId);
    await enrol(b.id, courseId);
    expect((await a.browser.json("POST", `/api/live/${id}/booking`, {})).body).toEqual({ booked: true, bookings: 1 });
    expect((await a.browser.json("POST", `/api/live/${id}/booking`, {})).body).toEqual({ booked: true, bookings: 1 });
    expect((await b.browser.json("POST", `/api/live/${id}/booking`)).body).toEqual({ booked: true, bookings: 2 });
    const detail = await a.browser.json("GET", `/api/live/${id}`);
    expect(detail.body.booked).toBe(true);
    expect(detail.body.bookings).toBe(2);
    expect((await a.browser.json("DELETE", `/api/live/${id}/booking`)).body).toEqual({ booked: false, bookings: 1 });
    expect((await a.browser.json("DELETE", `/api/live/${id}/booking`)).body).toEqual({ booked: false, bookings: 1 });
    expect((await a.browser.json("GET", `/api/live/${id}`)).body.booked).toBe(false);
  });

  it("reminds everyone who booked once when the session goes live, even with two nodes running the job together", async () => {
    const t0 = new Date("2030-07-01T10:00:00Z");
    const id = await makeSession(t0, 30 * MINUTE, 60, { title: "提醒测试 · 竖画" });
    setNow(t0);
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    for (const u of [a, b, c]) await enrol(u.id, courseId);
    await a.browser.json("POST", `/api/live/${id}/booking`, {});
    await b.browser.json("POST", `/api/live/${id}/booking`, {});

    setNow(new Date(t0.getTime() + 31 * MINUTE));
    const otherNode: ApiContext = { ...second.services!.api, now: ctx.now };
    await Promise.all([advanceLiveSessions(ctx), advanceLiveSessions(otherNode), advanceLiveSessions(ctx)]);
    await advanceLiveSessions(otherNode);

    const notices = await ctx.database.db
      .selectFrom("notifications")
      .select(["user_id", "title", "body"])
      .where("kind", "=", LIVE_START_NOTICE_KIND)
      .where("user_id", "in", [a.id, b.id, c.id])
      .execute();
    expect(notices.map((n) => n.user_id).sort()).toEqual([a.id, b.id].sort());
    expect(notices[0]!.title).toBe("直播开始了：提醒测试 · 竖画");
    expect(notices[0]!.body).toContain(`/live/${id}`);
    // The learner sees it among their notices.
    const list = await a.browser.json("GET", "/api/notices");
    expect(list.body.items[0].title).toBe("直播开始了：提醒测试 · 竖画");
  });
});

describe("chat", () => {
  let liveId: number;
  let speaker: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    liveId = await makeSession(realNow(), -5 * MINUTE, 120);
    speaker = await signIn();
    await enrol(speaker.id, courseId);
  });

  it("needs a signed-in viewer with access, while the session is live", async () => {
    expect((await anonymous().json("POST", `/api/live/${liveId}/messages`, { body: "你好" })).status).toBe(401);
    const stranger = await signIn();
    expect((await stranger.browser.json("POST", `/api/live/${liveId}/messages`, { body: "你好" })).status).toBe(403);
    const later = await makeSession(realNow(), HOUR, 60);
    const early = await speaker.browser.json("POST", `/api/live/${later}/messages`, { body: "你好" });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("直播还没有开始，暂时不能发言");
  });

  it("takes 1–200 characters after trimming, and says what is wrong in Chinese", async () => {
    const post = (body: unknown) => speaker.browser.json("POST", `/api/live/${liveId}/messages`, body);
    for (const [input, message] of [
      [{ body: "" }, "请输入要发送的内容"],
      [{ body: "  \n\t " }, "请输入要发送的内容"],
      [{}, "请输入要发送的内容"],
      [{ body: 12 }, "请输入要发送的内容"],
      [{ body: "字".repeat(201) }, "每条消息最多 200 个字"],
    ] as const) {
      const res = await post(input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await post({ body: "好", color: "red" })).status).toBe(400);

    const ok = await post({ body: "  老师，横画起笔要逆锋吗？  " });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      body: "老师，横画起笔要逆锋吗？",
      mine: true,
      teacher: false,
      nickname: speaker.nickname,
    });
    // 200 characters, counted as characters (not UTF-16 units), and markup kept as plain text.
    const long = await post({ body: "墨".repeat(199) + "𠀀" });
    expect(long.status).toBe(201);
    const markup = await post({ body: "<b>加粗</b><script>x()</script>" });
    expect(markup.body.body).toBe("<b>加粗</b><script>x()</script>");
    const stored = await ctx.database.db
      .selectFrom("live_chat_messages")
      .select("body")
      .where("id", "=", markup.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.body).toBe("<b>加粗</b><script>x()</script>");
  });

  it("allows 10 messages in 10 seconds per learner, then 429 with Retry-After", async () => {
    const talker = await signIn();
    await enrol(talker.id, courseId);
    // A fixed moment at the start of a 10-second window, so the burst cannot straddle two.
    setNow(new Date(Math.ceil(realNow().getTime() / 10_000) * 10_000 + 1000));
    for (let i = 1; i <= 10; i++) {
      expect((await talker.browser.json("POST", `/api/live/${liveId}/messages`, { body: `第${i}条` })).status).toBe(
        201,
      );
    }
    const res = await talker.browser.json("POST", `/api/live/${liveId}/messages`, { body: "第11条" });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe("发言太快了，请稍等几秒再发");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const count = await ctx.database.db
      .selectFrom("live_chat_messages")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", talker.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10);
  });
});

describe("check-in", () => {
  it("works once per learner while live; again it answers the first time", async () => {
    const live = await makeSession(realNow(), -5 * MINUTE, 60);
    const learner = await signIn();
    expect((await anonymous().json("POST", `/api/live/${live}/check-in`, {})).status).toBe(401);
    expect((await learner.browser.json("POST", `/api/live/${live}/check-in`, {})).status).toBe(403);
    await enrol(learner.id, courseId);
    const firstTime = await learner.browser.json("POST", `/api/live/${live}/check-in`, {});
    expect(firstTime.status).toBe(200);
    expect(firstTime.body.already).toBe(false);
    const twice = await Promise.all([
      learner.browser.json("POST", `/api/live/${live}/check-in`, {}),
      learner.browser.json("POST", `/api/live/${live}/check-in`, {}),
    ]);
    for (const again of twice) expect(again.body).toEqual({ checkedInAt: firstTime.body.checkedInAt, already: true });
    expect((await learner.browser.json("GET", `/api/live/${live}`)).body.checkedInAt).toBe(firstTime.body.checkedInAt);

    const later = await makeSession(realNow(), HOUR, 60);
    const early = await learner.browser.json("POST", `/api/live/${later}/check-in`, {});
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("直播还没有开始，签到只在直播中开放");
  });
});

describe("attendance", () => {
  it("adds server-measured time per beat (capped, none for beats too close) and counts at 10 minutes, once", async () => {
    const t0 = new Date("2030-08-01T10:00:00Z");
    const id = await makeSession(t0, 0, 60);
    setNow(t0);
    const learner = await signIn();
    await enrol(learner.id, courseId);
    let at = t0.getTime() + MINUTE;
    const beat = async (advanceMs: number, body: object = {}) => {
      at += advanceMs;
      setNow(new Date(at));
      const res = await learner.browser.json("POST", `/api/live/${id}/attendance`, body);
      expect(res.status).toBe(200);
      return res.body as { seconds: number; countedAt: string | null; accepted: boolean };
    };
    expect(await beat(0, { start: true })).toEqual({ seconds: 0, countedAt: null, accepted: true });
    expect((await beat(60_000)).seconds).toBe(60);
    expect(await beat(20_000)).toEqual({ seconds: 60, countedAt: null, accepted: false });
    // The ignored beat moved nothing: the next one counts from the last counted beat.
    expect((await beat(40_000)).seconds).toBe(120);
    // Ten minutes away: one beat adds at most 90 s.
    expect((await beat(10 * MINUTE)).seconds).toBe(210);
    // Coming back with start: the time away counts nothing.
    expect((await beat(5 * MINUTE, { start: true })).seconds).toBe(210);
    for (let i = 0; i < 6; i++) expect((await beat(60_000)).countedAt).toBeNull();
    expect((await beat(60_000)).seconds).toBe(630);
    const counted = await ctx.database.db
      .selectFrom("live_attendance")
      .select(["counted_at", "seconds"])
      .where("user_id", "=", learner.id)
      .where("live_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(counted.counted_at?.getTime()).toBe(at);
    const countedAt = counted.counted_at!.toISOString();
    expect((await beat(60_000)).countedAt).toBe(countedAt);
    expect((await learner.browser.json("GET", `/api/live/${id}`)).body.attendance).toEqual({
      seconds: 690,
      countedAt,
    });
    // Attending earned the live coins once, linked to the session.
    const coins = await ctx.database.db
      .selectFrom("wallet_entries")
      .select(["amount", "reason", "ref_type", "ref_id"])
      .where("user_id", "=", learner.id)
      .execute();
    expect(coins).toEqual([{ amount: 10, reason: "live_attended", ref_type: "live", ref_id: String(id) }]);
    // After the end nothing more is counted.
    setNow(new Date(t0.getTime() + 61 * MINUTE));
    const after = await learner.browser.json("POST", `/api/live/${id}/attendance`, {});
    expect(after.status).toBe(409);
    expect(after.body.error.message).toBe("直播已经结束，不再记录观看时长");
  });

  it("concurrent beats count the elapsed time once", async () => {
    const t0 = new Date("2030-09-01T10:00:00Z");
    const id = await makeSession(t0, 0, 60);
    setNow(t0);
    const learner = await signIn();
    await enrol(learner.id, courseId);
    setNow(new Date(t0.getTime() + MINUTE));
    await learner.browser.json("POST", `/api/live/${id}/attendance`, { start: true });
    setNow(new Date(t0.getTime() + 2 * MINUTE));
    const beats = await Promise.all(
      Array.from({ length: 6 }, () => learner.browser.json("POST", `/api/live/${id}/attendance`, {})),
    );
    expect(beats.filter((b) => b.body.accepted)).toHaveLength(1);
    for (const b of beats) expect(b.body.seconds).toBe(60);
  });

  it("refuses bad bodies and viewers without access", async () => {
    const id = await makeSession(realNow(), -MINUTE, 60);
    const learner = await signIn();
    expect((await learner.browser.json("POST", `/api/live/${id}/attendance`, {})).status).toBe(403);
    await enrol(learner.id, courseId);
    const bad = await learner.browser.json("POST", `/api/live/${id}/attendance`, { start: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("start 必须是 true 或 false");
    expect((await learner.browser.json("POST", `/api/live/${id}/attendance`, { seconds: 600 })).status).toBe(400);
  });
});

describe("the room's event stream", () => {
  let liveId: number;
  let a: Awaited<ReturnType<typeof signIn>>;
  let b: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    liveId = await makeSession(realNow(), -5 * MINUTE, 120);
    a = await signIn();
    b = await signIn(baseB);
    await enrol(a.id, courseId);
    await enrol(b.id, courseId);
  });

  it("is for signed-in viewers with access", async () => {
    expect((await anonymous().fetch(`/api/live/${liveId}/events`)).status).toBe(401);
    const stranger = await signIn();
    const res = await stranger.browser.fetch(`/api/live/${liveId}/events`);
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/后才能进入这场直播$/);
    expect((await a.browser.fetch("/api/live/999999/events")).status).toBe(404);
  });

  it("sends the last 50 messages on connect, then the state and online count; Last-Event-ID resumes", async () => {
    const room = await makeSession(realNow(), -5 * MINUTE, 120);
    const rows = await ctx.database.db
      .insertInto("live_chat_messages")
      .values(Array.from({ length: 55 }, (_, i) => ({ live_id: room, user_id: a.id, body: `历史${i + 1}` })))
      .returning("id")
      .execute();
    const stream = await openRoom(a.browser, room);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    await stream.ready();
    const history = stream.chats();
    expect(history.map((c) => c.body)).toEqual(Array.from({ length: 50 }, (_, i) => `历史${i + 6}`));
    expect(stream.events.find((e) => e.event === "chat")?.id).toBe(String(rows[5]!.id));
    expect(stream.events.find((e) => e.event === "state")?.data).toMatchObject({ state: "live" });
    expect(stream.lastOnline()).toBe(1);
    await stream.close();

    const resumed = await openRoom(a.browser, room, { "Last-Event-ID": String(rows[51]!.id) });
    await resumed.ready();
    expect(resumed.chats().map((c) => c.body)).toEqual(["历史53", "历史54", "历史55"]);
    await resumed.close();
  });

  it("delivers a posted message to every viewer, marked as their own or not, and counts viewers", async () => {
    const streamA = await openRoom(a.browser, liveId);
    await streamA.ready();
    const other = new TestBrowser(base);
    for (const [k, v] of b.browser.cookies) other.cookies.set(k, v);
    const streamB = await openRoom(other, liveId);
    await streamB.ready();
    await streamA.waitForOnline(2);

    const sent = await a.browser.json("POST", `/api/live/${liveId}/messages`, { body: "大家好，开始临帖了" });
    expect(sent.status).toBe(201);
    await streamA.waitForChat("大家好，开始临帖了");
    await streamB.waitForChat("大家好，开始临帖了");
    const seenByA = streamA.events.find((e) => (e.data as { body?: string }).body === "大家好，开始临帖了")!;
    const seenByB = streamB.events.find((e) => (e.data as { body?: string }).body === "大家好，开始临帖了")!;
    expect(seenByA.id).toBe(String(sent.body.id));
    expect(seenByA.data).toMatchObject({ mine: true, nickname: a.nickname });
    expect(seenByB.data).toMatchObject({ mine: false, nickname: a.nickname });

    await streamB.close();
    await streamA.waitForOnline(1);
    await streamA.close();
  });

  it("tells the room when the job moves its state", async () => {
    const room = await makeSession(realNow(), -5 * MINUTE, 30);
    const stream = await openRoom(a.browser, room);
    await stream.ready();
    setNow(new Date(realNow().getTime() + 40 * MINUTE));
    await advanceLiveSessions(ctx);
    await stream.until(
      () => stream.events.some((e) => e.event === "state" && (e.data as { state: string }).state === "processing"),
      "the processing state",
    );
    await stream.close();
  });

  it("follows the clock between job runs: a room opened before the start hears it go live", async () => {
    const room = await makeSession(realNow(), 1500, 60);
    const stream = await openRoom(a.browser, room);
    await stream.ready();
    expect(stream.events.find((e) => e.event === "state")?.data).toMatchObject({ state: "scheduled" });
    await stream.until(
      () => stream.events.some((e) => e.event === "state" && (e.data as { state: string }).state === "live"),
      "the live state at the start",
      6000,
    );
    await stream.close();
  });

  it("ends the stream of a room closed long ago, and of a room that gets cancelled", async () => {
    const old = await makeSession(realNow(), -5 * HOUR, 60);
    const over = await openRoom(a.browser, old);
    await over.ended();
    expect(over.events.map((e) => e.event)).toEqual(["state", "online", "closed"]);
    expect(over.events[0]!.data).toMatchObject({ state: "replay" });

    const room = await makeSession(realNow(), HOUR, 60);
    const stream = await openRoom(a.browser, room);
    await stream.ready();
    await ctx.database.db.updateTable("live_sessions").set({ state: "cancelled" }).where("id", "=", room).execute();
    await publishRoomEvent(ctx.database, { type: "state", liveId: room, state: "cancelled" });
    await stream.ended();
    expect(stream.events.filter((e) => e.event === "state").map((e) => (e.data as { state: string }).state)).toEqual([
      "scheduled",
      "cancelled",
    ]);
    expect(stream.events.at(-1)?.event).toBe("closed");
  });

  it("keeps the connection alive with a comment every 15 seconds", { timeout: 30_000 }, async () => {
    const stream = await openRoom(a.browser, liveId);
    await stream.ready();
    expect(stream.comments).toEqual([]);
    await stream.until(() => stream.comments.includes(": ping"), "a heartbeat", 17_000);
    await stream.close();
  });

  it("fans out between two web nodes sharing the database, both ways, with one online count", async () => {
    const onA = await openRoom(a.browser, liveId);
    await onA.ready();
    const onB = await openRoom(b.browser, liveId); // b's browser talks to the second node
    await onB.ready();
    await onA.waitForOnline(2);
    await onB.waitForOnline(2);

    const fromA = await a.browser.json("POST", `/api/live/${liveId}/messages`, { body: "A 节点发来的消息" });
    expect(fromA.status).toBe(201);
    await onB.waitForChat("A 节点发来的消息");
    const fromB = await b.browser.json("POST", `/api/live/${liveId}/messages`, { body: "B 节点的回复" });
    expect(fromB.status).toBe(201);
    await onA.waitForChat("B 节点的回复");
    expect((await a.browser.json("GET", `/api/live/${liveId}`)).body.online).toBe(2);

    await onB.close();
    await onA.waitForOnline(1);
    await onA.close();
  });

  it("a draining node tells the room to reconnect; on another node Last-Event-ID brings what was said meanwhile", async () => {
    const third = await testAppOnSameDatabase(first);
    const c = await listen(third.app);
    try {
      const room = await makeSession(realNow(), -5 * MINUTE, 120);
      await enrol(a.id, courseId);
      const onC = new TestBrowser(c.base);
      for (const [k, v] of a.browser.cookies) onC.cookies.set(k, v);
      expect((await a.browser.json("POST", `/api/live/${room}/messages`, { body: "排空之前" })).status).toBe(201);
      const stream = await openRoom(onC, room);
      await stream.ready();
      await stream.waitForChat("排空之前");

      expect(third.services.api.eventStreams.drain()).toBe(1);
      await stream.ended();
      expect(stream.events.at(-1)?.event).toBe("reconnect");
      expect(stream.events.at(-1)?.id).toBeUndefined();
      const lastId = stream.events.filter((e) => e.id).at(-1)?.id;
      expect(lastId).toBeTruthy();
      // Said while the browser was away: stored, so the resumed stream replays it.
      expect((await b.browser.json("POST", `/api/live/${room}/messages`, { body: "断开期间" })).status).toBe(201);
      const resumed = await openRoom(a.browser, room, { "Last-Event-ID": lastId! });
      await resumed.ready();
      expect(resumed.chats().map((m) => m.body)).toEqual(["断开期间"]);
      await resumed.close();

      // A stream opened on the draining node after that is sent on at once.
      const late = await openRoom(onC, room);
      await late.ended();
      expect(late.events.map((e) => e.event)).toEqual(["reconnect"]);
    } finally {
      await closeServer(c.server);
      await third.dispose();
    }
  });
});

describe("OpenAPI", () => {
  it("describes every live endpoint from the shared contracts", async () => {
    const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody: { content: unknown }; responses: unknown }>>;
    };
    const livePaths = Object.keys(doc.paths).filter((p) => p === "/live" || p.startsWith("/live/"));
    expect(livePaths.sort()).toEqual(
      [
        "/live",
        "/live/{id}",
        "/live/{id}/attendance",
        "/live/{id}/booking",
        "/live/{id}/check-in",
        "/live/{id}/events",
        "/live/{id}/messages",
      ].sort(),
    );
    expect(JSON.stringify(doc.paths["/live/{id}/messages"]!.post!.requestBody.content)).toContain('"body"');
    expect(JSON.stringify(doc.paths["/live/{id}/events"]!.get!.responses)).toContain("text/event-stream");
  });
});
