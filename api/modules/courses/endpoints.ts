/**
 * Course catalogue (/api/courses): the list with filters and the public detail (both the same
 * for every visitor, so caches keep them a minute), and the personal parts — the learner's
 * state on a course, free enrolment, my courses — private and never stored.
 *
 * The detail is split in two on purpose: the public outline is cacheable by any cache without
 * varying on cookies, and the small personal overlay (`/:id/me`) is fetched only when signed in.
 */
import {
  courseDetailSchema,
  courseListQuerySchema,
  courseListSchema,
  courseViewerSchema,
  enrolRequestSchema,
  enrolResultSchema,
  myCoursesSchema,
} from "../../../shared/contracts/courses";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { publicJson } from "../../http";
import { courseDetail, courseNotFound, listCourses } from "./catalogue";
import { courseViewer, enrolFree, myCourses } from "./learner";

/** Anything but a positive int4 in the path is simply an unknown course. */
const courseId = { id: idParam("课程编号", courseNotFound().message) };

export function courseEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/courses",
      summary:
        "课程列表（公开，缓存 60 秒）。查询参数：category 分类、kind（recorded|live|camp）、level（beginner|intermediate|advanced）、price（free|paid）、sort（popular|newest|price_asc|price_desc，默认 popular，同序按编号）、page（从 1 开始）、pageSize（默认 12，最大 48）；参数不正确时 400",
      tag: "courses",
      auth: false,
      query: courseListQuerySchema,
      output: courseListSchema,
      handler: async (_req, res, { query }) => {
        publicJson(res, await listCourses(ctx, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/courses/mine",
      summary: "我的课程：学习进度（已学完课时 / 全部课时）、最近学习的课时与时间",
      tag: "courses",
      auth: true,
      output: myCoursesSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await myCourses(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/courses/{id}",
      summary:
        "课程详情（公开，缓存 60 秒）：老师、介绍、章节目录（按未登录访客标出试看与锁定）、相关书籍与文房、直播课次；不存在时 404",
      tag: "courses",
      auth: false,
      params: courseId,
      output: courseDetailSchema,
      handler: async (req, res, { params }) => {
        publicJson(res, await courseDetail(ctx, params.id));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/courses/{id}/me",
      summary: "当前学员在这门课上的状态：是否已报名、继续学习的课时、每个课时的锁定与进度",
      tag: "courses",
      auth: true,
      params: courseId,
      output: courseViewerSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await courseViewer(ctx, user.id, params.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/courses/{id}/enrol",
      summary: "报名免费课程（重复报名无副作用）；付费课程 402「该课程需购买后学习」",
      tag: "courses",
      auth: true,
      params: courseId,
      input: enrolRequestSchema,
      output: enrolResultSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await enrolFree(ctx, user.id, params.id));
      },
    }),
  ];
}
