/**
 * The lesson player's API (/api/learning): who may watch which lesson (anonymous, signed in,
 * enrolled, camp days, staff), that video addresses never reach those who may not, progress
 * reports (upsert, caps, completion, resume rule, concurrency), the remembered speed, public
 * lessons and live recordings.
 */
import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { learningEndpoints } from "../../api/modules/learning/endpoints";
import { openApiDocument } from "../../api/openapi";
import { lastCodeFor, testAppPerFile } from "./helpers";

const ORIGIN = "http://localhost:3000";
const file = testAppPerFile({}, {}, {}, { catalogue: true });
let phoneSeq = 0;
const nextPhone = () => `136${String(30_000_000 + ++phoneSeq * 7919 + (process.pid % 1000) * 17).slice(-8)}`;

const api = () => file.h.services!.api;
const db = () => api().database.db;

const get = (url: string, cookie?: string) => {
  const r = request(file.h.app).get(url);
  return cookie ? r.set("Cookie", cookie) : r;
};
const put = (url: string, body: unknown, cookie?: string) => {
  let r = request(file.h.app).put(url).set("Origin", ORIGIN);
  if (cookie) r = r.set("Cookie", cookie);
  return r.send(body as object);
};
const post = (url: string, body: unknown) =>
  request(file.h.app)
    .post(url)
    .set("Origin", ORIGIN)
    .send(body as object);

/** Signs a new learner in (phone + code); the per-address daily cap is the auth tests' business. */
async function login(): Promise<{ cookie: string; id: number }> {
  const phone = nextPhone();
  await db().deleteFrom("rate_limits").where("key", "like", "otp:%").execute();
  expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
  const res = await post("/api/auth/sms/login", { phone, code: lastCodeFor(api().outbox, phone) });
  expect(res.status).toBe(200);
  const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="));
  const user = await db().selectFrom("users").select("id").where("phone", "=", phone).executeTakeFirstOrThrow();
  return { cookie: raw!.split(";")[0]!, id: user.id };
}

async function enrol(userId: number, courseId: number) {
  await db().insertInto("enrolments").values({ user_id: userId, course_id: courseId, source: "admin" }).execute();
}

/** The lessons of the first course matching, in outline order. */
async function courseWith(where: { kind?: "recorded" | "camp"; free?: boolean }) {
  let q = db().selectFrom("courses").selectAll().where("status", "=", "published");
  if (where.kind) q = q.where("kind", "=", where.kind);
  if (where.free !== undefined) q = q.where("price_cents", where.free ? "=" : ">", 0);
  const course = await q.orderBy("id").executeTakeFirstOrThrow();
  const lessons = await db()
    .selectFrom("lessons as l")
    .innerJoin("chapters as ch", "ch.id", "l.chapter_id")
    .select(["l.id", "l.is_trial", "l.unlock_day", "l.duration_seconds", "l.video_key"])
    .where("l.course_id", "=", course.id)
    .orderBy("ch.position")
    .orderBy("l.position")
    .execute();
  return { course, lessons };
}

const progressRow = (userId: number, lessonId: number) =>
  db()
    .selectFrom("lesson_progress")
    .selectAll()
    .where("user_id", "=", userId)
    .where("lesson_id", "=", lessonId)
    .executeTakeFirst();

const report = (lessonId: number, body: unknown, cookie?: string) =>
  put(`/api/learning/lessons/${lessonId}/progress`, body, cookie);

let paid: Awaited<ReturnType<typeof courseWith>>;
let camp: Awaited<ReturnType<typeof courseWith>>;
beforeAll(async () => {
  paid = await courseWith({ kind: "recorded", free: false });
  camp = await courseWith({ kind: "camp" });
});
const trialOf = (c: typeof paid) => c.lessons.find((l) => l.is_trial)!;
const lockedOf = (c: typeof paid, nth = 0) => c.lessons.filter((l) => !l.is_trial)[nth]!;

describe("GET /api/learning/lessons/:id — anonymous", () => {
  it("a trial lesson plays for everyone, with its sources, and is publicly cacheable", async () => {
    const trial = trialOf(paid);
    const res = await get(`/api/learning/lessons/${trial.id}`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.body.access).toMatchObject({ allowed: true });
    // A demo lesson plays its own clip: its title card (poster) and then a sample; the MP4 is the sample's.
    const [, sample, slug] = /^card-(yong|heng|shan)-(\d\d-\d\d)$/.exec(trial.video_key)!;
    expect(res.body.sources).toEqual({
      hls: `/media/video/cards/${slug}/index.m3u8`,
      mp4: `/media/video/${sample}/index.mp4`,
      poster: `/media/video/cards/${slug}/poster.jpg`,
      captions: `/media/video/cards/${slug}/captions.vtt`,
    });
    expect(res.body.resume).toBeNull();
    expect(res.body.viewer).toEqual({ signedIn: false, enrolled: false });
    expect(res.body.course).toMatchObject({
      id: paid.course.id,
      title: paid.course.title,
      priceCents: paid.course.price_cents,
    });
    expect(res.body.lesson).toMatchObject({ id: trial.id, isTrial: true, number: 1 });
  });

  it("a paid lesson says why it is locked and sends no video address at all", async () => {
    const locked = lockedOf(paid);
    const res = await get(`/api/learning/lessons/${locked.id}`);
    expect(res.status).toBe(200);
    expect(res.body.access).toEqual({
      allowed: false,
      reason: "purchase",
      message: "本课为付费内容，购买课程后即可学习",
    });
    expect(res.body.sources).toBeNull();
    expect(res.text).not.toContain("/media/video/");
    expect(res.text).not.toContain(locked.video_key);
  });

  it("the outline marks trial and locked lessons, in order, with previous and next", async () => {
    const res = await get(`/api/learning/lessons/${paid.lessons[1]!.id}`);
    const flat = res.body.outline.flatMap((ch: { lessons: unknown[] }) => ch.lessons);
    expect(flat.map((l: { id: number }) => l.id)).toEqual(paid.lessons.map((l) => l.id));
    for (const [i, l] of flat.entries()) {
      expect(l.isTrial).toBe(paid.lessons[i]!.is_trial);
      expect(l.locked).toBe(!paid.lessons[i]!.is_trial);
      expect(l.lockLabel).toBe(l.locked ? "购买后学习" : null);
      expect(l.progress).toBeNull();
    }
    expect(res.body.prevLessonId).toBe(paid.lessons[0]!.id);
    expect(res.body.nextLessonId).toBe(paid.lessons[2]!.id);
    const first = await get(`/api/learning/lessons/${paid.lessons[0]!.id}`);
    expect(first.body.prevLessonId).toBeNull();
    const last = await get(`/api/learning/lessons/${paid.lessons.at(-1)!.id}`);
    expect(last.body.nextLessonId).toBeNull();
  });

  it("a free course's lessons are all open", async () => {
    const free = await courseWith({ free: true });
    for (const lesson of free.lessons.slice(0, 3)) {
      const res = await get(`/api/learning/lessons/${lesson.id}`);
      expect(res.body.access.allowed).toBe(true);
      expect(res.body.sources).not.toBeNull();
    }
  });

  it("unknown or malformed lessons are 404 in Chinese", async () => {
    for (const id of ["999999", "0", "abc", "012", "99999999999"]) {
      const res = await get(`/api/learning/lessons/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error).toEqual({ code: "not_found", message: "课时不存在" });
    }
  });

  it("a lesson of a draft course is not there", async () => {
    const other = await courseWith({ kind: "recorded", free: false });
    const extra = await db()
      .insertInto("courses")
      .values({
        title: "草稿课程",
        category: other.course.category,
        kind: "recorded",
        level: "beginner",
        teacher_id: other.course.teacher_id,
        price_cents: 0,
        original_price_cents: 0,
        cover_char: "草",
        outcomes: "[]",
        status: "draft",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const chapter = await db()
      .insertInto("chapters")
      .values({ course_id: extra.id, position: 1, title: "第一章" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const lesson = await db()
      .insertInto("lessons")
      .values({
        course_id: extra.id,
        chapter_id: chapter.id,
        position: 1,
        title: "草稿课时",
        video_key: "yong",
        duration_seconds: 30,
        is_trial: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await get(`/api/learning/lessons/${lesson.id}`)).status).toBe(404);
  });
});

describe("GET /api/learning/lessons/:id — signed in", () => {
  it("not enrolled: the trial plays and resumes at 0 with speed 1; the rest is for buyers; private", async () => {
    const { cookie } = await login();
    const trial = await get(`/api/learning/lessons/${trialOf(paid).id}`, cookie);
    expect(trial.headers["cache-control"]).toBe("private, no-store");
    expect(trial.body.viewer).toEqual({ signedIn: true, enrolled: false });
    expect(trial.body.resume).toEqual({ position: 0, savedAt: null, speed: 1 });
    const locked = await get(`/api/learning/lessons/${lockedOf(paid).id}`, cookie);
    expect(locked.body.access.reason).toBe("purchase");
    expect(locked.body.sources).toBeNull();
    expect(locked.body.resume).toBeNull();
  });

  it("enrolled: every lesson of a recorded course plays", async () => {
    const { cookie, id } = await login();
    await enrol(id, paid.course.id);
    const res = await get(`/api/learning/lessons/${lockedOf(paid, 2).id}`, cookie);
    expect(res.body.viewer).toEqual({ signedIn: true, enrolled: true });
    expect(res.body.access.allowed).toBe(true);
    expect(res.body.sources.mp4).toMatch(/^\/media\/video\/\w+\/index\.mp4$/);
    const flat = res.body.outline.flatMap((ch: { lessons: Array<{ locked: boolean }> }) => ch.lessons);
    expect(flat.every((l: { locked: boolean }) => !l.locked)).toBe(true);
  });

  it("a camp lesson opens on its day (China time), even for its learners", async () => {
    const { cookie, id } = await login();
    await enrol(id, camp.course.id);
    const startsOn = camp.course.camp_starts_on!;
    const [y, m, d] = startsOn.split("-").map(Number) as [number, number, number];
    // The seed's camp started three days ago: day 4 is today, day 5 tomorrow.
    const today = camp.lessons.find((l) => l.unlock_day === 4 && !l.is_trial)!;
    const tomorrow = camp.lessons.find((l) => l.unlock_day === 5 && !l.is_trial)!;
    const open = await get(`/api/learning/lessons/${today.id}`, cookie);
    expect(open.body.access.allowed).toBe(true);

    const locked = await get(`/api/learning/lessons/${tomorrow.id}`, cookie);
    const unlock = new Date(Date.UTC(y, m - 1, d + 4));
    const unlockDate = unlock.toISOString().slice(0, 10);
    expect(locked.body.access).toEqual({
      allowed: false,
      reason: "camp_locked",
      unlockDate,
      message: `训练营第 5 天解锁（${unlock.getUTCMonth() + 1}月${unlock.getUTCDate()}日）`,
    });
    expect(locked.body.sources).toBeNull();
    expect(locked.text).not.toContain("/media/video/");
    const entry = locked.body.outline
      .flatMap((ch: { lessons: Array<{ id: number }> }) => ch.lessons)
      .find((l: { id: number }) => l.id === tomorrow.id);
    expect(entry).toMatchObject({
      locked: true,
      lockLabel: `${unlock.getUTCMonth() + 1}月${unlock.getUTCDate()}日解锁`,
    });
    expect((await report(tomorrow.id, { position: 1, watched: 1, speed: 1 }, cookie)).status).toBe(403);

    // Midnight in Shanghai is 16:00 UTC the day before.
    api().now = () => new Date(Date.UTC(y, m - 1, d + 3, 16, 0, 1));
    const opened = await get(`/api/learning/lessons/${tomorrow.id}`, cookie);
    expect(opened.body.access.allowed).toBe(true);
    api().now = () => new Date(Date.UTC(y, m - 1, d + 3, 15, 59, 0));
    expect((await get(`/api/learning/lessons/${tomorrow.id}`, cookie)).body.access.reason).toBe("camp_locked");
  });

  it("a camp's trial lessons are open to everyone, the rest needs buying", async () => {
    const trial = camp.lessons.find((l) => l.is_trial)!;
    expect((await get(`/api/learning/lessons/${trial.id}`)).body.access.allowed).toBe(true);
    const { cookie } = await login();
    const later = camp.lessons.find((l) => !l.is_trial && (l.unlock_day ?? 0) <= 4)!;
    expect((await get(`/api/learning/lessons/${later.id}`, cookie)).body.access.reason).toBe("purchase");
  });

  it("the course's own teacher and operators may watch every lesson", async () => {
    const teacher = await login();
    const operator = await login();
    await db().updateTable("users").set({ role: "teacher" }).where("id", "=", teacher.id).execute();
    await db().updateTable("users").set({ role: "operator" }).where("id", "=", operator.id).execute();
    await db().updateTable("teachers").set({ user_id: teacher.id }).where("id", "=", paid.course.teacher_id).execute();
    const locked = lockedOf(paid, 1);
    for (const who of [teacher, operator]) {
      const res = await get(`/api/learning/lessons/${locked.id}`, who.cookie);
      expect(res.body.access.allowed).toBe(true);
      expect(res.body.sources).not.toBeNull();
    }
    const stranger = await login();
    await db().updateTable("users").set({ role: "teacher" }).where("id", "=", stranger.id).execute();
    expect((await get(`/api/learning/lessons/${locked.id}`, stranger.cookie)).body.access.allowed).toBe(false);
    await db().updateTable("teachers").set({ user_id: null }).where("id", "=", paid.course.teacher_id).execute();
  });
});

describe("PUT /api/learning/lessons/:id/progress", () => {
  it("needs a session, a known lesson and access", async () => {
    const body = { position: 3, watched: 3, speed: 1 };
    const anonymous = await report(trialOf(paid).id, body);
    expect(anonymous.status).toBe(401);
    const { cookie } = await login();
    expect((await report(999_999, body, cookie)).status).toBe(404);
    expect((await report(0, body, cookie)).status).toBe(404);
    const refused = await report(lockedOf(paid).id, body, cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("本课为付费内容，购买课程后即可学习");
  });

  it("refuses bad reports with a Chinese message and stores nothing", async () => {
    const { cookie, id } = await login();
    const lesson = trialOf(paid).id;
    const cases: Array<[unknown, RegExp]> = [
      [{ position: -1, watched: 1, speed: 1 }, /播放位置不能小于 0/],
      [{ position: 1, watched: -5, speed: 1 }, /观看时长不能小于 0/],
      [{ position: 1, watched: 1, speed: 1.1 }, /倍速只能是/],
      [{ position: 1, watched: 1, speed: 3 }, /倍速只能是/],
      [{ position: "1", watched: 1, speed: 1 }, /播放位置必须是数字/],
      [{ position: 1, watched: 1 }, /倍速必须是数字/],
      [{ position: 1, watched: 1, speed: 1, userId: 1 }, /不支持的字段：userId/],
      [[1, 2, 3], /请求内容必须是 JSON 对象/],
    ];
    for (const [body, message] of cases) {
      const res = await report(lesson, body, cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    const text = await request(file.h.app)
      .put(`/api/learning/lessons/${lesson}/progress`)
      .set("Origin", ORIGIN)
      .set("Cookie", cookie)
      .set("Content-Type", "text/plain")
      .send("position=1");
    expect(text.status).toBe(415);
    const crossSite = await request(file.h.app)
      .put(`/api/learning/lessons/${lesson}/progress`)
      .set("Origin", "https://evil.example")
      .set("Cookie", cookie)
      .send({ position: 1, watched: 1, speed: 1 });
    expect(crossSite.status).toBe(403);
    expect(await progressRow(id, lesson)).toBeUndefined();
  });

  it("adds watched seconds, keeps the last position and speed, remembers the speed on the account", async () => {
    const { cookie, id } = await login();
    const lesson = trialOf(paid);
    const first = await report(lesson.id, { position: 6.8, watched: 6.4, speed: 1.5 }, cookie);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("private, no-store");
    // Of a 33 s lesson (the 3 s title card and the 30 s sample).
    expect(first.body).toEqual({ position: 6, watchedSeconds: 6, percent: 18, completed: false });
    const second = await report(lesson.id, { position: 12, watched: 6, speed: 1.25 }, cookie);
    expect(second.body).toEqual({ position: 12, watchedSeconds: 12, percent: 36, completed: false });
    const row = await progressRow(id, lesson.id);
    expect(row).toMatchObject({ position_seconds: 12, watched_seconds: 12, speed_x100: 125, completed_at: null });
    const user = await db()
      .selectFrom("users")
      .select("playback_speed_x100")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(user.playback_speed_x100).toBe(125);

    const view = await get(`/api/learning/lessons/${lesson.id}`, cookie);
    expect(view.body.resume).toEqual({ position: 12, savedAt: expect.any(String), speed: 1.25 });
    const entry = view.body.outline[0].lessons.find((l: { id: number }) => l.id === lesson.id);
    expect(entry.progress).toEqual({ percent: 36, completed: false });
  });

  it("counts at most 60 s per report and never more than the video is long", async () => {
    const { cookie, id } = await login();
    const lesson = trialOf(paid);
    // The 3 s title card and the 30 s sample.
    expect(lesson.duration_seconds).toBe(33);
    const res = await report(lesson.id, { position: 5, watched: 500, speed: 1 }, cookie);
    expect(res.body.watchedSeconds).toBe(33);
    await report(lesson.id, { position: 9, watched: 20, speed: 1 }, cookie);
    expect((await progressRow(id, lesson.id))!.watched_seconds).toBe(33);
    // A position past the end is the end.
    const past = await report(lesson.id, { position: 4000, watched: 0, speed: 1 }, cookie);
    expect(past.body.position).toBe(33);
  });

  it("completes once 90 % was watched, and keeps the first completion time", async () => {
    const { cookie, id } = await login();
    const lesson = trialOf(paid);
    const t0 = new Date(file.realNow().getTime() - 60_000);
    api().now = () => t0;
    // 90 % of the 33 s lesson is 29.7 s.
    expect((await report(lesson.id, { position: 20, watched: 29, speed: 1 }, cookie)).body.completed).toBe(false);
    const done = await report(lesson.id, { position: 30, watched: 1, speed: 1 }, cookie);
    expect(done.body).toMatchObject({ watchedSeconds: 30, percent: 100, completed: true });
    api().now = () => new Date(t0.getTime() + 30_000);
    await report(lesson.id, { position: 31, watched: 2, speed: 1 }, cookie);
    const row = await progressRow(id, lesson.id);
    expect(row!.completed_at!.getTime()).toBe(t0.getTime());
  });

  it("playing to the end completes the lesson and the next visit starts from the beginning", async () => {
    const { cookie, id } = await login();
    const lesson = paid.lessons[1]!;
    const res = await report(lesson.id, { position: 32.5, watched: 3, speed: 1, ended: true }, cookie);
    expect(res.body).toMatchObject({ position: 33, watchedSeconds: 3, completed: true, percent: 100 });
    expect((await progressRow(id, lesson.id))!.completed_at).not.toBeNull();
    expect((await get(`/api/learning/lessons/${lesson.id}`, cookie)).body.resume.position).toBe(0);
  });

  it("finishing a lesson earns its coins once, recorded in the ledger with the lesson", async () => {
    const { cookie, id } = await login();
    const lesson = trialOf(paid);
    await report(lesson.id, { position: 10, watched: 10, speed: 1 }, cookie);
    const coinsOf = () =>
      db().selectFrom("wallet_entries").selectAll().where("user_id", "=", id).where("currency", "=", "coin").execute();
    expect(await coinsOf()).toHaveLength(0);
    await report(lesson.id, { position: 29.5, watched: 20, speed: 1, ended: true }, cookie);
    await report(lesson.id, { position: 29.8, watched: 1, speed: 1, ended: true }, cookie);
    const lines = await coinsOf();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      amount: 10,
      balance_after: 10,
      reason: "lesson_finished",
      ref_type: "lesson",
      ref_id: String(lesson.id),
    });
  });

  it("resumes where the learner stopped, unless within 10 s of the end", async () => {
    const { cookie } = await login();
    const lesson = trialOf(paid);
    const resumeAt = async (position: number) => {
      await report(lesson.id, { position, watched: 0, speed: 1 }, cookie);
      return (await get(`/api/learning/lessons/${lesson.id}`, cookie)).body.resume.position;
    };
    // The lesson lasts 33 s: from 23 s on it starts again.
    expect(await resumeAt(12)).toBe(12);
    expect(await resumeAt(22)).toBe(22);
    expect(await resumeAt(23)).toBe(0);
    expect(await resumeAt(28)).toBe(0);
  });

  it("sets the enrolment's last lesson for enrolled learners only", async () => {
    const learner = await login();
    await enrol(learner.id, paid.course.id);
    const lesson = lockedOf(paid, 1);
    const at = new Date(file.realNow().getTime() - 5000);
    api().now = () => at;
    expect((await report(lesson.id, { position: 4, watched: 4, speed: 1 }, learner.cookie)).status).toBe(200);
    const enrolment = await db()
      .selectFrom("enrolments")
      .selectAll()
      .where("user_id", "=", learner.id)
      .where("course_id", "=", paid.course.id)
      .executeTakeFirstOrThrow();
    expect(enrolment.last_lesson_id).toBe(lesson.id);
    expect(enrolment.last_learned_at!.getTime()).toBe(at.getTime());

    const visitor = await login();
    expect((await report(trialOf(paid).id, { position: 4, watched: 4, speed: 1 }, visitor.cookie)).status).toBe(200);
    const none = await db().selectFrom("enrolments").select("user_id").where("user_id", "=", visitor.id).execute();
    expect(none).toEqual([]);
  });

  it("reports arriving at once all count: one row, the capped sum", async () => {
    const { cookie, id } = await login();
    const lesson = paid.lessons[0]!;
    const batch = (watched: number, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => report(lesson.id, { position: i, watched, speed: 1 }, cookie)));
    const first = await batch(1, 20);
    expect(first.map((r) => r.status)).toEqual(Array(20).fill(200));
    const row = await progressRow(id, lesson.id);
    expect(row!.watched_seconds).toBe(20);
    expect(row!.completed_at).toBeNull();
    await batch(2, 20);
    const capped = await progressRow(id, lesson.id);
    expect(capped!.watched_seconds).toBe(33);
    expect(capped!.completed_at).not.toBeNull();
    const rows = await db().selectFrom("lesson_progress").select("lesson_id").where("user_id", "=", id).execute();
    expect(rows).toHaveLength(1);
  });

  it("60 reports a minute per learner, then 429 with Retry-After", async () => {
    const { cookie } = await login();
    const start = Math.floor(file.realNow().getTime() / 60_000) * 60_000 + 1000;
    api().now = () => new Date(start);
    const lesson = trialOf(paid).id;
    for (let i = 0; i < 60; i++) {
      expect((await report(lesson, { position: i % 20, watched: 0, speed: 1 }, cookie)).status).toBe(200);
    }
    const over = await report(lesson, { position: 1, watched: 0, speed: 1 }, cookie);
    expect(over.status).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect(over.body.error.message).toBe("学习进度保存得太频繁，请稍后再试");
    api().now = () => new Date(start + 60_000);
    expect((await report(lesson, { position: 1, watched: 0, speed: 1 }, cookie)).status).toBe(200);
  });
});

describe("PUT /api/learning/speed", () => {
  it("remembers the speed for every lesson", async () => {
    const { cookie, id } = await login();
    const res = await put("/api/learning/speed", { speed: 1.5 }, cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ speed: 1.5 });
    const user = await db()
      .selectFrom("users")
      .select("playback_speed_x100")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(user.playback_speed_x100).toBe(150);
    const other = await get(`/api/learning/lessons/${paid.lessons[1]!.id}`, cookie);
    expect(other.body.resume.speed).toBe(1.5);
    const item = await get("/api/learning/public-items/1", cookie);
    expect(item.body.speed).toBe(1.5);
  });

  it("accepts only the offered speeds, and only signed in", async () => {
    const { cookie } = await login();
    for (const speed of [0.5, 0.8, 2.25, 10]) {
      const res = await put("/api/learning/speed", { speed }, cookie);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("倍速只能是 0.75、1、1.25、1.5 或 2");
    }
    for (const speed of [0.75, 1, 1.25, 1.5, 2]) {
      expect((await put("/api/learning/speed", { speed }, cookie)).status).toBe(200);
    }
    expect((await put("/api/learning/speed", { speed: 1 })).status).toBe(401);
  });
});

describe("public lessons", () => {
  it("lists the public lessons in order, publicly cacheable", async () => {
    const res = await get("/api/learning/public-items");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.items).toHaveLength(8);
    expect(res.body.items[0]).toMatchObject({ title: "三分钟学会正确执笔", teacherName: "林墨", durationSeconds: 30 });
    const positions = await db().selectFrom("public_course_items").select(["id"]).orderBy("position").execute();
    expect(res.body.items.map((i: { id: number }) => i.id)).toEqual(positions.map((p) => p.id));
  });

  it("one public lesson plays for everyone; unknown ids are 404", async () => {
    const list = (await get("/api/learning/public-items")).body.items;
    const res = await get(`/api/learning/public-items/${list[2].id}`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.item).toMatchObject({ id: list[2].id, title: list[2].title, teacher: { name: "周砚秋" } });
    expect(res.body.sources.hls).toMatch(/^\/media\/video\/\w+\/index\.m3u8$/);
    expect(res.body.speed).toBeNull();
    expect(res.body.more.map((i: { id: number }) => i.id)).not.toContain(list[2].id);
    expect(res.body.more).toHaveLength(7);
    for (const id of ["999999", "x", "0"]) {
      const missing = await get(`/api/learning/public-items/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe("公开课不存在");
    }
  });
});

describe("replays", () => {
  const sessionByTitle = (title: string) =>
    db().selectFrom("live_sessions").selectAll().where("title", "=", title).executeTakeFirstOrThrow();

  it("lists finished sessions with a recording, newest first, with chapter marks", async () => {
    const res = await get("/api/learning/replays");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const { items, total, page, hasMore } = res.body;
    expect({ total, page, hasMore }).toEqual({ total: 7, page: 1, hasMore: false });
    expect(items.map((i: { title: string }) => i.title)).toEqual([
      "连绵与节奏 · 书谱选段",
      "节气与书法 · 小雪",
      "作文直播 · 写一个人",
      "写字诊断 · 第十二期",
      "说文部首 · 人、大、子",
      "乙瑛碑精读 · 第一讲",
      "结构四十八法 · 第一讲：天覆与地载",
    ]);
    for (const item of items) {
      expect(item.state).toBe("replay");
      expect(item.chapterMarks).toEqual([
        { at: 0, title: "开场与本讲要点" },
        { at: 10, title: "示范书写" },
        { at: 20, title: "答疑与作业" },
      ]);
      expect(item.durationSeconds).toBe(30);
      expect(item.teacherName).toBeTruthy();
      expect(item.courseTitle).toBeTruthy();
    }
    const beyond = await get("/api/learning/replays?page=2");
    expect(beyond.body).toMatchObject({ items: [], total: 7, page: 2, hasMore: false });
    const bad = await get("/api/learning/replays?page=abc");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("页码必须是数字");
  });

  it("a recording plays for its course's learners only; others learn why, with no address", async () => {
    const session = await sessionByTitle("乙瑛碑精读 · 第一讲");
    const anonymous = await get(`/api/learning/replays/${session.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.access).toEqual({
      allowed: false,
      reason: "purchase",
      message: "本场回放仅对课程学员开放，购买课程后即可观看",
    });
    expect(anonymous.body.sources).toBeNull();
    expect(anonymous.text).not.toContain("/media/video/");
    expect(anonymous.body.replay.chapterMarks).toHaveLength(3);

    const learner = await login();
    expect((await get(`/api/learning/replays/${session.id}`, learner.cookie)).body.access.allowed).toBe(false);
    expect(
      (await put(`/api/learning/replays/${session.id}/progress`, { position: 1, watched: 1, speed: 1 }, learner.cookie))
        .status,
    ).toBe(403);
    await enrol(learner.id, session.course_id!);
    const res = await get(`/api/learning/replays/${session.id}`, learner.cookie);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.body.access.allowed).toBe(true);
    expect(res.body.sources.hls).toBe(`/media/video/${session.recording_video_key}/index.m3u8`);
    expect(res.body.resume).toEqual({ position: 0, savedAt: null, speed: 1 });
    expect(res.body.course).toMatchObject({ id: session.course_id });

    const saved = await put(
      `/api/learning/replays/${session.id}/progress`,
      { position: 14, watched: 14, speed: 2 },
      learner.cookie,
    );
    expect(saved.body).toEqual({ position: 14, watchedSeconds: 14, percent: 47, completed: false });
    const again = await get(`/api/learning/replays/${session.id}`, learner.cookie);
    expect(again.body.resume).toEqual({ position: 14, savedAt: expect.any(String), speed: 2 });
    const row = await db()
      .selectFrom("replay_progress")
      .selectAll()
      .where("user_id", "=", learner.id)
      .where("live_id", "=", session.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ position_seconds: 14, watched_seconds: 14, completed_at: null });
    const ended = await put(
      `/api/learning/replays/${session.id}/progress`,
      { position: 30, watched: 50, speed: 2, ended: true },
      learner.cookie,
    );
    expect(ended.body).toEqual({ position: 30, watchedSeconds: 30, percent: 100, completed: true });
    expect((await get(`/api/learning/replays/${session.id}`, learner.cookie)).body.resume.position).toBe(0);
  });

  it("an open session's recording is for everyone; the session's teacher always sees it", async () => {
    const session = await sessionByTitle("写字诊断 · 第十二期");
    await db().updateTable("live_sessions").set({ is_open: true }).where("id", "=", session.id).execute();
    const open = await get(`/api/learning/replays/${session.id}`);
    expect(open.body.access.allowed).toBe(true);
    expect(open.body.sources).not.toBeNull();
    await db().updateTable("live_sessions").set({ is_open: false }).where("id", "=", session.id).execute();

    const teacher = await login();
    await db().updateTable("teachers").set({ user_id: teacher.id }).where("id", "=", session.teacher_id).execute();
    expect((await get(`/api/learning/replays/${session.id}`, teacher.cookie)).body.access.allowed).toBe(true);
    await db().updateTable("teachers").set({ user_id: null }).where("id", "=", session.teacher_id).execute();
  });

  it("a recording being processed says so; sessions without a recording yet are 404", async () => {
    const session = await sessionByTitle("连绵与节奏 · 书谱选段");
    const endedAt = new Date(file.realNow().getTime() - 30 * 60_000);
    await db()
      .updateTable("live_sessions")
      .set({
        state: "processing",
        starts_at: new Date(endedAt.getTime() - 90 * 60_000),
        ends_at: endedAt,
      })
      .where("id", "=", session.id)
      .execute();
    const res = await get(`/api/learning/replays/${session.id}`);
    expect(res.status).toBe(200);
    expect(res.body.access).toEqual({ allowed: false, reason: "processing", message: "回放生成中，请稍后再来" });
    expect(res.body.sources).toBeNull();
    expect(res.body.replay.state).toBe("processing");
    const list = await get("/api/learning/replays");
    expect(list.body.items.map((i: { id: number }) => i.id)).not.toContain(session.id);
    const operator = await login();
    await db().updateTable("users").set({ role: "operator" }).where("id", "=", operator.id).execute();
    expect(
      (
        await put(
          `/api/learning/replays/${session.id}/progress`,
          { position: 1, watched: 1, speed: 1 },
          operator.cookie,
        )
      ).status,
    ).toBe(403);

    // Two hours after the end the clock makes it a replay, whatever the stored state says.
    api().now = () => new Date(endedAt.getTime() + 2 * 3600_000 + 1000);
    const later = await get(`/api/learning/replays/${session.id}`, operator.cookie);
    expect(later.body.replay.state).toBe("replay");
    expect(later.body.access.allowed).toBe(true);

    const states = [
      ["乙瑛碑精读 · 第四讲", "scheduled"],
      ["结构四十八法 · 第五讲：左右相让", "live"],
      ["结构四十八法 · 第六讲（改期）", "cancelled"],
    ] as const;
    api().now = file.realNow;
    for (const [title, state] of states) {
      // As the schedule has it (the state job may have run on a moved clock meanwhile).
      await db().updateTable("live_sessions").set({ state }).where("title", "=", title).execute();
      const other = await sessionByTitle(title);
      const missing = await get(`/api/learning/replays/${other.id}`);
      expect(missing.status, title).toBe(404);
      expect(missing.body.error.message).toBe("回放不存在");
    }
    expect((await get("/api/learning/replays/999999")).status).toBe(404);
    expect((await get("/api/learning/replays/abc")).status).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("describes every learning endpoint from the shared contracts", () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, learningEndpoints(api()));
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/learning/lessons/{id}",
      "/learning/lessons/{id}/progress",
      "/learning/public-items",
      "/learning/public-items/{id}",
      "/learning/replays",
      "/learning/replays/{id}",
      "/learning/replays/{id}/progress",
      "/learning/speed",
    ]);
    const put = doc.paths["/learning/lessons/{id}/progress"]!.put as { requestBody: unknown; security: unknown };
    expect(JSON.stringify(put.requestBody)).toContain("position");
    expect(put.security).toEqual([{ session: [] }]);
  });
});
