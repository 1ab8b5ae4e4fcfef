/**
 * The operator's catalogue: courses with chapters, lessons (order, video, trial) and homework
 * tasks, publishing, covers, books and stationery with stock changes and their history; every
 * change at once on the public pages (page cache and catalogue micro-cache on, as in production).
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { NO_ENCODER_MESSAGE } from "../../shared/contracts/admin-courses";
import { type Account, type Json, staffHarness } from "./staff-harness";

const h = staffHarness("135", {
  PAGE_CACHE: "1",
  CATALOGUE_CACHE_MS: "5000",
  PATH: "/nonexistent",
  FFMPEG_PATH: "/nonexistent/ffmpeg",
});

const newCourse = (teacherId: number, title = `楷书入门 ${Math.random().toString(36).slice(2, 7)}`) => ({
  title,
  subtitle: "从永字八法开始",
  category: "kaishu",
  kind: "recorded",
  level: "beginner",
  teacherId,
  priceCents: 9900,
  originalPriceCents: 19900,
  coverChar: "永",
  summary: "十节课写好楷书基本笔画",
});

async function firstTeacherId(): Promise<number> {
  const row = await h.db().selectFrom("teachers").select("id").orderBy("id").executeTakeFirstOrThrow();
  return row.id;
}

async function courseWithLesson(op: Account): Promise<Json> {
  const created = await h.call(op, "POST", "/api/admin/courses", newCourse(await firstTeacherId()));
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const withChapter = await h.call(op, "POST", `/api/admin/courses/${id}/chapters`, { title: "第一章 笔画" });
  expect(withChapter.status).toBe(201);
  const chapterId = withChapter.body.chapters[0].id as number;
  const withLesson = await h.call(op, "POST", `/api/admin/chapters/${chapterId}/lessons`, {
    title: "横画",
    summary: "起笔、行笔、收笔",
    video: { key: "heng" },
    durationSeconds: 30,
    isTrial: true,
  });
  expect(withLesson.status).toBe(201);
  return withLesson.body;
}

describe("roles", () => {
  it("refuses anonymous callers (401) and learners and teachers (403)", async () => {
    const learner = await h.account("learner");
    const teacher = await h.account("teacher");
    for (const [method, path, body] of [
      ["GET", "/api/admin/courses", undefined],
      ["POST", "/api/admin/courses", newCourse(await firstTeacherId())],
      ["GET", "/api/admin/books", undefined],
      ["POST", "/api/admin/books/1/stock", { delta: 1, reason: "入库" }],
      ["PUT", "/api/admin/lessons/1/task", { title: "作业", script: "kai" }],
    ] as const) {
      expect((await h.call(null, method, path, body)).status).toBe(401);
      expect((await h.call(learner, method, path, body)).status).toBe(403);
      expect((await h.call(teacher, method, path, body)).status).toBe(403);
    }
    const stock = await h.db().selectFrom("books").select("stock").where("id", "=", 1).executeTakeFirstOrThrow();
    const task = await h
      .db()
      .selectFrom("homework_tasks")
      .select("title")
      .where("lesson_id", "=", 1)
      .executeTakeFirst();
    expect(task?.title).not.toBe("作业");
    expect(stock.stock).toBeGreaterThanOrEqual(0);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const cover = await h.call(learner, "POST", "/api/admin/courses/1/cover", png, { "Content-Type": "image/png" });
    expect(cover.status).toBe(403);
  });
});

describe("courses", () => {
  it("an operator builds a course as a draft, publishes it, and it shows on the public pages at once", async () => {
    const op = await h.account("operator");
    const course = await courseWithLesson(op);
    const id = course.id as number;
    expect(course.status).toBe("draft");
    expect(course.chapters[0].lessons[0]).toMatchObject({ title: "横画", videoKey: "heng", isTrial: true, task: null });

    // A draft is not public.
    expect((await h.call(null, "GET", `/api/courses/${id}`)).status).toBe(404);
    expect((await h.page(`/course/${id}`)).status).toBe(404);

    const lessonId = course.chapters[0].lessons[0].id as number;
    const task = await h.call(op, "PUT", `/api/admin/lessons/${lessonId}/task`, {
      title: "写十个横",
      instructions: "用米字格，每个横写三遍",
      characters: "一二三",
      script: "kai",
      maxPhotos: 3,
    });
    expect(task.status).toBe(200);
    expect(task.body.chapters[0].lessons[0].task).toMatchObject({ title: "写十个横", script: "kai", maxPhotos: 3 });
    const stored = await h
      .db()
      .selectFrom("homework_tasks")
      .selectAll()
      .where("lesson_id", "=", lessonId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ course_id: id, characters: "一二三", max_photos: 3 });

    const published = await h.call(op, "POST", `/api/admin/courses/${id}/publish`, {});
    expect(published.status).toBe(200);
    expect(published.body.status).toBe("published");

    const first = await h.pageUntil(`/course/${id}`, (html) => html.includes(course.title));
    expect(first).toContain(course.title);
    // Kept once the notifications of the setup have arrived (on PostgreSQL they come a moment later).
    let cache: string | null = null;
    for (let i = 0; i < 40 && cache !== "hit"; i++) {
      cache = (await h.page(`/course/${id}`)).cache;
      if (cache !== "hit") await new Promise((r) => setTimeout(r, 50));
    }
    expect(cache).toBe("hit");
    // The public API answers from its few-second memory too…
    expect((await h.call(null, "GET", `/api/courses/${id}`)).body.title ?? "").toBeTruthy();

    // …and an edit empties both on the spot.
    const renamed = `${course.title}（新版）`;
    expect((await h.call(op, "PATCH", `/api/admin/courses/${id}`, { title: renamed, priceCents: 8800 })).status).toBe(
      200,
    );
    const kept = await h.call(op, "GET", `/api/admin/courses/${id}`);
    expect(kept.body).toMatchObject({
      title: renamed,
      priceCents: 8800,
      subtitle: "从永字八法开始",
      summary: "十节课写好楷书基本笔画",
    });
    const after = await h.pageUntil(`/course/${id}`, (html) => html.includes(renamed));
    expect(after).toContain(renamed);
    const publicApi = await h.call(null, "GET", `/api/courses/${id}`);
    expect(JSON.stringify(publicApi.body)).toContain(renamed);

    // Every step is in the audit log, with the operator and the changed fields.
    const audit = await h
      .db()
      .selectFrom("audit_log")
      .select(["action", "actor_id", "before", "after"])
      .where("target_type", "=", "course")
      .where("target_id", "=", String(id))
      .orderBy("id")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["course.create", "course.publish", "course.update"]);
    expect(audit.every((a) => a.actor_id === op.id)).toBe(true);
    expect(audit[2]!.before).toEqual({ title: course.title, priceCents: 9900 });
    expect(audit[2]!.after).toEqual({ title: renamed, priceCents: 8800 });
    const taskAudit = await h
      .db()
      .selectFrom("audit_log")
      .select("action")
      .where("target_type", "=", "homework_task")
      .where("actor_id", "=", op.id)
      .execute();
    expect(taskAudit.map((a) => a.action)).toEqual(["homework_task.create"]);

    // Unpublished: gone from the public page again.
    expect((await h.call(op, "POST", `/api/admin/courses/${id}/unpublish`, {})).body.status).toBe("draft");
    let status = 200;
    for (let i = 0; i < 40 && status !== 404; i++) {
      status = (await h.page(`/course/${id}`)).status;
      if (status !== 404) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(404);
  });

  it("gives the course to the teacher's account, and checks prices, teachers and publishing", async () => {
    const op = await h.account("operator");
    const teacher = await h.teacher();
    const created = await h.call(op, "POST", "/api/admin/courses", newCourse(teacher.teacherId));
    expect(created.status).toBe(201);
    const linked = await h
      .db()
      .selectFrom("course_teachers")
      .select("user_id")
      .where("course_id", "=", created.body.id)
      .execute();
    expect(linked.map((r) => r.user_id)).toEqual([teacher.id]);

    const other = await h.teacher();
    await h.call(op, "PATCH", `/api/admin/courses/${created.body.id}`, { teacherId: other.teacherId });
    const relinked = await h
      .db()
      .selectFrom("course_teachers")
      .select("user_id")
      .where("course_id", "=", created.body.id)
      .execute();
    expect(relinked.map((r) => r.user_id)).toEqual([other.id]);

    const cheap = await h.call(op, "POST", "/api/admin/courses", {
      ...newCourse(teacher.teacherId),
      originalPriceCents: 100,
    });
    expect(cheap.status).toBe(400);
    expect(cheap.body.error.message).toBe("划线价不能低于售价");
    const patchCheap = await h.call(op, "PATCH", `/api/admin/courses/${created.body.id}`, { priceCents: 30000 });
    expect(patchCheap.status).toBe(400);
    const noTeacher = await h.call(op, "POST", "/api/admin/courses", newCourse(999_999));
    expect(noTeacher.status).toBe(400);
    expect(noTeacher.body.error.message).toBe("授课老师不存在");

    const empty = await h.call(op, "POST", `/api/admin/courses/${created.body.id}/publish`, {});
    expect(empty.status).toBe(409);
    expect(empty.body.error.message).toBe("至少要有一节课时才能上架");
    expect((await h.call(op, "GET", "/api/admin/courses/999999")).status).toBe(404);
  });

  it("orders chapters and lessons (a lesson may change chapter); a stale order is refused", async () => {
    const op = await h.account("operator");
    const course = await courseWithLesson(op);
    const id = course.id as number;
    const ch1 = course.chapters[0].id as number;
    let body = (await h.call(op, "POST", `/api/admin/courses/${id}/chapters`, { title: "第二章 结构" })).body;
    const ch2 = body.chapters[1].id as number;
    for (const title of ["竖画", "撇画"]) {
      body = (
        await h.call(op, "POST", `/api/admin/chapters/${ch1}/lessons`, {
          title,
          video: { key: "shan" },
          durationSeconds: 30,
        })
      ).body;
    }
    const [a, b, c] = body.chapters[0].lessons.map((l: Json) => l.id as number);
    expect(body.chapters[0].lessons.map((l: Json) => l.title)).toEqual(["横画", "竖画", "撇画"]);

    const moved = await h.call(op, "PUT", `/api/admin/courses/${id}/order`, {
      chapters: [
        { id: ch2, lessonIds: [b] },
        { id: ch1, lessonIds: [c, a] },
      ],
    });
    expect(moved.status).toBe(200);
    expect(moved.body.chapters.map((ch: Json) => [ch.title, ch.lessons.map((l: Json) => l.title)])).toEqual([
      ["第二章 结构", ["竖画"]],
      ["第一章 笔画", ["撇画", "横画"]],
    ]);
    const stale = await h.call(op, "PUT", `/api/admin/courses/${id}/order`, {
      chapters: [{ id: ch1, lessonIds: [a, b, c] }],
    });
    expect(stale.status).toBe(409);

    // A chapter with lessons cannot go; an empty one can.
    expect((await h.call(op, "DELETE", `/api/admin/chapters/${ch2}`)).status).toBe(409);
    const renamed = await h.call(op, "PATCH", `/api/admin/chapters/${ch2}`, { title: "第二章 间架" });
    expect(renamed.body.chapters[0].title).toBe("第二章 间架");
  });

  it("takes a lesson video by site address, refuses uploads without an encoder, deletes unused lessons", async () => {
    const op = await h.account("operator");
    const course = await courseWithLesson(op);
    const lessonId = course.chapters[0].lessons[0].id as number;
    const byUrl = await h.call(op, "PATCH", `/api/admin/lessons/${lessonId}`, {
      video: { url: "/media/video/yong/index.m3u8" },
      isTrial: false,
    });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.chapters[0].lessons[0]).toMatchObject({
      videoUrl: "/media/video/yong/index.m3u8",
      isTrial: false,
      summary: "起笔、行笔、收笔",
    });
    const foreign = await h.call(op, "PATCH", `/api/admin/lessons/${lessonId}`, {
      video: { url: "https://evil.example/x.m3u8" },
    });
    expect(foreign.status).toBe(400);

    const encoder = await h.call(op, "GET", "/api/admin/media/encoder");
    expect(encoder.body).toEqual({ available: false, message: NO_ENCODER_MESSAGE });
    const upload = await h.call(op, "POST", `/api/admin/lessons/${lessonId}/video`, Buffer.alloc(1024), {
      "Content-Type": "video/mp4",
    });
    expect(upload.status).toBe(503);
    expect(upload.body.error).toEqual({ code: "no_encoder", message: NO_ENCODER_MESSAGE });

    // Learners' progress keeps a lesson.
    const learner = await h.account("learner");
    await h.db().insertInto("lesson_progress").values({ user_id: learner.id, lesson_id: lessonId }).execute();
    expect((await h.call(op, "DELETE", `/api/admin/lessons/${lessonId}`)).status).toBe(409);
    await h.db().deleteFrom("lesson_progress").where("lesson_id", "=", lessonId).execute();
    const deleted = await h.call(op, "DELETE", `/api/admin/lessons/${lessonId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.chapters[0].lessons).toEqual([]);
  });

  it("the learner's lesson plays the address the operator gave", async () => {
    const op = await h.account("operator");
    const course = await courseWithLesson(op);
    const lessonId = course.chapters[0].lessons[0].id as number;
    await h.call(op, "PATCH", `/api/admin/lessons/${lessonId}`, { video: { url: "/media/video/yong/index.m3u8" } });
    await h.call(op, "POST", `/api/admin/courses/${course.id}/publish`, {});
    const learner = await h.account("learner");
    const lesson = await h.call(learner, "GET", `/api/learning/lessons/${lessonId}`);
    expect(lesson.status).toBe(200);
    expect(lesson.body.sources.hls).toBe("/media/video/yong/index.m3u8");
  });

  it("uploads a cover through the avatar's checks", async () => {
    const op = await h.account("operator");
    const created = await h.call(op, "POST", "/api/admin/courses", newCourse(await firstTeacherId()));
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#c33" } })
      .png()
      .toBuffer();
    const ok = await h.call(op, "POST", `/api/admin/courses/${created.body.id}/cover`, png, {
      "Content-Type": "image/png",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.coverImage).toMatch(/^\/avatar\/[0-9a-f]{32}\.webp$/);
    const again = await h.call(op, "GET", `/api/admin/courses/${created.body.id}`);
    expect(again.body.coverImage).toBe(ok.body.coverImage);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const refused = await h.call(op, "POST", `/api/admin/courses/${created.body.id}/cover`, svg, {
      "Content-Type": "image/png",
    });
    expect(refused.status).toBe(415);
    expect(refused.body.error.message).toBe("封面只支持 JPEG、PNG 或 WebP 格式的图片");
    // Judged by the bytes, whatever the picker called the file.
    for (const type of ["application/octet-stream", null]) {
      const res = await h.call(
        op,
        "POST",
        `/api/admin/courses/${created.body.id}/cover`,
        png,
        type ? { "Content-Type": type } : {},
      );
      expect(res.status, String(type)).toBe(200);
      const svgRes = await h.call(
        op,
        "POST",
        `/api/admin/courses/${created.body.id}/cover`,
        svg,
        type ? { "Content-Type": type } : {},
      );
      expect(svgRes.status, String(type)).toBe(415);
    }
  });

  it("an uploaded cover replaces the generated one on the public pages at once", async () => {
    const op = await h.account("operator");
    const jpeg = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: "#2a6" } })
        .jpeg()
        .toBuffer();
    const upload = async (path: string, body: Buffer) => {
      const res = await h.call(op, "POST", path, body, { "Content-Type": "image/jpeg" });
      expect(res.status).toBe(200);
      return res.body.coverImage as string;
    };

    const courseId = (await courseWithLesson(op)).id as number;
    expect((await h.call(op, "POST", `/api/admin/courses/${courseId}/publish`, {})).status).toBe(200);
    const courseCover = await upload(`/api/admin/courses/${courseId}/cover`, await jpeg(1600, 900));
    expect(await h.pageUntil(`/course/${courseId}`, (html) => html.includes(courseCover))).toContain(courseCover);

    const book = await h
      .db()
      .selectFrom("books")
      .select("id")
      .where("status", "=", "published")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const bookCover = await upload(`/api/admin/books/${book.id}/cover`, await jpeg(600, 800));
    expect(await h.pageUntil(`/books/${book.id}`, (html) => html.includes(bookCover))).toContain(bookCover);

    const item = await h
      .db()
      .selectFrom("commodities")
      .select("id")
      .where("status", "=", "published")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const itemCover = await upload(`/api/admin/commodities/${item.id}/cover`, await jpeg(800, 800));
    const itemPage = await h.pageUntil(`/commodity/${item.id}`, (html) => html.includes(itemCover));
    expect(itemPage).toContain(itemCover);
    // Without an upload the generated cover stays.
    expect((await h.page(`/books/${book.id + 1}`)).html).toMatch(/\/media\/cover\/gold\//);
  });

  it("lists courses with search, filters, sorting and paging on the server", async () => {
    const op = await h.account("operator");
    const all = await h.call(op, "GET", "/api/admin/courses?pageSize=20&sort=id&dir=asc");
    expect(all.status).toBe(200);
    expect(all.body.rows).toHaveLength(20);
    expect(all.body.total).toBeGreaterThanOrEqual(42);
    const ids = all.body.rows.map((r: Json) => r.id as number);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const second = await h.call(op, "GET", "/api/admin/courses?pageSize=20&sort=id&dir=asc&page=2");
    expect(second.body.rows[0].id).toBeGreaterThan(ids[19]);
    const drafts = await h.call(op, "GET", "/api/admin/courses?status=draft");
    expect(drafts.body.rows.every((r: Json) => r.status === "draft")).toBe(true);
    const title = all.body.rows[3].title as string;
    const found = await h.call(op, "GET", `/api/admin/courses?q=${encodeURIComponent(title)}`);
    expect(found.body.rows.map((r: Json) => r.title)).toContain(title);
  });
});

describe("books and stationery", () => {
  it("creates a book, moves its stock only with a reason, keeps the history, never below zero", async () => {
    const op = await h.account("operator");
    const isbn = `978${String(Date.now()).slice(-10)}`;
    const created = await h.call(op, "POST", "/api/admin/books", {
      title: "颜真卿楷书字帖",
      author: "颜真卿",
      publisher: "墨池出版社",
      isbn,
      tab: "字帖",
      priceCents: 3800,
      originalPriceCents: 4800,
      coverChar: "颜",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ stock: 0, status: "draft", history: [] });
    const id = created.body.id as number;
    const twice = await h.call(op, "POST", "/api/admin/books", { ...created.body, isbn });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe("已有同一 ISBN 的图书");

    const noReason = await h.call(op, "POST", `/api/admin/books/${id}/stock`, { delta: 10, reason: " " });
    expect(noReason.status).toBe(400);
    const inbound = await h.call(op, "POST", `/api/admin/books/${id}/stock`, { delta: 10, reason: "首批入库" });
    expect(inbound.status).toBe(200);
    expect(inbound.body).toMatchObject({
      stock: 10,
      change: { delta: 10, stockAfter: 10, reason: "首批入库", actorName: op.nickname },
    });
    const tooMany = await h.call(op, "POST", `/api/admin/books/${id}/stock`, { delta: -11, reason: "报损" });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toBe("库存不足：现有 10 件，最多可减少 10 件");
    await h.call(op, "POST", `/api/admin/books/${id}/stock`, { delta: -3, reason: "破损报废" });
    const detail = await h.call(op, "GET", `/api/admin/books/${id}`);
    expect(detail.body.stock).toBe(7);
    expect(detail.body.history.map((c: Json) => [c.delta, c.stockAfter, c.reason])).toEqual([
      [-3, 7, "破损报废"],
      [10, 10, "首批入库"],
    ]);

    const stockAudit = await h
      .db()
      .selectFrom("audit_log")
      .select(["action", "reason", "before", "after"])
      .where("target_type", "=", "book")
      .where("target_id", "=", String(id))
      .orderBy("id")
      .execute();
    expect(stockAudit.map((a) => [a.action, a.reason])).toEqual([
      ["book.create", null],
      ["book.stock", "首批入库"],
      ["book.stock", "破损报废"],
    ]);
    expect(stockAudit[2]).toMatchObject({ before: { stock: 10 }, after: { stock: 7 } });
    const published = await h.call(op, "PATCH", `/api/admin/books/${id}`, { status: "published" });
    expect(published.body.status).toBe("published");
    const shop = await h.call(null, "GET", `/api/shop/books/${id}`);
    expect(shop.status).toBe(200);
  });

  it("stock changes at once lose nothing and never go below zero", async () => {
    const op = await h.account("operator");
    const book = await h.db().selectFrom("books").select("id").orderBy("id").executeTakeFirstOrThrow();
    await h.db().updateTable("books").set({ stock: 5 }).where("id", "=", book.id).execute();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.call(op, "POST", `/api/admin/books/${book.id}/stock`, { delta: -1, reason: `售出 ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    const after = await h.db().selectFrom("books").select("stock").where("id", "=", book.id).executeTakeFirstOrThrow();
    expect(after.stock).toBe(0);
    const history = await h
      .db()
      .selectFrom("stock_changes")
      .select(["stock_after"])
      .where("item_type", "=", "book")
      .where("item_id", "=", book.id)
      .orderBy("id")
      .execute();
    expect(history.map((r) => r.stock_after).sort()).toEqual([0, 1, 2, 3, 4]);

    const ins = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.call(op, "POST", `/api/admin/books/${book.id}/stock`, { delta: 3, reason: "补货" }),
      ),
    );
    expect(ins.every((r) => r.status === 200)).toBe(true);
    const final = await h.db().selectFrom("books").select("stock").where("id", "=", book.id).executeTakeFirstOrThrow();
    expect(final.stock).toBe(24);
  });

  it("builds stationery with variants and their own stock", async () => {
    const op = await h.account("operator");
    const created = await h.call(op, "POST", "/api/admin/commodities", {
      title: "湖笔 兼毫",
      category: "毛笔",
      coverChar: "笔",
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const early = await h.call(op, "PATCH", `/api/admin/commodities/${id}`, { status: "published" });
    expect(early.status).toBe(409);
    const withSku = await h.call(op, "POST", `/api/admin/commodities/${id}/skus`, {
      name: "中楷",
      priceCents: 2800,
      originalPriceCents: 3200,
    });
    expect(withSku.status).toBe(201);
    const dup = await h.call(op, "POST", `/api/admin/commodities/${id}/skus`, {
      name: "中楷",
      priceCents: 2800,
      originalPriceCents: 3200,
    });
    expect(dup.status).toBe(409);
    const skuId = withSku.body.skus[0].id as number;
    const stocked = await h.call(op, "POST", `/api/admin/skus/${skuId}/stock`, { delta: 20, reason: "到货" });
    expect(stocked.body.stock).toBe(20);
    const repriced = await h.call(op, "PATCH", `/api/admin/skus/${skuId}`, { priceCents: 2600 });
    expect(repriced.body.skus[0]).toMatchObject({ priceCents: 2600, stock: 20 });
    expect(repriced.body.skus[0].history[0]).toMatchObject({ delta: 20, reason: "到货" });
    const live = await h.call(op, "PATCH", `/api/admin/commodities/${id}`, { status: "published" });
    expect(live.body.status).toBe("published");
    const list = await h.call(op, "GET", `/api/admin/commodities?q=${encodeURIComponent("湖笔 兼毫")}`);
    expect(list.body.rows[0]).toMatchObject({ id, skus: 1, stock: 20, minPriceCents: 2600 });
  });
});
