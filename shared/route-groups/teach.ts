/**
 * The teachers' area under /teach (a route group of its own, loaded by the browser only there;
 * decision 048).
 */
import type { RouteDef } from "../route-def";

const teachChildren: RouteDef[] = [
  { id: "teach.index", path: "", page: "teach/TeachOverview", title: "教师工作台" },
  { id: "teach.homework", path: "homework", page: "teach/HomeworkQueue", title: "作业批改" },
  /** The attempt to review is `?attempt={attemptId}` (the claim decides whether it may be opened). */
  { id: "teach.homework.review", path: "homework/review", page: "teach/HomeworkReview", title: "批改作业" },
  { id: "teach.courses", path: "courses", page: "teach/MyCourses", title: "我的课程" },
  { id: "teach.course", path: "courses/:id", page: "teach/MyCourse", title: "课程课时", params: { id: "id" } },
  { id: "teach.live", path: "live", page: "teach/MyLive", title: "我的直播" },
  { id: "teach.live.session", path: "live/:id", page: "teach/MyLiveSession", title: "直播管理", params: { id: "id" } },
];

export const teachRoute: RouteDef = {
  id: "teach",
  path: "teach",
  page: "teach/TeachLayout",
  title: "教师工作台",
  access: "teacher",
  children: teachChildren,
};
