/**
 * GET /api/home on the demo catalogue: every shelf filled, in the right order and size, live
 * lessons on now before the next ones (never cancelled or over), and cacheable by anyone.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseCategories } from "../../shared/catalogue";
import { testApp } from "./helpers";

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;

beforeAll(async () => {
  h = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(async () => {
  await h.dispose();
});

const db = () => h.services!.api.database.db;

describe("GET /api/home", () => {
  it("brings every shelf of the home page in one answer, cacheable by anyone", async () => {
    const res = await request(h.app).get("/api/home");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const home = res.body;

    expect(home.banners.map((b: { title: string }) => b.title)).toEqual([
      "欧体楷书入门",
      "今日直播",
      "硬笔楷书三十天",
      "静心习字",
      "免费体验课",
    ]);
    const firstCourse = await db().selectFrom("courses").select("id").orderBy("id").executeTakeFirstOrThrow();
    expect(home.banners[0].link).toBe(`/course/${firstCourse.id}`);

    expect(home.categories.map((c: { key: string }) => c.key)).toEqual(courseCategories.map((c) => c.key));
    expect(home.categories.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(42);
    expect(home.categories.find((c: { key: string }) => c.key === "kaishu").count).toBe(7);

    const popularity = new Map(
      (await db().selectFrom("courses").select(["id", "popularity", "published_at"]).execute()).map((c) => [c.id, c]),
    );
    expect(home.featured).toHaveLength(8);
    const featured = home.featured.map((c: { id: number }) => popularity.get(c.id)!.popularity);
    expect(featured).toEqual([...featured].sort((a, b) => b - a));
    expect(Math.min(...featured)).toBeGreaterThanOrEqual(
      [...popularity.values()].map((c) => c.popularity).sort((a, b) => b - a)[7]!,
    );
    expect(home.newest).toHaveLength(8);
    const published = home.newest.map((c: { id: number }) => popularity.get(c.id)!.published_at.getTime());
    expect(published).toEqual([...published].sort((a, b) => b - a));

    expect(home.books).toHaveLength(6);
    expect(home.books[0].title).toBe("议论文写作三十讲");
    expect(home.stationery).toHaveLength(8);
    const sales = home.stationery.map((c: { sales: number }) => c.sales);
    expect(sales).toEqual([...sales].sort((a, b) => b - a));
    expect(home.stationery.every((c: { priceCents: number }) => c.priceCents > 0)).toBe(true);
    expect(home.teachers).toHaveLength(10);
    expect(home.teachers[0]).toMatchObject({ name: "林墨", portraitChar: "林" });
  });

  it("shows what is on now, then what comes next, up to six", async () => {
    const { body } = await request(h.app).get("/api/home");
    const now = Date.now();
    expect(body.live).toHaveLength(6);
    const states = body.live.map((l: { state: string }) => l.state);
    expect(states).toEqual(["live", "live", "scheduled", "scheduled", "scheduled", "scheduled"]);
    for (const live of body.live) {
      expect(Date.parse(live.endsAt)).toBeGreaterThan(now);
      expect(live.courseTitle).toEqual(expect.any(String));
    }
    const starts = body.live.map((l: { startsAt: string }) => Date.parse(l.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(body.live.map((l: { title: string }) => l.title)).not.toContain("结构四十八法 · 第六讲（改期）");
  });

  it("still answers on an empty catalogue", async () => {
    const empty = await testApp();
    try {
      const res = await request(empty.app).get("/api/home");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ banners: [], featured: [], newest: [], live: [], books: [], teachers: [] });
      expect(res.body.categories.every((c: { count: number }) => c.count === 0)).toBe(true);
      const page = await request(empty.app).get("/");
      expect(page.status).toBe(200);
      expect(page.text).toContain("课程正在上架");
      expect(page.text).toContain("近期没有直播安排");
    } finally {
      await empty.dispose();
    }
  });
});
