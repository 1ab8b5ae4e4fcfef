/** The operator's courses (/api/admin/courses…): the list, a course, its status, cover and order. */
import { z } from "zod";
import {
  adminCoursePageSchema,
  adminCourseSchema,
  catalogueListQuerySchema,
  courseCreateSchema,
  courseOrderSchema,
  coursePatchSchema,
  teacherOptionsSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { operatorOnly } from "./common";
import { reorderCourse } from "./course-contents";
import { createCourse, loadCourse, setCourseCover, setCourseStatus, updateCourse } from "./courses";
import { coverEndpoint, itemEndpoints } from "./item-endpoints";
import { coursePage } from "./lists";

const courseId = { id: idParam("课程编号") };

export function adminCourseEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const courseJson = (id: number) => loadCourse(db(), id);
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/courses",
      summary: "课程列表：按名称或编号搜索，按状态、分类筛选，服务端排序分页",
      query: catalogueListQuerySchema,
      output: adminCoursePageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await coursePage(db(), query));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: "/admin/teachers",
      summary: "授课老师（课程与直播的老师选项）",
      output: teacherOptionsSchema,
      handler: async (_req, res) => {
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
      ...operatorOnly,
      method: "post",
      path: "/admin/courses",
      summary: "新建课程（未上架）",
      input: courseCreateSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        const id = await createCourse(db(), user.id, input, ctx.now());
        res.status(201).json(await courseJson(id));
      },
    }),
    ...itemEndpoints({
      path: "/admin/courses",
      idDescription: "课程编号",
      detailSummary: "课程详情：章节、课时（视频、试看、作业）",
      patchSummary: "修改课程（名称、分类、类型、老师、售价与划线价、简介…）",
      patchInput: coursePatchSchema,
      output: adminCourseSchema,
      load: courseJson,
      update: (actorId, id, input) => updateCourse(db(), actorId, id, input, ctx.now()),
    }),
    ...(["publish", "unpublish"] as const).map((verb) =>
      defineEndpoint({
        ...operatorOnly,
        method: "post",
        path: `/admin/courses/{id}/${verb}`,
        summary: verb === "publish" ? "上架课程（至少一节课时）" : "下架课程",
        params: courseId,
        input: z.object({}).strict(),
        output: adminCourseSchema,
        handler: async (_req, res, { auth: { user }, params: { id } }) => {
          await setCourseStatus(db(), user.id, id, verb === "publish" ? "published" : "draft", ctx.now());
          res.json(await courseJson(id));
        },
      }),
    ),
    coverEndpoint(ctx, {
      path: "/admin/courses",
      idDescription: "课程编号",
      summary: "上传课程封面（JPEG/PNG/WebP，≤ 5 MB，与头像同样检查；保存为 960×540 WebP）",
      size: "course",
      load: courseJson,
      save: (actorId, id, url) => setCourseCover(db(), actorId, id, url),
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "put",
      path: "/admin/courses/{id}/order",
      summary: "调整章节与课时的顺序（整门课的完整顺序；课时可换章）",
      params: courseId,
      input: courseOrderSchema,
      output: adminCourseSchema,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        await reorderCourse(db(), user.id, id, input, ctx.now());
        res.json(await courseJson(id));
      },
    }),
  ];
}
