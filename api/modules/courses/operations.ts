/** The course catalogue's operations for the OpenAPI document (api/openapi.ts lists them). */
import {
  courseDetailSchema,
  courseListSchema,
  courseViewerSchema,
  enrolRequestSchema,
  enrolResultSchema,
  myCoursesSchema,
} from "../../../shared/contracts/courses";
import type { ApiOperation } from "../../openapi";

const courseId = { id: { type: "integer", description: "课程编号" } } as const;

export const courseOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/courses",
    summary:
      "课程列表（公开，缓存 60 秒）。查询参数：category 分类、kind（recorded|live|camp）、level（beginner|intermediate|advanced）、price（free|paid）、sort（popular|newest|price_asc|price_desc，默认 popular，同序按编号）、page（从 1 开始）、pageSize（默认 12，最大 48）；参数不正确时 400",
    tag: "courses",
    auth: false,
    response: courseListSchema,
  },
  {
    method: "get",
    path: "/courses/mine",
    summary: "我的课程：学习进度（已学完课时 / 全部课时）、最近学习的课时与时间",
    tag: "courses",
    auth: true,
    response: myCoursesSchema,
  },
  {
    method: "get",
    path: "/courses/{id}",
    summary:
      "课程详情（公开，缓存 60 秒）：老师、介绍、章节目录（按未登录访客标出试看与锁定）、相关书籍与文房、直播课次；不存在时 404",
    tag: "courses",
    auth: false,
    params: courseId,
    response: courseDetailSchema,
  },
  {
    method: "get",
    path: "/courses/{id}/me",
    summary: "当前学员在这门课上的状态：是否已报名、继续学习的课时、每个课时的锁定与进度",
    tag: "courses",
    auth: true,
    params: courseId,
    response: courseViewerSchema,
  },
  {
    method: "post",
    path: "/courses/{id}/enrol",
    summary: "报名免费课程（重复报名无副作用）；付费课程 402「该课程需购买后学习」",
    tag: "courses",
    auth: true,
    params: courseId,
    request: enrolRequestSchema,
    response: enrolResultSchema,
  },
];
