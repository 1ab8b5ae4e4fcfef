/**
 * One search over courses, books and stationery, on the seeded demo catalogue: Chinese
 * substrings, literal % _ \, ranking, counts per kind, pages, validation, the search page.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, testApp } from "./helpers";
import { openApiDocument } from "../../api/openapi";
import { searchEndpoints } from "../../api/modules/search/endpoints";

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;

beforeAll(async () => {
  h = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(() => h.dispose());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
type Hit = any;
const search = (params: Record<string, string>) => request(h.app).get(`/api/search?${new URLSearchParams(params)}`);
const bodyOf = (hit: Hit) => hit[hit.kind] ?? hit.entry;
const titleOf = (hit: Hit): string => bodyOf(hit).title;

describe("GET /api/search", () => {
  it("finds a course and a book by a two-character substring (兰亭)", async () => {
    const res = await search({ q: "兰亭" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.counts).toMatchObject({ all: 2, course: 1, book: 1, commodity: 0 });
    expect(res.body.items.map((h: Hit) => [h.kind, titleOf(h), h.matched])).toEqual([
      ["course", "兰亭序逐字精讲", "title"],
      ["book", "兰亭序（冯承素摹本）", "title"],
    ]);
    // Full summaries, as the cards need them.
    expect(res.body.items[0].course).toMatchObject({ id: 8, teacherName: "周砚秋", lessonsCount: expect.any(Number) });
  });

  it("finds courses, books and stationery for 楷书, titles before other fields", async () => {
    const res = await search({ q: "楷书", pageSize: "48" });
    const { counts, items } = res.body;
    expect(counts.course).toBeGreaterThan(0);
    expect(counts.book).toBeGreaterThan(0);
    expect(counts.commodity).toBeGreaterThan(0);
    const { all, ...perKind } = counts;
    expect(all).toBe(Object.values(perKind).reduce((a: number, b) => a + Number(b), 0));
    expect(items).toHaveLength(counts.all);
    const titles = items.map(titleOf);
    expect(titles).toContain("欧体楷书入门：九成宫醴泉铭精讲");
    expect(titles).toContain("楷书结构九十二法");
    // The brush's summary says 楷书行书皆宜.
    const brush = items.find((h: Hit) => h.kind === "commodity" && titleOf(h) === "兼毫毛笔（七紫三羊）");
    expect(brush).toMatchObject({ matched: "other", snippet: "软硬适中，楷书行书皆宜" });
    const firstOther = items.findIndex((h: Hit) => h.matched === "other");
    expect(items.slice(firstOther).every((h: Hit) => h.matched === "other")).toBe(true);
    expect(items.slice(0, firstOther).every((h: Hit) => titleOf(h).includes("楷书"))).toBe(true);
    // 小楷入门：灵飞经 is a 楷书 course without the word in its title: found by its category.
    const category = items.find((h: Hit) => titleOf(h) === "小楷入门：灵飞经");
    expect(category).toMatchObject({ kind: "course", matched: "other", snippet: "分类：楷书" });
  });

  it("ranks an exact title first, across kinds", async () => {
    const res = await search({ q: "千字文" });
    expect(res.body.items.map((h: Hit) => [h.kind, titleOf(h)]).slice(0, 2)).toEqual([
      ["book", "千字文"],
      ["course", "千字文诵读与书写"],
    ]);
  });

  it("finds by teacher and by author, and says where it matched", async () => {
    const res = await search({ q: "林墨", pageSize: "48" });
    const course = res.body.items.find((h: Hit) => h.kind === "course");
    expect(course).toMatchObject({ matched: "other", snippet: "老师：林墨" });
    const book = res.body.items.find((h: Hit) => h.kind === "book");
    expect(book).toMatchObject({ matched: "other", snippet: "作者：林墨" });
    expect(titleOf(book)).toBe("毛笔书法入门教程");
  });

  it("treats %, _ and \\ in the words as themselves", async () => {
    for (const q of ["%", "_", "\\", "%楷", "楷_", "_书", "兰%序"]) {
      const res = await search({ q });
      expect(res.status, q).toBe(200);
      expect(res.body.counts.all, q).toBe(0);
    }
    // The same words without the wildcard do find things.
    expect((await search({ q: "楷" })).body.counts.all).toBeGreaterThan(0);
  });

  it("one kind's tab lists only that kind, with the same counts", async () => {
    const all = await search({ q: "宣纸" });
    const only = await search({ q: "宣纸", kind: "commodity", pageSize: "48" });
    expect(only.body.counts).toEqual(all.body.counts);
    expect(only.body.total).toBe(all.body.counts.commodity);
    expect(only.body.items.every((h: Hit) => h.kind === "commodity")).toBe(true);
    expect(only.body.items.map(titleOf)).toContain("生宣（净皮）");
  });

  it("pages through the results without gaps or repeats", async () => {
    const first = await search({ q: "笔", pageSize: "5" });
    const total = first.body.total;
    expect(total).toBeGreaterThan(10);
    const pages = await Promise.all(
      Array.from({ length: first.body.pageCount }, (_, i) => search({ q: "笔", pageSize: "5", page: String(i + 1) })),
    );
    const keys = pages.flatMap((r) => r.body.items.map((h: Hit) => `${h.kind}:${bodyOf(h).id}`));
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
  });

  it("trims the words and allows 1–40 characters", async () => {
    expect((await search({ q: "  兰亭  " })).body.q).toBe("兰亭");
    expect((await search({ q: "字".repeat(40) })).status).toBe(200);
    for (const [q, message] of [
      ["", "请输入要搜索的内容"],
      ["   ", "请输入要搜索的内容"],
      ["字".repeat(41), "搜索内容最多 40 个字"],
    ] as const) {
      const res = await search({ q });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const missing = await request(h.app).get("/api/search");
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("请输入要搜索的内容");
    const kind = await search({ q: "兰亭", kind: "video" });
    expect(kind.status).toBe(400);
    expect(kind.body.error.message).toBe("搜索范围不正确");
  });
});

describe("live sessions, public lessons, playback and activities", () => {
  const HOUR = 3_600_000;
  // Words that appear nowhere in the demo data, so the counts below are exact.
  beforeAll(async () => {
    const db = h.services!.database.db;
    const teacher = await db.selectFrom("teachers").select("id").orderBy("id").executeTakeFirstOrThrow();
    const now = Date.now();
    const live = (title: string, state: "scheduled" | "replay" | "cancelled", courseId: number | null = null) => ({
      course_id: courseId,
      teacher_id: teacher.id,
      title,
      summary: "悬腕练习",
      cover_char: "鹤",
      starts_at: new Date(now + (state === "replay" ? -48 : 24) * HOUR),
      ends_at: new Date(now + (state === "replay" ? -47 : 25) * HOUR),
      state,
      stream_key: "search-test",
      recording_video_key: state === "replay" ? "yong" : null,
      chapter_marks: "[]",
    });
    const draft = await db
      .insertInto("courses")
      .values(
        await db
          .selectFrom("courses")
          .select(["teacher_id", "category", "kind", "level", "cover_char"])
          .limit(1)
          .executeTakeFirstOrThrow()
          .then((c) => ({
            ...c,
            title: "草稿课程",
            status: "draft" as const,
            price_cents: 0,
            original_price_cents: 0,
            outcomes: "[]",
          })),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("live_sessions")
      .values([
        live("瘗鹤铭直播课", "scheduled"),
        live("瘗鹤铭已取消", "cancelled"),
        live("瘗鹤铭回放", "replay"),
        live("瘗鹤铭草稿课直播", "scheduled", draft.id),
      ])
      .execute();
    await db
      .insertInto("public_course_items")
      .values([
        {
          title: "瘗鹤铭公开课",
          teacher_id: teacher.id,
          video_key: "yong",
          duration_seconds: 60,
          cover_char: "鹤",
          published_at: new Date(now - HOUR),
        },
        {
          title: "瘗鹤铭未发布",
          teacher_id: teacher.id,
          video_key: "yong",
          duration_seconds: 60,
          cover_char: "鹤",
          published_at: new Date(now + 24 * HOUR),
        },
      ])
      .execute();
    await db
      .insertInto("activities")
      .values({
        token: "yihe-search",
        kind: "general",
        title: "瘗鹤铭临写活动",
        summary: "三十天",
        body: "[]",
        cover_char: "鹤",
        starts_at: new Date(now - HOUR),
        ends_at: new Date(now + 240 * HOUR),
      })
      .execute();
  });

  it("finds each by a word of its title, with its page, and leaves out cancelled and unpublished ones", async () => {
    const res = await search({ q: "瘗鹤", pageSize: "48" });
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({
      all: 4,
      course: 0,
      book: 0,
      commodity: 0,
      live: 1,
      lesson: 1,
      playback: 1,
      activity: 1,
    });
    const found = res.body.items.map((hit: Hit) => [hit.kind, hit.entry.title, hit.matched]);
    expect(found).toEqual([
      ["live", "瘗鹤铭直播课", "title"],
      ["lesson", "瘗鹤铭公开课", "title"],
      ["playback", "瘗鹤铭回放", "title"],
      ["activity", "瘗鹤铭临写活动", "title"],
    ]);
    const hrefs = res.body.items.map((hit: Hit) => hit.entry.href);
    expect(hrefs[0]).toMatch(/^\/live\/\d+$/);
    expect(hrefs[1]).toMatch(/^\/video\/PublicCourseItem\?id=\d+$/);
    expect(hrefs[2]).toMatch(/^\/playback\?id=\d+$/);
    expect(hrefs[3]).toBe("/activitys/yihe-search");
    const titles = JSON.stringify(res.body.items);
    for (const hidden of ["已取消", "未发布", "草稿课"]) expect(titles).not.toContain(hidden);
  });

  it("filters by each type with the same counts, and finds by the summary too", async () => {
    for (const kind of ["live", "lesson", "playback", "activity"]) {
      const res = await search({ q: "瘗鹤铭", kind });
      expect(res.status, kind).toBe(200);
      expect(res.body.total, kind).toBe(1);
      expect(res.body.counts.all, kind).toBe(4);
      expect(
        res.body.items.map((hit: Hit) => hit.kind),
        kind,
      ).toEqual([kind]);
    }
    expect((await search({ q: "瘗鹤铭", kind: "course" })).body.items).toEqual([]);
    const bySummary = await search({ q: "悬腕练习", kind: "live" });
    expect(bySummary.body.items[0]).toMatchObject({ matched: "other", snippet: "悬腕练习" });
  });

  it("the page shows the type tabs with counts, the active one in the URL, and highlights every type", async () => {
    const res = await request(h.app)
      .get(`/search?q=${encodeURIComponent("瘗鹤")}&type=playback`)
      .set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain("<mark>瘗鹤</mark>铭回放");
    expect(res.text).not.toContain("瘗鹤</mark>铭公开课");
    expect(res.text).toMatch(/aria-current="page" href="\/search\?q=%E7%98%97%E9%B9%A4&amp;type=playback"/);
    for (const label of ["直播", "公开课", "回放", "活动"]) expect(res.text).toContain(label);
    const all = await request(h.app)
      .get(`/search?q=${encodeURIComponent("瘗鹤")}`)
      .set("User-Agent", BROWSER_UA);
    for (const title of ["铭直播课", "铭公开课", "铭回放", "铭临写活动"]) {
      expect(all.text).toContain(`<mark>瘗鹤</mark>${title}`);
    }
    const empty = await request(h.app)
      .get(`/search?q=${encodeURIComponent("瘗鹤")}&type=book`)
      .set("User-Agent", BROWSER_UA);
    expect(empty.text).toContain("没有找到与“瘗鹤”相关的书籍");
  });
});

describe("the search page", () => {
  it("highlights the match and keeps itself out of indexes", async () => {
    const res = await request(h.app)
      .get(`/search?q=${encodeURIComponent("兰亭")}`)
      .set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(res.text).toContain("<mark>兰亭</mark>序逐字精讲");
    expect(res.text).toContain('href="/course/8"');
  });

  it("an empty search offers the popular searches as links", async () => {
    const res = await request(h.app).get("/search").set("User-Agent", BROWSER_UA);
    expect(res.status).toBe(200);
    for (const word of ["楷书", "兰亭序", "硬笔", "毛笔", "宣纸", "千字文"]) {
      expect(res.text).toContain(`href="/search?q=${encodeURIComponent(word)}"`);
    }
  });
});

describe("the search endpoint in the OpenAPI description", () => {
  it("is listed with its result schema", () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, searchEndpoints(h.services!.api));
    expect(JSON.stringify(doc.paths["/search"])).toContain("counts");
  });
});
