/**
 * The teacher's own courses (/api/teach/courses…): read the course with its lessons, change a
 * lesson's notes and its homework task. A course the teacher does not teach answers 404, like one
 * that does not exist; operators may open every course.
 */
import { sql } from "kysely";
import {
  adminCourseSchema,
  lessonNotesSchema,
  taskFieldsSchema,
  teachCoursesSchema,
} from "../../../shared/contracts/admin-catalogue";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { notFound } from "../../http";
import { lessonCourse, putTask, updateLessonNotes } from "../catalogue-admin/course-contents";
import { loadCourse } from "../catalogue-admin/courses";
import { teachesCourse } from "../homework/staff";

export function teachCourseEndpoints(ctx: ApiContext): Endpoint[] {
  const db = () => ctx.database.db;
  const base = { tag: "teach", auth: true, role: "teacher" } as const;
  const ownCourse = async (user: User, courseId: number) => {
    if (!(await teachesCourse(db(), user, courseId))) throw notFound("课程不存在");
  };
  const ownLesson = async (lessonId: number, user: User) => {
    const lesson = await lessonCourse(db(), lessonId).catch(() => {
      throw notFound("课时不存在");
    });
    if (!(await teachesCourse(db(), user, lesson.course_id))) throw notFound("课时不存在");
    return { lessonId, courseId: lesson.course_id };
  };

  return [
    defineEndpoint({
      ...base,
      method: "get",
      path: "/teach/courses",
      summary: "我任教的课程（运营看到全部课程）",
      output: teachCoursesSchema,
      handler: async (_req, res, { auth: { user } }) => {
        let q = db()
          .selectFrom("courses as c")
          .select([
            "c.id",
            "c.title",
            "c.category",
            "c.kind",
            "c.status",
            (eb) =>
              eb
                .selectFrom("lessons as l")
                .select(sql<number>`count(*)::int`.as("n"))
                .whereRef("l.course_id", "=", "c.id")
                .as("lessons"),
            (eb) =>
              eb
                .selectFrom("homework_tasks as h")
                .select(sql<number>`count(*)::int`.as("n"))
                .whereRef("h.course_id", "=", "c.id")
                .as("tasks"),
          ])
          .orderBy("c.updated_at", "desc")
          .orderBy("c.id", "desc")
          .limit(200);
        if (user.role !== "operator") {
          q = q.where("c.id", "in", (eb) =>
            eb.selectFrom("course_teachers").select("course_id").where("user_id", "=", user.id),
          );
        }
        const rows = await q.execute();
        res.json({
          courses: rows.map((r) => ({
            id: r.id,
            title: r.title,
            category: r.category,
            kind: r.kind,
            status: r.status,
            lessons: Number(r.lessons ?? 0),
            tasks: Number(r.tasks ?? 0),
          })),
        });
      },
    }),
    defineEndpoint({
      ...base,
      method: "get",
      path: "/teach/courses/{id}",
      summary: "我的一门课：章节、课时、讲义与作业（别的老师的课 404）",
      params: { id: idParam("课程编号") },
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, params: { id } }) => {
        await ownCourse(user, id);
        res.json(await loadCourse(db(), id));
      },
    }),
    defineEndpoint({
      ...base,
      method: "patch",
      path: "/teach/lessons/{id}/notes",
      summary: "修改我的课时讲义",
      params: { id: idParam("课时编号") },
      input: lessonNotesSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const { lessonId, courseId } = await ownLesson(params.id, user);
        await updateLessonNotes(db(), user.id, lessonId, input.summary, ctx.now());
        res.json(await loadCourse(db(), courseId));
      },
    }),
    defineEndpoint({
      ...base,
      method: "put",
      path: "/teach/lessons/{id}/task",
      summary: "设置我的课时作业（新建或修改）",
      params: { id: idParam("课时编号") },
      input: taskFieldsSchema,
      output: adminCourseSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        const { lessonId, courseId } = await ownLesson(params.id, user);
        await putTask(db(), user.id, lessonId, input);
        res.json(await loadCourse(db(), courseId));
      },
    }),
  ];
}
