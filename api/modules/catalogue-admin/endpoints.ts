/** The operator's catalogue (/api/admin/…): courses, chapters, lessons, tasks, books and stationery. */
import { rm } from "node:fs/promises";
import type { RequestHandler } from "express";
import { sql } from "kysely";
import { z } from "zod";
import {
  adminBookDetailSchema,
  adminBookPageSchema,
  adminCommodityPageSchema,
  adminCommoditySchema,
  adminCoursePageSchema,
  adminCourseSchema,
  bookCreateSchema,
  bookPatchSchema,
  catalogueListQuerySchema,
  chapterInputSchema,
  commodityCreateSchema,
  commodityPatchSchema,
  courseCreateSchema,
  courseOrderSchema,
  coursePatchSchema,
  coverResultSchema,
  encoderStatusSchema,
  lessonInputSchema,
  lessonPatchSchema,
  type LessonVideoJob,
  lessonVideoJobSchema,
  NO_ENCODER_MESSAGE,
  skuCreateSchema,
  skuPatchSchema,
  stockChangeInputSchema,
  stockResultSchema,
  taskFieldsSchema,
  teacherOptionsSchema,
} from "../../../shared/contracts/admin-catalogue";
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError } from "../../http";
import {
  bookOf,
  addSku,
  changeStock,
  createBook,
  createCommodity,
  loadBook,
  loadCommodity,
  setGoodsCover,
  skuCommodity,
  updateBook,
  updateCommodity,
  updateSku,
} from "./goods";
import {
  addChapter,
  addLesson,
  createCourse,
  deleteChapter,
  deleteLesson,
  deleteTask,
  lessonCourse,
  loadCourse,
  putTask,
  renameChapter,
  reorderCourse,
  setCourseCover,
  setCourseStatus,
  updateCourse,
  updateLesson,
} from "./courses";
import {
  assertRole,
  coverUploadBefore,
  dropCover,
  idParam,
  idParams,
  likeOf,
  pageOfAliased,
  storeCover,
} from "./common";
import { encoderStatus, findEncoder, videoSettingsOf } from "./encoder";
import { probeVideo, VIDEO_LIMITS, videoTooLongMessage } from "./ffmpeg";
import {
  enqueueVideo,
  hasOpenJob,
  kickVideoWorker,
  latestVideoJob,
  LESSON_VIDEO_TYPES,
  NOT_A_VIDEO_MESSAGE,
  receiveVideo,
  videoBusy,
} from "./video";

const empty = z.object({}).strict();
const closeAfterAnswer: RequestHandler = (_req, res, next) => {
  res.setHeader("Connection", "close");
  next();
};
const COVER_RAW = { binary: AVATAR_TYPES, maxBytes: AVATAR_MAX_BYTES } as const;

export function adminCatalogueEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const courseJson = async (id: number) => loadCourse(db(), id);
  const base = { tag: "admin", auth: true, role: "operator" } as const;

  return [
    // ---- courses ----
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/courses",
      summary: "课程列表：按名称或编号搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminCoursePageSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        assertRole(user, "operator");
        let q = db()
          .selectFrom("courses as c")
          .innerJoin("teachers as t", "t.id", "c.teacher_id")
          .select([
            "c.id",
            "c.title",
            "c.category",
            "c.kind",
            "t.name as teacher_name",
            "c.price_cents",
            "c.original_price_cents",
            "c.status",
            "c.updated_at",
            (eb) =>
              eb
                .selectFrom("lessons as l")
                .select(sql<number>`count(*)::int`.as("n"))
                .whereRef("l.course_id", "=", "c.id")
                .as("lessons"),
          ]);
        if (query.status) q = q.where("c.status", "=", query.status);
        if (query.category) q = q.where("c.category", "=", query.category);
        if (query.q) {
          const text = query.q;
          q = q.where((eb) =>
            /^\d{1,9}$/.test(text)
              ? eb.or([eb("c.id", "=", Number(text)), eb("c.title", "ilike", likeOf(text))])
              : eb.or([eb("c.title", "ilike", likeOf(text)), eb("t.name", "ilike", likeOf(text))]),
          );
        }
        const page = await pageOfAliased(q, query, {
          sortable: {
            id: "c.id",
            title: "c.title",
            price: "c.price_cents",
            status: "c.status",
            updatedAt: "c.updated_at",
          },
          defaultSort: "updatedAt",
          tieBreak: "c.id",
        });
        res.json({
          ...page,
          rows: page.rows.map((r) => ({
            id: r.id,
            title: r.title,
            category: r.category,
            kind: r.kind,
            teacherName: r.teacher_name,
            priceCents: r.price_cents,
            originalPriceCents: r.original_price_cents,
            status: r.status,
            lessons: Number(r.lessons ?? 0),
            updatedAt: r.updated_at.toISOString(),
          })),
        });
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/teachers",
      summary: "授课老师（课程与直播的老师选项）",
      output: teacherOptionsSchema,
      handler: async (_req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const rows = await db()
          .selectFrom("teachers")
          .select(["id", "name", "user_id"])
          .orderBy("position")
          .orderBy("id")
          .execute();
        res.json({ teachers: rows.map((t) => ({ id: t.id, name: t.name, hasAccount: t.user_id !== null })) });
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/courses",
      summary: "新建课程（未上架）",
      input: courseCreateSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = await createCourse(db(), user.id, input, ctx.now());
        res.status(201).json(await courseJson(id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/courses/{id}",
      summary: "课程详情：章节、课时（视频、试看、作业）",
      params: idParams("课程编号"),
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        res.json(await courseJson(idParam(req)));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/courses/{id}",
      summary: "修改课程（名称、分类、类型、老师、售价与划线价、简介…）",
      params: idParams("课程编号"),
      input: coursePatchSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await updateCourse(db(), user.id, id, input, ctx.now());
        res.json(await courseJson(id));
      },
    }),
    ...(["publish", "unpublish"] as const).map((verb) =>
      defineEndpoint({
        ...base,
        method: "post",
        path: `/admin/courses/{id}/${verb}`,
        summary: verb === "publish" ? "上架课程（至少一节课时）" : "下架课程",
        params: idParams("课程编号"),
        input: empty,
        output: adminCourseSchema,
        handler: async (req, res, { auth: { user } }) => {
          assertRole(user, "operator");
          const id = idParam(req);
          await setCourseStatus(db(), user.id, id, verb === "publish" ? "published" : "draft", ctx.now());
          res.json(await courseJson(id));
        },
      }),
    ),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/courses/{id}/cover",
      summary: "上传课程封面（JPEG/PNG/WebP，≤ 5 MB，与头像同样检查；保存为 960×540 WebP）",
      params: idParams("课程编号"),
      raw: COVER_RAW,
      before: coverUploadBefore(),
      output: coverResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await loadCourse(db(), id);
        const url = await storeCover(ctx, req.body, "course");
        dropCover(ctx, await setCourseCover(db(), user.id, id, url), req);
        res.json({ coverImage: url });
      },
    }),
    defineEndpoint({
      ...base,
      method: "put",
      path: "/admin/courses/{id}/order",
      summary: "调整章节与课时的顺序（整门课的完整顺序；课时可换章）",
      params: idParams("课程编号"),
      input: courseOrderSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await reorderCourse(db(), user.id, id, input, ctx.now());
        res.json(await courseJson(id));
      },
    }),

    // ---- chapters ----
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/courses/{id}/chapters",
      summary: "新增章节（排在最后）",
      params: idParams("课程编号"),
      input: chapterInputSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await addChapter(db(), user.id, id, input.title, ctx.now());
        res.status(201).json(await courseJson(id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/chapters/{id}",
      summary: "修改章节名称",
      params: idParams("章节编号"),
      input: chapterInputSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const courseId = await renameChapter(db(), user.id, idParam(req), input.title, ctx.now());
        res.json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "delete",
      path: "/admin/chapters/{id}",
      summary: "删除空章节",
      params: idParams("章节编号"),
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const courseId = await deleteChapter(db(), user.id, idParam(req), ctx.now());
        res.json(await courseJson(courseId));
      },
    }),

    // ---- lessons ----
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/chapters/{id}/lessons",
      summary: "新增课时（示例视频或本站视频地址、时长、试看）",
      params: idParams("章节编号"),
      input: lessonInputSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const { courseId } = await addLesson(db(), user.id, idParam(req), input, ctx.now());
        res.status(201).json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/lessons/{id}",
      summary: "修改课时（名称、讲义、视频、时长、试看）",
      params: idParams("课时编号"),
      input: lessonPatchSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const courseId = await updateLesson(db(), user.id, idParam(req), input, ctx.now());
        res.json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "delete",
      path: "/admin/lessons/{id}",
      summary: "删除课时（没有学员学习记录或作业时）",
      params: idParams("课时编号"),
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const courseId = await deleteLesson(db(), user.id, idParam(req), ctx.now());
        res.json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/media/encoder",
      summary: "能否上传视频文件（服务器是否装有转码器）",
      output: encoderStatusSchema,
      handler: (_req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        res.json(encoderStatus(ctx.settings.video));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/lessons/{id}/video",
      summary: `上传课时视频文件（原始字节，≤ VIDEO_UPLOAD_MAX_MB，最长 ${VIDEO_LIMITS.maxSeconds / 3600} 小时）：按文件内容判断容器（MP4/MOV、WebM/MKV、AVI、MPEG/TS，其他 415），检查后在后台转为 HLS，答复转码任务（202）；没有转码器时拒绝（503 no_encoder），没有视频画面或太长时 422`,
      params: idParams("课时编号"),
      raw: { binary: LESSON_VIDEO_TYPES, maxBytes: 2 * 1024 ** 3 },
      output: lessonVideoJobSchema,
      // Every answer closes the connection: a refusal (no session, wrong role, no encoder…) comes
      // before the file is read, and the unread rest must not be taken for the next request.
      before: [closeAfterAnswer],
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const lessonId = idParam(req);
        await lessonCourse(db(), lessonId);
        const settings = videoSettingsOf(ctx.settings.video);
        const encoder = findEncoder(settings);
        if (!encoder) throw new ApiError(503, "no_encoder", NO_ENCODER_MESSAGE);
        if (await hasOpenJob(db(), lessonId)) throw videoBusy();
        const { file, bytes, demuxer } = await receiveVideo(req, ctx.settings.dataDir, settings.uploadMaxBytes);
        const probe = await probeVideo(encoder.ffprobe, file, demuxer);
        if (!probe || probe.durationSeconds > VIDEO_LIMITS.maxSeconds) {
          await rm(file, { force: true });
          if (probe) throw new ApiError(422, "video_too_long", videoTooLongMessage(VIDEO_LIMITS));
          throw new ApiError(422, "not_a_video", NOT_A_VIDEO_MESSAGE);
        }
        try {
          await enqueueVideo(db(), {
            lessonId,
            actorId: user.id,
            sourcePath: file,
            bytes,
            durationSeconds: probe.durationSeconds,
          });
        } catch (err) {
          await rm(file, { force: true });
          throw err;
        }
        kickVideoWorker(ctx);
        res.status(202).json({ job: await latestVideoJob(db(), lessonId) } satisfies LessonVideoJob);
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/lessons/{id}/video",
      summary: "课时最近一次视频上传的转码状态（排队、转码中及进度、已转码及播放地址、失败及原因）",
      params: idParams("课时编号"),
      output: lessonVideoJobSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const lessonId = idParam(req);
        await lessonCourse(db(), lessonId);
        res.setHeader("Cache-Control", "no-store");
        res.json({ job: await latestVideoJob(db(), lessonId) } satisfies LessonVideoJob);
      },
    }),

    // ---- homework tasks ----
    defineEndpoint({
      ...base,
      method: "put",
      path: "/admin/lessons/{id}/task",
      summary: "设置课时作业（新建或修改）",
      params: idParams("课时编号"),
      input: taskFieldsSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const { courseId } = await putTask(db(), user.id, idParam(req), input);
        res.json(await courseJson(courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "delete",
      path: "/admin/lessons/{id}/task",
      summary: "删除课时作业（还没有学员交作业时）",
      params: idParams("课时编号"),
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const courseId = await deleteTask(db(), user.id, idParam(req));
        res.json(await courseJson(courseId));
      },
    }),

    // ---- books ----
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/books",
      summary: "图书列表：按书名、作者、ISBN 搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminBookPageSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        assertRole(user, "operator");
        let q = db().selectFrom("books").selectAll();
        if (query.status) q = q.where("status", "=", query.status);
        if (query.category) q = q.where("tab", "=", query.category);
        if (query.q) {
          const like = likeOf(query.q);
          q = q.where((eb) =>
            eb.or([eb("title", "ilike", like), eb("author", "ilike", like), eb("isbn", "=", query.q ?? "")]),
          );
        }
        const page = await pageOfAliased(q, query, {
          sortable: {
            id: "id",
            title: "title",
            price: "price_cents",
            stock: "stock",
            status: "status",
            updatedAt: "updated_at",
          },
          defaultSort: "updatedAt",
          tieBreak: "id",
        });
        res.json({ ...page, rows: page.rows.map(bookOf) });
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/books",
      summary: "新建图书：上架状态可选，初始库存记为一次“初始库存”变动",
      input: bookCreateSchema,
      output: adminBookDetailSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = await createBook(db(), user.id, input, ctx.now());
        res.status(201).json(await loadBook(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/books/{id}",
      summary: "图书详情与库存变动记录",
      params: idParams("图书编号"),
      output: adminBookDetailSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        res.json(await loadBook(db(), idParam(req)));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/books/{id}",
      summary: "修改图书（含上架、下架）",
      params: idParams("图书编号"),
      input: bookPatchSchema,
      output: adminBookDetailSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await updateBook(db(), user.id, id, input, ctx.now());
        res.json(await loadBook(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/books/{id}/stock",
      summary: "调整图书库存（正数入库、负数出库，须写原因，记入库存变动记录）",
      params: idParams("图书编号"),
      input: stockChangeInputSchema,
      output: stockResultSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        res.json(await changeStock(db(), user.id, "book", idParam(req), input.delta, input.reason, ctx.now()));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/books/{id}/cover",
      summary: "上传图书封面（与头像同样检查；保存为 600×800 WebP）",
      params: idParams("图书编号"),
      raw: COVER_RAW,
      before: coverUploadBefore(),
      output: coverResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await loadBook(db(), id);
        const url = await storeCover(ctx, req.body, "book");
        dropCover(ctx, await setGoodsCover(db(), user.id, "books", id, url), req);
        res.json({ coverImage: url });
      },
    }),

    // ---- stationery ----
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/commodities",
      summary: "文房商品列表：按名称搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminCommodityPageSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        assertRole(user, "operator");
        let q = db()
          .selectFrom("commodities as c")
          .select([
            "c.id",
            "c.title",
            "c.category",
            "c.status",
            "c.updated_at",
            (eb) =>
              eb
                .selectFrom("commodity_skus as s")
                .select(sql<number>`count(*)::int`.as("n"))
                .whereRef("s.commodity_id", "=", "c.id")
                .as("skus"),
            (eb) =>
              eb
                .selectFrom("commodity_skus as s")
                .select(sql<number>`coalesce(sum(s.stock), 0)::int`.as("n"))
                .whereRef("s.commodity_id", "=", "c.id")
                .as("stock"),
            (eb) =>
              eb
                .selectFrom("commodity_skus as s")
                .select(sql<number>`min(s.price_cents)`.as("n"))
                .whereRef("s.commodity_id", "=", "c.id")
                .as("min_price"),
          ]);
        if (query.status) q = q.where("c.status", "=", query.status);
        if (query.category) q = q.where("c.category", "=", query.category);
        if (query.q) q = q.where("c.title", "ilike", likeOf(query.q));
        const page = await pageOfAliased(q, query, {
          sortable: { id: "c.id", title: "c.title", status: "c.status", updatedAt: "c.updated_at" },
          defaultSort: "updatedAt",
          tieBreak: "c.id",
        });
        res.json({
          ...page,
          rows: page.rows.map((r) => ({
            id: r.id,
            title: r.title,
            category: r.category,
            status: r.status,
            skus: Number(r.skus ?? 0),
            stock: Number(r.stock ?? 0),
            minPriceCents: r.min_price === null || r.min_price === undefined ? null : Number(r.min_price),
            updatedAt: r.updated_at.toISOString(),
          })),
        });
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/commodities",
      summary: "新建文房商品：可带规格（售价、划线价、初始库存），上架须至少一个规格",
      input: commodityCreateSchema,
      output: adminCommoditySchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = await createCommodity(db(), user.id, input, ctx.now());
        res.status(201).json(await loadCommodity(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/admin/commodities/{id}",
      summary: "文房商品详情：规格、库存与库存变动记录",
      params: idParams("商品编号"),
      output: adminCommoditySchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        res.json(await loadCommodity(db(), idParam(req)));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/commodities/{id}",
      summary: "修改文房商品（含上架、下架）",
      params: idParams("商品编号"),
      input: commodityPatchSchema,
      output: adminCommoditySchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await updateCommodity(db(), user.id, id, input, ctx.now());
        res.json(await loadCommodity(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/commodities/{id}/skus",
      summary: "新增规格（库存 0，用库存调整入库）",
      params: idParams("商品编号"),
      input: skuCreateSchema,
      output: adminCommoditySchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await addSku(db(), user.id, id, input, ctx.now());
        res.status(201).json(await loadCommodity(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/admin/skus/{id}",
      summary: "修改规格（名称、售价、划线价）",
      params: idParams("规格编号"),
      input: skuPatchSchema,
      output: adminCommoditySchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const commodityId = await updateSku(db(), user.id, idParam(req), input, ctx.now());
        res.json(await loadCommodity(db(), commodityId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/skus/{id}/stock",
      summary: "调整规格库存（须写原因，记入库存变动记录）",
      params: idParams("规格编号"),
      input: stockChangeInputSchema,
      output: stockResultSchema,
      handler: async (req, res, { auth: { user }, input }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await skuCommodity(db(), id);
        res.json(await changeStock(db(), user.id, "sku", id, input.delta, input.reason, ctx.now()));
      },
    }),
    defineEndpoint({
      ...base,
      method: "post",
      path: "/admin/commodities/{id}/cover",
      summary: "上传文房商品封面（与头像同样检查；保存为 800×800 WebP）",
      params: idParams("商品编号"),
      raw: COVER_RAW,
      before: coverUploadBefore(),
      output: coverResultSchema,
      handler: async (req, res, { auth: { user } }) => {
        assertRole(user, "operator");
        const id = idParam(req);
        await loadCommodity(db(), id);
        const url = await storeCover(ctx, req.body, "commodity");
        dropCover(ctx, await setGoodsCover(db(), user.id, "commodities", id, url), req);
        res.json({ coverImage: url });
      },
    }),
  ];
}
