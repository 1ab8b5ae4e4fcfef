/**
 * Books and stationery over HTTP, on the seeded demo catalogue: lists with tabs, sorts,
 * filters and pages, details with SKUs and stock, 404s, and the pages built on them.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatIsbn } from "../../shared/contracts/shop";
import { BROWSER_UA, testApp } from "./helpers";
import { openApiDocument } from "../../api/openapi";
import { shopEndpoints } from "../../api/modules/shop/endpoints";

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;

beforeAll(async () => {
  h = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(() => h.dispose());

const get = (path: string) => request(h.app).get(path);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
const ids = (items: any[]) => items.map((i) => i.id as number);
const sortedBy = (values: number[], direction: "asc" | "desc") =>
  values.every((v, i) => i === 0 || (direction === "asc" ? values[i - 1]! <= v : values[i - 1]! >= v));

describe("GET /api/shop/books", () => {
  it("lists every published book, newest first, with the tabs and their counts", async () => {
    const res = await get("/api/shop/books?pageSize=48");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.total).toBe(30);
    expect(res.body.allCount).toBe(30);
    expect(res.body.items).toHaveLength(30);
    expect(res.body.items[0].title).toBe("议论文写作三十讲");
    expect(res.body.tabs).toEqual([
      { name: "碑帖", count: 11 },
      { name: "技法", count: 5 },
      { name: "理论", count: 3 },
      { name: "硬笔字帖", count: 4 },
      { name: "国学经典", count: 4 },
      { name: "写作", count: 3 },
    ]);
  });

  it("filters by tab; an unknown tab is an empty list, not an error", async () => {
    const res = await get(`/api/shop/books?tab=${encodeURIComponent("碑帖")}&pageSize=48`);
    expect(res.body.total).toBe(11);
    expect(res.body.items.every((b: { tab: string }) => b.tab === "碑帖")).toBe(true);
    const none = await get(`/api/shop/books?tab=${encodeURIComponent("菜谱")}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ total: 0, items: [], pageCount: 1 });
  });

  it("sorts by price both ways, and by popularity (learners of the courses that use the book)", async () => {
    const asc = await get("/api/shop/books?sort=price_asc&pageSize=48");
    expect(
      sortedBy(
        asc.body.items.map((b: { priceCents: number }) => b.priceCents),
        "asc",
      ),
    ).toBe(true);
    expect(asc.body.items[0].priceCents).toBe(1500);
    const desc = await get("/api/shop/books?sort=price_desc&pageSize=48");
    expect(
      sortedBy(
        desc.body.items.map((b: { priceCents: number }) => b.priceCents),
        "desc",
      ),
    ).toBe(true);
    const popular = await get(`/api/shop/books?tab=${encodeURIComponent("碑帖")}&sort=popular&pageSize=3`);
    expect(popular.body.items.map((b: { title: string }) => b.title)).toEqual([
      "九成宫醴泉铭",
      "兰亭序（冯承素摹本）",
      "灵飞经",
    ]);
  });

  it("pages through the list without gaps or repeats", async () => {
    const pages = await Promise.all([1, 2, 3].map((p) => get(`/api/shop/books?page=${p}&pageSize=12`)));
    expect(pages.map((r) => r.body.items.length)).toEqual([12, 12, 6]);
    expect(pages[0]!.body.pageCount).toBe(3);
    const seen = pages.flatMap((r) => ids(r.body.items));
    expect(new Set(seen).size).toBe(30);
    const past = await get("/api/shop/books?page=4&pageSize=12");
    expect(past.body).toMatchObject({ items: [], total: 30, page: 4, pageCount: 3 });
  });

  it("refuses bad queries in Chinese", async () => {
    for (const [query, message] of [
      ["page=0", "页码必须是正整数"],
      ["page=abc", "页码必须是正整数"],
      ["pageSize=100", "每页数量不能超过 48"],
      ["sort=cheapest", "排序方式不正确"],
      ["color=red", "不支持的参数：color"],
      ["tab=a&tab=b", "分类格式不正确"],
    ]) {
      const res = await get(`/api/shop/books?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toBe(message);
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
  });

  it("the overview has the newest books and a few popular books of every tab", async () => {
    const res = await get("/api/shop/books/overview");
    expect(res.status).toBe(200);
    expect(res.body.newest).toHaveLength(10);
    expect(res.body.newest[0].title).toBe("议论文写作三十讲");
    expect(res.body.tabs.map((t: { name: string }) => t.name)).toEqual([
      "碑帖",
      "技法",
      "理论",
      "硬笔字帖",
      "国学经典",
      "写作",
    ]);
    for (const tab of res.body.tabs) {
      expect(tab.books.length).toBe(Math.min(5, tab.count));
      expect(tab.books.every((b: { tab: string }) => b.tab === tab.name)).toBe(true);
    }
    expect(res.body.tabs[0].books[0].title).toBe("九成宫醴泉铭");
  });
});

describe("GET /api/shop/books/:id", () => {
  it("has the bibliographic facts, price, stock and related books of the same tab", async () => {
    const res = await get("/api/shop/books/1");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const book = res.body;
    expect(book).toMatchObject({
      id: 1,
      title: "九成宫醴泉铭",
      author: "欧阳询",
      publisher: "上海书画出版社",
      tab: "碑帖",
      priceCents: 2800,
      originalPriceCents: 3500,
      stock: 120,
      pages: 64,
      url: "http://localhost:3000/books/1",
    });
    expect(book.isbn).toMatch(/^9787547\d{6}$/);
    expect(formatIsbn(book.isbn)).toMatch(/^978-7-5479-\d{4}-\d$/);
    expect(book.publishedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(book.related.length).toBeGreaterThan(0);
    expect(book.related.length).toBeLessThanOrEqual(5);
    expect(book.related.every((b: { tab: string; id: number }) => b.tab === "碑帖" && b.id !== 1)).toBe(true);
  });

  it("says when a book is out of stock", async () => {
    const res = await get("/api/shop/books/30");
    expect(res.body).toMatchObject({ title: "议论文写作三十讲", stock: 0 });
  });

  it("is 404 for ids that do not exist or cannot be ids", async () => {
    for (const id of ["999", "0", "abc", "1.5", "99999999999"]) {
      const res = await get(`/api/shop/books/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toBe("这本书不存在或已下架");
    }
  });
});

describe("GET /api/shop/commodities", () => {
  it("lists stationery by sales, with every category and its count", async () => {
    const res = await get("/api/shop/commodities?pageSize=48");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    expect(res.body.total).toBe(40);
    expect(res.body.items[0].title).toBe("速干中性笔（12支）");
    expect(
      sortedBy(
        res.body.items.map((c: { sales: number }) => c.sales),
        "desc",
      ),
    ).toBe(true);
    expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual([
      "毛笔",
      "墨汁",
      "宣纸",
      "砚台",
      "字帖纸",
      "硬笔",
      "文具",
    ]);
    expect(res.body.categories.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(40);
    const brush = res.body.items.find((c: { id: number }) => c.id === 1);
    // The cheapest SKU's price and its own original price.
    expect(brush).toMatchObject({
      title: "兼毫毛笔（七紫三羊）",
      priceCents: 2800,
      originalPriceCents: 3500,
      inStock: true,
    });
  });

  it("filters by category and sorts by price and date", async () => {
    const stones = await get(`/api/shop/commodities?category=${encodeURIComponent("砚台")}`);
    expect(stones.body.total).toBe(3);
    expect(stones.body.items.every((c: { category: string }) => c.category === "砚台")).toBe(true);
    const asc = await get("/api/shop/commodities?sort=price_asc&pageSize=48");
    expect(
      sortedBy(
        asc.body.items.map((c: { priceCents: number }) => c.priceCents),
        "asc",
      ),
    ).toBe(true);
    const desc = await get("/api/shop/commodities?sort=price_desc&pageSize=48");
    expect(
      sortedBy(
        desc.body.items.map((c: { priceCents: number }) => c.priceCents),
        "desc",
      ),
    ).toBe(true);
    expect(desc.body.items[0].title).toBe("端砚（淌池）");
    const newest = await get("/api/shop/commodities?sort=newest&pageSize=1");
    expect(newest.body.items[0].title).toBe("硬笔练字礼盒");
  });

  it("pages through the list", async () => {
    const pages = await Promise.all([1, 2, 3].map((p) => get(`/api/shop/commodities?page=${p}&pageSize=16`)));
    expect(pages.map((r) => r.body.items.length)).toEqual([16, 16, 8]);
    expect(new Set(pages.flatMap((r) => ids(r.body.items))).size).toBe(40);
  });

  it("refuses bad filters in Chinese", async () => {
    for (const [query, message] of [
      ["inStock=maybe", "只看有货的取值不正确"],
      ["sort=random", "排序方式不正确"],
      ["page=-1", "页码必须是正整数"],
    ]) {
      const res = await get(`/api/shop/commodities?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });
});

describe("GET /api/shop/commodities/:id", () => {
  it("has the gallery, description and every SKU with its price, original price and stock", async () => {
    const res = await get("/api/shop/commodities/1");
    expect(res.status).toBe(200);
    const item = res.body;
    expect(item).toMatchObject({
      id: 1,
      title: "兼毫毛笔（七紫三羊）",
      category: "毛笔",
      lowPriceCents: 2800,
      highPriceCents: 4800,
      inStock: true,
      url: "http://localhost:3000/commodity/1",
    });
    expect(item.description).toContain("七分紫毫三分羊毫");
    expect(
      item.skus.map((s: { name: string; priceCents: number; originalPriceCents: number; stock: number }) => [
        s.name,
        s.priceCents,
        s.originalPriceCents,
        s.stock,
      ]),
    ).toEqual([
      ["小楷", 2800, 3500, 80],
      ["中楷", 3600, 4500, 120],
      ["大楷", 4800, 6000, 60],
    ]);
    expect(item.gallery[0]).toEqual({ char: "兼", url: "/media/cover/jade/517c-square.svg" });
    expect(item.gallery.length).toBeGreaterThan(1);
    expect(item.related.every((c: { category: string; id: number }) => c.category === "毛笔" && c.id !== 1)).toBe(true);
  });

  it("is 404 for unknown ids", async () => {
    for (const id of ["999", "abc", "0"]) {
      const res = await get(`/api/shop/commodities/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toBe("这件商品不存在或已下架");
    }
  });

  it("follows stock: a sold-out SKU shows 0, a sold-out item leaves the in-stock list", async () => {
    const db = h.services!.database.db;
    const before = await db
      .selectFrom("commodity_skus")
      .select(["id", "stock"])
      .where("commodity_id", "in", [1, 18])
      .execute();
    try {
      await db.updateTable("commodity_skus").set({ stock: 0 }).where("commodity_id", "=", 18).execute();
      await db
        .updateTable("commodity_skus")
        .set({ stock: 0 })
        .where("commodity_id", "=", 1)
        .where("name", "=", "大楷")
        .execute();

      const inkstone = await get("/api/shop/commodities/18");
      expect(inkstone.body.inStock).toBe(false);
      expect(inkstone.body.skus[0].stock).toBe(0);
      const brush = await get("/api/shop/commodities/1");
      expect(brush.body.inStock).toBe(true);
      expect(brush.body.skus.find((s: { name: string }) => s.name === "大楷").stock).toBe(0);

      const all = await get("/api/shop/commodities?pageSize=48");
      expect(all.body.total).toBe(40);
      expect(all.body.items.find((c: { id: number }) => c.id === 18).inStock).toBe(false);
      const inStock = await get("/api/shop/commodities?pageSize=48&inStock=1");
      expect(inStock.body.total).toBe(39);
      expect(inStock.body.inStock).toBe(true);
      expect(ids(inStock.body.items)).not.toContain(18);
      expect(ids(inStock.body.items)).toContain(1);
      expect(inStock.body.categories.find((c: { name: string }) => c.name === "砚台").count).toBe(2);
    } finally {
      for (const sku of before)
        await db.updateTable("commodity_skus").set({ stock: sku.stock }).where("id", "=", sku.id).execute();
    }
  });
});

describe("the shop's pages", () => {
  const page = (path: string) => get(path).set("User-Agent", BROWSER_UA);

  it("a book page has its title, the formatted ISBN and Book data with an offer", async () => {
    const res = await page("/books/1");
    expect(res.status).toBe(200);
    expect(res.text).toContain("<title>《九成宫醴泉铭》 - 墨池课堂</title>");
    expect(res.text).toMatch(/978-7-5479-\d{4}-\d/);
    expect(res.text).toContain('"@type":"Book"');
    expect(res.text).toContain('"availability":"https://schema.org/InStock"');
    expect(res.text).toContain('property="og:image" content="http://localhost:3000/media/share/gold/');
  });

  it("an out-of-stock book says so and cannot be bought", async () => {
    const res = await page("/books/30");
    expect(res.text).toContain("暂时缺货");
    expect(res.text).toContain('"availability":"https://schema.org/OutOfStock"');
  });

  it("a commodity page has Product data with an AggregateOffer over its SKUs", async () => {
    const res = await page("/commodity/1");
    expect(res.status).toBe(200);
    expect(res.text).toContain('"@type":"Product"');
    expect(res.text).toContain('"@type":"AggregateOffer"');
    expect(res.text).toContain('"lowPrice":"28","highPrice":"48"');
  });

  it("unknown books and commodities are the 404 page", async () => {
    for (const path of ["/books/999", "/commodity/999"]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain("This page could not be found");
    }
  });

  it("the lists keep their filters in the address", async () => {
    const books = await page(`/books/tabs?tab=${encodeURIComponent("技法")}&sort=price_asc`);
    expect(books.status).toBe(200);
    expect(books.text).toContain("共 5 本");
    const stationery = await page(`/stationery?category=${encodeURIComponent("砚台")}&inStock=1`);
    expect(stationery.status).toBe(200);
    expect(stationery.text).toContain("共 3 件有货商品");
  });

  it("an unknown tab is an empty list that says so, not an error", async () => {
    const res = await page(`/books/tabs?tab=${encodeURIComponent("菜谱")}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain("没有名为「菜谱」的分类");
    expect(res.text).toContain("「菜谱」下暂时没有书");
  });
});

describe("the shop's endpoints in the OpenAPI description", () => {
  it("lists each with its response schema", () => {
    const doc = openApiDocument({ title: "t", version: "1", serverUrl: "/api" }, shopEndpoints(h.services!.api));
    expect(Object.keys(doc.paths)).toEqual([
      "/shop/books",
      "/shop/books/overview",
      "/shop/books/{id}",
      "/shop/commodities",
      "/shop/commodities/{id}",
    ]);
    const detail = doc.paths["/shop/commodities/{id}"]!.get as { responses: Record<string, { content?: unknown }> };
    expect(JSON.stringify(detail.responses["200"]!.content)).toContain("lowPriceCents");
  });
});
