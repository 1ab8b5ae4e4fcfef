/**
 * The course catalogue's API on the demo catalogue: filters, every sort order, pagination
 * boundaries and bad queries; the public detail (locks, related items, live sessions, camp
 * dates) and 404s; free enrolment (rules, idempotence, 20 concurrent requests); the learner's
 * state on a course and "my courses" with progress; and the pages that show them.
 */
import type { AddressInfo } from "node:net";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseCategories } from "../../shared/catalogue";
import { NOT_FOUND_MESSAGE } from "../../shared/errors";
import { BROWSER_UA, testApp } from "./helpers";
import { chinaDate } from "../../shared/china-time";
import { campUnlockDate } from "../../api/modules/courses/access";
import { enrolFree } from "../../api/modules/courses/learner";
import { courseEndpoints } from "../../api/modules/courses/endpoints";
import { homeEndpoints } from "../../api/modules/home/endpoints";
import { openApiDocument } from "../../api/openapi";

const ORIGIN = "http://localhost:3000";
type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;
let phoneSeq = 0;
const nextPhone = () => `136${String(30_000_000 + ++phoneSeq * 7919 + process.pid * 17).slice(-8)}`;

beforeAll(async () => {
  h = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(async () => {
  await h.dispose();
});

const api = () => h.services!.api;
const db = () => api().database.db;

const get = (url: string, cookie?: string) => {
  const r = request(h.app).get(url);
  return cookie ? r.set("Cookie", cookie) : r;
};
const post = (url: string, body: unknown, cookie?: string) => {
  const r = request(h.app).post(url).set("Origin", ORIGIN);
  return (cookie ? r.set("Cookie", cookie) : r).send(body as object);
};

async function login(): Promise<{ cookie: string; id: number }> {
  const phone = nextPhone();
  // Every request comes from one address: the per-IP code limits are the auth tests' business.
  await db().deleteFrom("rate_limits").execute();
  expect((await post("/api/auth/sms/send", { phone })).status).toBe(200);
  const message = api()
    .outbox!.list()
    .find((m) => m.to === phone);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  const res = await post("/api/auth/sms/login", { phone, code });
  expect(res.status).toBe(200);
  const raw = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("sid="));
  const cookie = raw!.split(";")[0]!;
  const me = await get("/api/me", cookie);
  return { cookie, id: me.body.profile.id as number };
}

async function courseRow(title: string) {
  return db().selectFrom("courses").selectAll().where("title", "=", title).executeTakeFirstOrThrow();
}

interface Summary {
  id: number;
  title: string;
  category: string;
  kind: string;
  level: string;
  priceCents: number;
  learnersCount: number;
  lessonsCount: number;
}

async function allCourses(query = ""): Promise<Summary[]> {
  const res = await get(`/api/courses?pageSize=48${query}`);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe("GET /api/courses", () => {
  it("lists the popular courses first, twelve to a page, and lets caches keep it a minute", async () => {
    const res = await get("/api/courses");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body).toMatchObject({ total: 42, page: 1, pageSize: 12, hasMore: true });
    expect(res.body.items).toHaveLength(12);
    const first = res.body.items[0];
    expect(first).toMatchObject({ title: "硬笔体验课：正确握笔", teacherName: "孙一笔", priceCents: 0 });
    expect(first.lessonsCount).toBeGreaterThan(0);
  });

  it("orders by each sort really, ties by id", async () => {
    const rows = await db().selectFrom("courses").selectAll().execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const orders: Record<string, (a: (typeof rows)[number], b: (typeof rows)[number]) => number> = {
      popular: (a, b) => b.popularity - a.popularity || a.id - b.id,
      newest: (a, b) => b.published_at.getTime() - a.published_at.getTime() || a.id - b.id,
      price_asc: (a, b) => a.price_cents - b.price_cents || a.id - b.id,
      price_desc: (a, b) => b.price_cents - a.price_cents || a.id - b.id,
    };
    for (const [sort, compare] of Object.entries(orders)) {
      const ids = (await allCourses(`&sort=${sort}`)).map((c) => c.id);
      expect(ids, sort).toHaveLength(42);
      expect(ids, sort).toEqual([...rows].sort(compare).map((r) => r.id));
      // Not the same order by accident: every pair of neighbours is in order.
      for (let i = 1; i < ids.length; i++) expect(compare(byId.get(ids[i - 1]!)!, byId.get(ids[i]!)!)).toBeLessThan(0);
    }
    const cheapest = await allCourses("&sort=price_asc");
    expect(cheapest.slice(0, 4).every((c) => c.priceCents === 0)).toBe(true);
    expect(cheapest.at(-1)!.priceCents).toBe(Math.max(...rows.map((r) => r.price_cents)));
  });

  it("filters by category, kind, level and price, alone and together", async () => {
    for (const { key } of courseCategories) {
      const items = await allCourses(`&category=${key}`);
      expect(items.length, key).toBeGreaterThan(0);
      expect(items.every((c) => c.category === key)).toBe(true);
    }
    const kaishu = await get("/api/courses?category=kaishu");
    expect(kaishu.body.total).toBe(7);

    const camps = await allCourses("&kind=camp");
    expect(camps).toHaveLength(6);
    expect(camps.every((c) => c.kind === "camp")).toBe(true);

    const free = await allCourses("&price=free");
    expect(free.map((c) => c.title).sort()).toEqual(
      ["毛笔零基础体验课", "隶书体验：一个蚕头燕尾", "硬笔体验课：正确握笔", "读写体验：一篇日记的写法"].sort(),
    );
    const paid = await allCourses("&price=paid");
    expect(paid).toHaveLength(38);
    expect(paid.every((c) => c.priceCents > 0)).toBe(true);

    const advanced = await allCourses("&level=advanced");
    expect(advanced.every((c) => c.level === "advanced")).toBe(true);

    const combined = await get("/api/courses?category=kaishu&kind=recorded&level=beginner&price=paid");
    expect(combined.body.items.map((c: Summary) => c.title).sort()).toEqual(
      ["欧体楷书入门：九成宫醴泉铭精讲", "小楷入门：灵飞经"].sort(),
    );
    expect(combined.body.total).toBe(2);

    const none = await get("/api/courses?category=xiezuo&kind=live&price=free");
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ items: [], total: 0, hasMore: false });
  });

  it("pages through everything once, and stops at the end", async () => {
    const everything = (await allCourses()).map((c) => c.id);
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await get(`/api/courses?pageSize=10&page=${page}`);
      expect(res.body.page).toBe(page);
      expect(res.body.total).toBe(42);
      expect(res.body.items).toHaveLength(page < 5 ? 10 : 2);
      expect(res.body.hasMore).toBe(page < 5);
      seen.push(...res.body.items.map((c: Summary) => c.id));
    }
    expect(seen).toEqual(everything);
    const beyond = await get("/api/courses?pageSize=10&page=6");
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ items: [], total: 42, page: 6, hasMore: false });
    const exact = await get("/api/courses?pageSize=21&page=2");
    expect(exact.body.items).toHaveLength(21);
    expect(exact.body.hasMore).toBe(false);
    expect((await get("/api/courses?pageSize=48")).body.items).toHaveLength(42);
  });

  it("answers a bad query with 400 and a Chinese message", async () => {
    const bad: Array<[string, string]> = [
      ["category=calligraphy", "课程分类不存在"],
      ["category=", "课程分类不存在"],
      ["category=kaishu&category=xingshu", "课程分类不存在"],
      ["kind=video", "课程类型只能是录播课、直播课或训练营"],
      ["level=expert", "课程难度只能是入门、进阶或提高"],
      ["price=cheap", "价格筛选只能是免费或付费"],
      ["sort=random", "排序方式不正确"],
      ["page=0", "页码必须是正整数"],
      ["page=-1", "页码必须是正整数"],
      ["page=1.5", "页码必须是正整数"],
      ["page=abc", "页码必须是正整数"],
      ["page=1001", "页码不能大于 1000"],
      ["pageSize=49", "每页数量不能大于 48"],
      ["pageSize=0", "每页数量必须是正整数"],
      ["q=楷书", "不支持的查询参数：q"],
    ];
    for (const [query, message] of bad) {
      const res = await get(`/api/courses?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatchObject({ code: "invalid_input", message });
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
  });
});

describe("GET /api/courses/:id", () => {
  it("gives the outline with trial and locked lessons, the teacher and related items", async () => {
    const course = await courseRow("欧体楷书入门：九成宫醴泉铭精讲");
    const res = await get(`/api/courses/${course.id}`);
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const detail = res.body;
    expect(detail).toMatchObject({
      id: course.id,
      title: course.title,
      priceCents: 19900,
      originalPriceCents: 29900,
      kind: "recorded",
      teacher: { name: "林墨", specialty: "楷书 · 欧体" },
      campStartsOn: null,
      liveSessions: [],
    });
    expect(detail.introduction).toContain("林墨老师主讲");
    expect(detail.outcomes.length).toBeGreaterThan(0);
    const lessons = detail.chapters.flatMap((c: { lessons: unknown[] }) => c.lessons);
    expect(detail.chapters.map((c: { title: string }) => c.title)).toEqual([
      "第一章 准备与笔法",
      "第二章 基本笔画",
      "第三章 结构与临写",
    ]);
    expect(lessons).toHaveLength(detail.lessonsCount);
    // Anonymous: the two trial lessons are open, every other one is locked until bought.
    expect(lessons.slice(0, 2).map((l: { isTrial: boolean; locked: boolean }) => [l.isTrial, l.locked])).toEqual([
      [true, false],
      [true, false],
    ]);
    for (const lesson of lessons.slice(2))
      expect(lesson).toMatchObject({ isTrial: false, locked: true, lockReason: "purchase" });
    expect(detail.firstTrialLessonId).toBe(lessons[0].id);
    expect(detail.firstLessonId).toBe(lessons[0].id);

    expect(detail.relatedBooks.length).toBeGreaterThanOrEqual(3);
    expect(detail.relatedBooks[0].title).toBe("九成宫醴泉铭");
    expect(detail.relatedBooks.every((b: { tab: string }) => ["碑帖", "技法"].includes(b.tab))).toBe(true);
    expect(detail.relatedCommodities.length).toBeGreaterThanOrEqual(3);
    expect(detail.relatedCommodities[0].title).toBe("九成宫米字格描红本");
    // Something to write with, on and in: one of each kind, not four brushes.
    expect(detail.relatedCommodities.map((c: { category: string }) => c.category).sort()).toEqual(
      ["字帖纸", "毛笔", "墨汁", "宣纸"].sort(),
    );
  });

  it("fits related books and stationery to the category", async () => {
    const pen = await courseRow("硬笔楷书三十天");
    const penDetail = (await get(`/api/courses/${pen.id}`)).body;
    expect(penDetail.relatedBooks.length).toBeGreaterThanOrEqual(3);
    expect(penDetail.relatedBooks.every((b: { tab: string }) => b.tab === "硬笔字帖")).toBe(true);
    const penStationery = penDetail.relatedCommodities.map((c: { category: string }) => c.category);
    expect(penStationery.length).toBeGreaterThanOrEqual(3);
    expect(penStationery.every((c: string) => ["硬笔", "字帖纸", "文具"].includes(c))).toBe(true);
    expect(new Set(penStationery)).toEqual(new Set(["硬笔", "字帖纸", "文具"]));
    // A taster that names no copybook still gets its category's: 曹全碑 and 张迁碑 for 隶书.
    const lishu = await courseRow("隶书体验：一个蚕头燕尾");
    const lishuDetail = (await get(`/api/courses/${lishu.id}`)).body;
    expect(
      lishuDetail.relatedBooks
        .slice(0, 3)
        .map((b: { title: string }) => b.title)
        .sort(),
    ).toEqual(["曹全碑", "张迁碑", "隶书技法十二讲"].sort());
    expect(lishuDetail.relatedCommodities.map((c: { title: string }) => c.title)).toContain("曹全碑临写本");
    const writing = await courseRow("小学作文：从观察开始");
    const writingDetail = (await get(`/api/courses/${writing.id}`)).body;
    expect(writingDetail.relatedBooks[0].tab).toBe("写作");
    expect(writingDetail.relatedBooks.length).toBeGreaterThanOrEqual(3);
    expect(writingDetail.relatedCommodities.length).toBeGreaterThanOrEqual(3);
  });

  it("opens every lesson of a free course, and lists a live course's sessions with their state", async () => {
    const free = await courseRow("毛笔零基础体验课");
    const freeDetail = (await get(`/api/courses/${free.id}`)).body;
    expect(freeDetail.priceCents).toBe(0);
    for (const chapter of freeDetail.chapters)
      for (const lesson of chapter.lessons) expect(lesson).toMatchObject({ isTrial: true, locked: false });

    const live = await courseRow("楷书直播小班：结构四十八法");
    const liveDetail = (await get(`/api/courses/${live.id}`)).body;
    const states = liveDetail.liveSessions.map((s: { state: string }) => s.state);
    // Nine days ago (a replay now), on since half an hour, and one called off.
    expect(states).toEqual(["replay", "live", "cancelled"]);
    const starts = liveDetail.liveSessions.map((s: { startsAt: string }) => Date.parse(s.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("dates a camp's lessons from its first day", async () => {
    const camp = await courseRow("颜勤礼碑二十一天训练营");
    const detail = (await get(`/api/courses/${camp.id}`)).body;
    expect(detail.campStartsOn).toBe(camp.camp_starts_on);
    const lessons = detail.chapters.flatMap((c: { lessons: unknown[] }) => c.lessons);
    lessons.forEach((lesson: { unlockDay: number; unlockDate: string }, i: number) => {
      expect(lesson.unlockDay).toBe(i + 1);
      expect(lesson.unlockDate).toBe(campUnlockDate(camp.camp_starts_on, i + 1));
    });
    expect(campUnlockDate("2026-02-27", 3)).toBe("2026-03-01");
  });

  it("answers 404 课程不存在 for an unknown, malformed or unpublished course", async () => {
    const hidden = await courseRow("张迁碑：方拙之美");
    await db().updateTable("courses").set({ status: "draft" }).where("id", "=", hidden.id).execute();
    try {
      for (const url of [
        "/api/courses/999999",
        "/api/courses/0",
        "/api/courses/abc",
        "/api/courses/01",
        `/api/courses/${hidden.id}`,
      ]) {
        const res = await get(url);
        expect(res.status, url).toBe(404);
        expect(res.body).toEqual({ error: { code: "not_found", message: "课程不存在" } });
      }
      const listed = await allCourses();
      expect(listed.map((c) => c.id)).not.toContain(hidden.id);
      expect(listed).toHaveLength(41);
    } finally {
      await db().updateTable("courses").set({ status: "published" }).where("id", "=", hidden.id).execute();
    }
  });
});

describe("enrolment and the learner's state", () => {
  it("needs a session", async () => {
    const free = await courseRow("毛笔零基础体验课");
    for (const res of [
      await post(`/api/courses/${free.id}/enrol`, {}),
      await get(`/api/courses/${free.id}/me`),
      await get("/api/courses/mine"),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe("请先登录");
    }
  });

  it("enrols in a free course once, however often it is asked", async () => {
    const { cookie, id } = await login();
    const free = await courseRow("隶书体验：一个蚕头燕尾");
    const before = (await get(`/api/courses/${free.id}/me`, cookie)).body;
    expect(before).toMatchObject({ enrolled: false, continueLessonId: null, lessonsCompleted: 0 });

    const first = await post(`/api/courses/${free.id}/enrol`, {}, cookie);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("private, no-store");
    const detail = (await get(`/api/courses/${free.id}`)).body;
    const firstLesson = detail.chapters[0].lessons[0].id;
    expect(first.body).toEqual({
      enrolled: true,
      newlyEnrolled: true,
      learnersCount: free.learners_count + 1,
      continueLessonId: firstLesson,
    });
    const again = await post(`/api/courses/${free.id}/enrol`, {}, cookie);
    expect(again.body).toMatchObject({ newlyEnrolled: false, learnersCount: free.learners_count + 1 });
    expect((await courseRow(free.title)).learners_count).toBe(free.learners_count + 1);
    const rows = await db().selectFrom("enrolments").selectAll().where("user_id", "=", id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ course_id: free.id, source: "free" });

    const after = (await get(`/api/courses/${free.id}/me`, cookie)).body;
    expect(after).toMatchObject({ enrolled: true, continueLessonId: firstLesson });
    expect(after.lessons.every((l: { locked: boolean }) => !l.locked)).toBe(true);
  });

  it("refuses a paid course with 402, and an unknown one with 404", async () => {
    const { cookie, id } = await login();
    const paid = await courseRow("兰亭序逐字精讲");
    const res = await post(`/api/courses/${paid.id}/enrol`, {}, cookie);
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({ code: "payment_required", message: "该课程需购买后学习" });
    expect(await db().selectFrom("enrolments").selectAll().where("user_id", "=", id).execute()).toEqual([]);
    expect((await courseRow(paid.title)).learners_count).toBe(paid.learners_count);

    const unknown = await post("/api/courses/999999/enrol", {}, cookie);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("课程不存在");
    const odd = await post(`/api/courses/${paid.id}/enrol`, { source: "gift" }, cookie);
    expect(odd.status).toBe(400);
    expect(odd.body.error.message).toBe("不支持的字段：source");
  });

  it("counts 20 concurrent enrolments of one learner once", async () => {
    const { cookie, id } = await login();
    const free = await courseRow("读写体验：一篇日记的写法");
    // One listening server and the requests all sent at once, so they really overlap.
    const server = h.app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`http://127.0.0.1:${port}/api/courses/${free.id}/enrol`, {
            method: "POST",
            headers: { Origin: ORIGIN, Cookie: cookie, "Content-Type": "application/json" },
            body: "{}",
          }).then(async (res) => ({ status: res.status, body: await res.json() })),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(answers.filter((a) => a.body.newlyEnrolled)).toHaveLength(1);
    } finally {
      server.close();
    }
    const rows = await db()
      .selectFrom("enrolments")
      .selectAll()
      .where("user_id", "=", id)
      .where("course_id", "=", free.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await courseRow(free.title)).learners_count).toBe(free.learners_count + 1);

    // And without HTTP in between, where the requests overlap the most.
    const other = await db()
      .insertInto("users")
      .values({ phone: nextPhone() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const results = await Promise.all(Array.from({ length: 20 }, () => enrolFree(api(), other.id, free.id)));
    expect(results.filter((r) => r.newlyEnrolled)).toHaveLength(1);
    expect(new Set(results.map((r) => r.continueLessonId)).size).toBe(1);
    expect((await courseRow(free.title)).learners_count).toBe(free.learners_count + 2);
  });

  it("keeps a bought camp's later days locked until their date", async () => {
    const { cookie, id } = await login();
    const camp = await courseRow("礼器碑临写训练营");
    const locked = (await get(`/api/courses/${camp.id}/me`, cookie)).body;
    expect(locked.enrolled).toBe(false);
    expect(locked.lessons.slice(2).every((l: { lockReason: string }) => l.lockReason === "purchase")).toBe(true);

    await db().insertInto("enrolments").values({ user_id: id, course_id: camp.id, source: "order" }).execute();
    const state = (await get(`/api/courses/${camp.id}/me`, cookie)).body;
    const detail = (await get(`/api/courses/${camp.id}`)).body;
    const lessons = detail.chapters.flatMap((c: { lessons: Array<{ id: number; unlockDate: string }> }) => c.lessons);
    const today = chinaDate(new Date());
    // The camp began three days ago: days one to four are open, the rest wait for their date.
    expect(lessons.filter((l: { unlockDate: string }) => l.unlockDate <= today)).toHaveLength(4);
    for (const [i, lesson] of state.lessons.entries()) {
      const opens = lessons[i].unlockDate;
      expect(lesson.id).toBe(lessons[i].id);
      expect(lesson, `day ${i + 1}`).toMatchObject(
        opens <= today ? { locked: false, lockReason: null } : { locked: true, lockReason: "camp" },
      );
    }
    // Enrolling again in a bought course changes nothing.
    const again = await post(`/api/courses/${camp.id}/enrol`, {}, cookie);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ newlyEnrolled: false, learnersCount: camp.learners_count });
  });

  it("lists my courses with progress, the last lesson learned first", async () => {
    const { cookie, id } = await login();
    expect((await get("/api/courses/mine", cookie)).body).toEqual({ items: [], total: 0 });

    const studied = await courseRow("硬笔体验课：正确握笔");
    const untouched = await courseRow("毛笔零基础体验课");
    await post(`/api/courses/${untouched.id}/enrol`, {}, cookie);
    await post(`/api/courses/${studied.id}/enrol`, {}, cookie);
    const lessons = (await get(`/api/courses/${studied.id}`)).body.chapters.flatMap(
      (c: { lessons: Array<{ id: number; title: string; durationSeconds: number }> }) => c.lessons,
    );
    const now = new Date();
    await db()
      .insertInto("lesson_progress")
      .values([
        { user_id: id, lesson_id: lessons[0].id, watched_seconds: 30, completed_at: now, updated_at: now },
        { user_id: id, lesson_id: lessons[1].id, watched_seconds: 30, completed_at: now, updated_at: now },
        { user_id: id, lesson_id: lessons[2].id, watched_seconds: 12, position_seconds: 12, updated_at: now },
      ])
      .execute();
    await db()
      .updateTable("enrolments")
      .set({ last_lesson_id: lessons[2].id, last_learned_at: now })
      .where("user_id", "=", id)
      .where("course_id", "=", studied.id)
      .execute();

    const mine = await get("/api/courses/mine", cookie);
    expect(mine.status).toBe(200);
    expect(mine.headers["cache-control"]).toBe("private, no-store");
    expect(mine.body.total).toBe(2);
    const [first, second] = mine.body.items;
    expect(first).toMatchObject({
      course: { id: studied.id, title: studied.title },
      lessonsTotal: lessons.length,
      lessonsCompleted: 2,
      percent: Math.floor((2 * 100) / lessons.length),
      lastLesson: { id: lessons[2].id, title: lessons[2].title },
      lastLearnedAt: now.toISOString(),
      continueLessonId: lessons[2].id,
    });
    const untouchedLessons = (await get(`/api/courses/${untouched.id}`)).body.chapters[0].lessons;
    expect(second).toMatchObject({
      course: { id: untouched.id },
      lessonsCompleted: 0,
      percent: 0,
      lastLesson: null,
      lastLearnedAt: null,
      continueLessonId: untouchedLessons[0].id,
    });

    const state = (await get(`/api/courses/${studied.id}/me`, cookie)).body;
    expect(state).toMatchObject({ enrolled: true, continueLessonId: lessons[2].id, lessonsCompleted: 2 });
    expect(
      state.lessons
        .slice(0, 4)
        .map((l: { progressPercent: number; completed: boolean }) => [l.progressPercent, l.completed]),
    ).toEqual([
      [100, true],
      [100, true],
      [Math.floor((12 * 100) / lessons[2].durationSeconds), false],
      [0, false],
    ]);

    // Someone else's progress is not mine.
    const other = await login();
    expect((await get("/api/courses/mine", other.cookie)).body.total).toBe(0);
  });
});

describe("the catalogue pages", () => {
  const page = (url: string, cookie?: string) => get(url, cookie).set("User-Agent", BROWSER_UA);

  it("renders a course page with its outline and structured data, and 404 for an unknown one", async () => {
    const course = await courseRow("欧体楷书入门：九成宫醴泉铭精讲");
    const res = await page(`/course/${course.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<title>${course.title} - 墨池课堂</title>`);
    expect(res.text).toContain("执笔与坐姿");
    expect(res.text).toContain("试看");
    expect(res.text).toContain("购买课程后学习");
    expect(res.text).toMatch(/"@type":"Course"/);
    expect(res.text).toContain('"priceCurrency":"CNY"');
    const live = await courseRow("楷书直播小班：结构四十八法");
    const liveHtml = (await page(`/course/${live.id}`)).text;
    const jsonLd = JSON.parse(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(liveHtml)![1]!);
    expect(jsonLd).toMatchObject({
      "@type": "Course",
      name: live.title,
      offers: { price: "599", priceCurrency: "CNY" },
      provider: { "@type": "Organization" },
    });
    // Its sessions as course instances, the cancelled one left out.
    expect(jsonLd.hasCourseInstance).toHaveLength(2);
    expect(jsonLd.hasCourseInstance[0]).toMatchObject({ "@type": "CourseInstance", courseMode: "Online" });
    const missing = await page("/course/999999");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(NOT_FOUND_MESSAGE);
  });

  it("moves old course addresses for good", async () => {
    const res = await page("/course_old/7");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/course/7");
  });

  it("renders the filtered list from the query, with pagination links and the canonical address", async () => {
    const res = await page("/product/list?category=kaishu&sort=newest&pageSize=99&utm_source=x");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<title>楷书课程 - 墨池课堂</title>");
    expect(res.text).toContain(
      'rel="canonical" href="http://localhost:3000/product/list?category=kaishu&amp;sort=newest"',
    );
    expect(res.text).toContain("毛笔零基础体验课");
    expect(res.text).not.toContain("兰亭序逐字精讲");
    expect(res.text).toContain('"@type":"ItemList"');

    const second = await page("/product/list?page=2");
    expect(second.status).toBe(200);
    expect(second.text).toContain('rel="canonical" href="http://localhost:3000/product/list?page=2"');
    expect(second.text).toMatch(
      /<a[^>]*href="\/product\/list\?page=3"[^>]*rel="next"|rel="next"[^>]*href="\/product\/list\?page=3"/,
    );
    expect(second.text).toMatch(/href="\/product\/list"[^>]*rel="prev"|rel="prev"[^>]*href="\/product\/list"/);

    const empty = await page("/product/list?category=xiezuo&kind=live&price=free");
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("没有找到符合条件的课程");

    const bad = await page("/product/list?category=nope");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("课程分类不存在");
  });

  it("renders the home page with courses, live lessons and books", async () => {
    const res = await page("/");
    expect(res.status).toBe(200);
    expect(res.text).toContain("硬笔体验课：正确握笔");
    expect(res.text).toContain("结构四十八法 · 第五讲：左右相让");
    // The works section reads the homework wall (empty in this catalogue): no placeholder text.
    expect(res.text).toContain("学员作品");
    expect(res.text).toContain("作业墙还空着");
    expect(res.text).not.toContain("即将展出");
    expect(res.text).toContain('"@type":"SearchAction"');
  });

  it("shows a signed-in learner's courses in the personal centre", async () => {
    const { cookie } = await login();
    const free = await courseRow("毛笔零基础体验课");
    const empty = await page("/my/allcourse", cookie);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("还没有课程");
    await post(`/api/courses/${free.id}/enrol`, {}, cookie);
    const res = await page("/my/allcourse", cookie);
    expect(res.text).toContain(free.title);
    expect(res.text).toContain("继续学习");
    const overview = await page("/my", cookie);
    expect(overview.text).toContain("最近在学");
    expect(overview.text).toContain(free.title);
  });
});

describe("the OpenAPI description", () => {
  it("describes every catalogue endpoint from the shared contracts", () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, [
      ...courseEndpoints(h.services!.api),
      ...homeEndpoints(h.services!.api),
    ]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      ["/courses", "/courses/mine", "/courses/{id}", "/courses/{id}/me", "/courses/{id}/enrol", "/home"].sort(),
    );
    const enrol = doc.paths["/courses/{id}/enrol"]!.post as { security?: unknown; parameters: unknown[] };
    expect(enrol.security).toEqual([{ session: [] }]);
    expect(enrol.parameters).toHaveLength(1);
    const detail = doc.paths["/courses/{id}"]!.get as {
      responses: { "200": { content: { "application/json": { schema: { properties: Record<string, unknown> } } } } };
    };
    expect(Object.keys(detail.responses["200"].content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["chapters", "teacher", "relatedBooks", "relatedCommodities", "liveSessions"]),
    );
  });
});
