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
const titleOf = (hit: Hit): string => hit[hit.kind].title;

describe("GET /api/search", () => {
  it("finds a course and a book by a two-character substring (兰亭)", async () => {
    const res = await search({ q: "兰亭" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.counts).toEqual({ all: 2, course: 1, book: 1, commodity: 0 });
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
    expect(counts.all).toBe(counts.course + counts.book + counts.commodity);
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
    const keys = pages.flatMap((r) => r.body.items.map((h: Hit) => `${h.kind}:${h[h.kind].id}`));
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
