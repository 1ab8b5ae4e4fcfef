/**
 * Creating books and stationery from the operator console: every field at once, the first stock
 * kept as a change with the reason 初始库存, on sale at once when asked, variants with their own
 * price and stock; refused by field in Chinese, and only for operators.
 */
import { describe, expect, it } from "vitest";
import { type Json, staffHarness } from "./staff-harness";

const h = staffHarness("136", { PAGE_CACHE: "1", CATALOGUE_CACHE_MS: "5000" });

const unique = () => Math.random().toString(36).slice(2, 7);
const isbn13 = () => `978${String(Date.now()).slice(-7)}${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;

const newBook = (extra: Json = {}) => ({
  title: `褚遂良雁塔圣教序 ${unique()}`,
  author: "褚遂良",
  publisher: "墨池出版社",
  isbn: isbn13(),
  tab: "碑帖",
  priceCents: 4200,
  originalPriceCents: 5600,
  coverChar: "褚",
  summary: "唐楷名碑，原大高清",
  pages: 96,
  ...extra,
});

const newCommodity = (extra: Json = {}) => ({
  title: `兼毫小楷笔 ${unique()}`,
  category: "毛笔",
  summary: "写小楷、抄经",
  description: "羊毫为被，狼毫为柱，出锋 2.2 厘米。",
  coverChar: "笔",
  ...extra,
});

const auditOf = (targetType: string, targetId: number) =>
  h
    .db()
    .selectFrom("audit_log")
    .select(["action", "actor_id", "reason", "before", "after"])
    .where("target_type", "=", targetType)
    .where("target_id", "=", String(targetId))
    .orderBy("id")
    .execute();

describe("creating a book", () => {
  it("takes every field, starts its stock as a change named 初始库存 and can be on sale at once", async () => {
    const op = await h.account("operator");
    const input = newBook({ stock: 25, status: "published" });
    const created = await h.call(op, "POST", "/api/admin/books", input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: input.title,
      author: "褚遂良",
      publisher: "墨池出版社",
      isbn: input.isbn,
      tab: "碑帖",
      priceCents: 4200,
      originalPriceCents: 5600,
      coverChar: "褚",
      summary: "唐楷名碑，原大高清",
      pages: 96,
      stock: 25,
      status: "published",
    });
    expect(created.body.history).toEqual([
      expect.objectContaining({ delta: 25, stockAfter: 25, reason: "初始库存", actorName: op.nickname }),
    ]);
    const id = created.body.id as number;
    const audit = await auditOf("book", id);
    expect(audit.map((a) => [a.action, a.reason, a.actor_id])).toEqual([
      ["book.create", null, op.id],
      ["book.stock", "初始库存", op.id],
    ]);
    expect(audit[0]!.after).toMatchObject({ title: input.title, stock: 25, status: "published" });
    expect(audit[1]).toMatchObject({ before: { stock: 0 }, after: { stock: 25 } });

    const shop = await h.call(null, "GET", `/api/shop/books/${id}`);
    expect(shop.status).toBe(200);
    const html = await h.pageUntil(`/books/${id}`, (text) => text.includes(input.title));
    expect(html).toContain(input.title);
  });

  it("keeps a new book off sale with no stock change when neither is asked", async () => {
    const op = await h.account("operator");
    const created = await h.call(op, "POST", "/api/admin/books", newBook({ pages: undefined, summary: undefined }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ stock: 0, status: "draft", history: [], pages: null, summary: "" });
    const shop = await h.call(null, "GET", `/api/shop/books/${created.body.id as number}`);
    expect(shop.status).toBe(404);
    expect((await auditOf("book", created.body.id as number)).map((a) => a.action)).toEqual(["book.create"]);
  });

  it("refuses bad fields with a message for each field in Chinese", async () => {
    const op = await h.account("operator");
    const bad = await h.call(op, "POST", "/api/admin/books", {
      ...newBook(),
      title: " ",
      isbn: "12345",
      priceCents: "四十二",
      originalPriceCents: 100,
      coverChar: "褚遂",
      stock: -1,
      status: "archived",
      pages: 0,
    });
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries(
      (bad.body.error.details as Array<{ path: string; message: string }>).map((d) => [d.path, d.message]),
    );
    expect(fields).toMatchObject({
      title: "请填写书名",
      isbn: "ISBN 须是 10 或 13 位",
      priceCents: "请填写售价（元，最多两位小数）",
      coverChar: "封面字只能是一个字",
      stock: "初始库存不能为负",
      status: "请选择上架状态",
      pages: "页数必须大于 0",
    });
    const cheaper = await h.call(op, "POST", "/api/admin/books", newBook({ originalPriceCents: 100 }));
    expect(cheaper.status).toBe(400);
    expect(cheaper.body.error.details).toEqual([{ path: "originalPriceCents", message: "划线价不能低于售价" }]);
    const tooMuch = await h.call(op, "POST", "/api/admin/books", newBook({ stock: 100_001 }));
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.details).toEqual([{ path: "stock", message: "初始库存最多 100000 件" }]);
  });
});

describe("creating stationery", () => {
  it("creates the item with its variants, each variant's stock kept as 初始库存, on sale at once", async () => {
    const op = await h.account("operator");
    const input = newCommodity({
      status: "published",
      skus: [
        { name: "小号", priceCents: 2800, originalPriceCents: 3500, stock: 12 },
        { name: "中号", priceCents: 3800, originalPriceCents: 3800, stock: 0 },
      ],
    });
    const created = await h.call(op, "POST", "/api/admin/commodities", input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: input.title,
      category: "毛笔",
      summary: "写小楷、抄经",
      description: "羊毫为被，狼毫为柱，出锋 2.2 厘米。",
      coverChar: "笔",
      status: "published",
    });
    const skus = created.body.skus as Json[];
    expect(skus.map((s) => [s.name, s.priceCents, s.originalPriceCents, s.stock])).toEqual([
      ["小号", 2800, 3500, 12],
      ["中号", 3800, 3800, 0],
    ]);
    expect(skus[0].history).toEqual([expect.objectContaining({ delta: 12, stockAfter: 12, reason: "初始库存" })]);
    expect(skus[1].history).toEqual([]);

    const id = created.body.id as number;
    const audit = await auditOf("commodity", id);
    expect(audit.map((a) => a.action)).toEqual(["commodity.create"]);
    expect(audit[0]!.after).toMatchObject({ title: input.title, status: "published", skus: ["小号", "中号"] });
    const skuAudit = await auditOf("sku", skus[0].id as number);
    expect(skuAudit.map((a) => [a.action, a.reason])).toEqual([
      ["sku.create", null],
      ["sku.stock", "初始库存"],
    ]);
    expect((await auditOf("sku", skus[1].id as number)).map((a) => a.action)).toEqual(["sku.create"]);

    const shop = await h.call(null, "GET", `/api/shop/commodities/${id}`);
    expect(shop.status).toBe(200);
    const html = await h.pageUntil(`/commodity/${id}`, (text) => text.includes(input.title));
    expect(html).toContain(input.title);
    expect(html).toContain("中号");
  });

  it("refuses duplicate variant names, bad prices and going on sale without a variant, by field", async () => {
    const op = await h.account("operator");
    const bad = await h.call(
      op,
      "POST",
      "/api/admin/commodities",
      newCommodity({
        title: "",
        skus: [
          { name: "大号", priceCents: 5000, originalPriceCents: 4000, stock: 1 },
          { name: "大号", priceCents: 5000, originalPriceCents: 5000, stock: 1.5 },
        ],
      }),
    );
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries(
      (bad.body.error.details as Array<{ path: string; message: string }>).map((d) => [d.path, d.message]),
    );
    expect(fields).toMatchObject({
      title: "请填写商品名称",
      "skus.0.originalPriceCents": "划线价不能低于售价",
      "skus.1.stock": "初始库存必须是整数",
    });
    const dup = await h.call(
      op,
      "POST",
      "/api/admin/commodities",
      newCommodity({
        skus: [
          { name: "大号", priceCents: 5000, originalPriceCents: 5000 },
          { name: "大号", priceCents: 5000, originalPriceCents: 5000 },
        ],
      }),
    );
    expect(dup.status).toBe(400);
    expect(dup.body.error.details).toEqual([{ path: "skus.1.name", message: "规格名称不能重复" }]);
    const bare = await h.call(op, "POST", "/api/admin/commodities", newCommodity({ status: "published" }));
    expect(bare.status).toBe(400);
    expect(bare.body.error.details).toEqual([{ path: "status", message: "至少要有一个规格才能上架" }]);
    const before = await h.db().selectFrom("commodities").select(h.db().fn.countAll().as("n")).executeTakeFirst();
    expect(Number(before?.n)).toBeGreaterThan(0);
  });
});

describe("roles", () => {
  it("refuses learners, teachers and anonymous callers, and creates nothing", async () => {
    const learner = await h.account("learner");
    const teacher = await h.account("teacher");
    const title = `不该出现 ${unique()}`;
    for (const who of [learner, teacher]) {
      const book = await h.call(who, "POST", "/api/admin/books", newBook({ title, stock: 3 }));
      expect(book.status).toBe(403);
      const item = await h.call(who, "POST", "/api/admin/commodities", newCommodity({ title }));
      expect(item.status).toBe(403);
    }
    expect((await h.call(null, "POST", "/api/admin/books", newBook({ title }))).status).toBe(401);
    const books = await h.db().selectFrom("books").select("id").where("title", "=", title).execute();
    const items = await h.db().selectFrom("commodities").select("id").where("title", "=", title).execute();
    expect([books.length, items.length]).toEqual([0, 0]);
  });
});

describe("the 新建 pages", () => {
  const page = (cookie: string | null, path: string) =>
    fetch(`${h.base()}${path}`, {
      headers: { Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
      redirect: "manual",
    });

  it("open for operators only, never cached nor indexed", async () => {
    const op = await h.account("operator");
    const learner = await h.account("learner");
    for (const [path, heading] of [
      ["/admin/books/new", "新建图书"],
      ["/admin/stationery/new", "新建文房"],
    ] as const) {
      expect((await page(null, path)).status).toBe(302);
      expect((await page(learner.cookie, path)).status).toBe(404);
      const res = await page(op.cookie, path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("no-store");
      const html = await res.text();
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain(heading);
    }
  });
});
