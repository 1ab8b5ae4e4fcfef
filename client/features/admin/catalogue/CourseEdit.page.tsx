/**
 * 课程编辑 (/admin/courses/:id, and /admin/courses/new): the course's fields, publishing, the
 * cover, and its outline — chapters and lessons, each lesson with its video, trial flag, notes and
 * homework task. The parts live in ./course/.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  adminCourseSchema,
  encoderStatusSchema,
  teacherOptionsSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { CourseCover, PublishBar } from "./course/CourseCover";
import { CourseForm } from "./course/CourseForm";
import { Outline } from "./course/Outline";
import "./catalogue.css";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const id = params.id;
  const [teachers, encoder, course] = await Promise.all([
    env.api("/api/admin/teachers", { signal, schema: teacherOptionsSchema }),
    env.api("/api/admin/media/encoder", { signal, schema: encoderStatusSchema }),
    id ? env.api(`/api/admin/courses/${id}`, { signal, schema: adminCourseSchema }) : Promise.resolve(null),
  ]);
  return {
    course,
    teachers: teachers.teachers,
    encoder,
    meta: { title: course ? `编辑：${course.title}` : "新建课程", noindex: true },
  };
}

export default function CourseEditPage() {
  const { course, teachers, encoder } = useLoaderData<typeof loader>();
  return (
    <Page
      title={course ? course.title : "新建课程"}
      lead={<Link to="/admin/courses">← 课程列表</Link>}
      className="catalogue-edit"
    >
      {course ? <PublishBar course={course} /> : null}
      <section className="card staff-panel" aria-labelledby="course-form-title">
        <h2 id="course-form-title">课程信息</h2>
        <CourseForm key={course?.updatedAt ?? "new"} course={course} teachers={teachers} />
      </section>
      {course ? (
        <>
          <section className="card staff-panel" aria-labelledby="cover-title">
            <h2 id="cover-title">封面</h2>
            <CourseCover course={course} />
          </section>
          <Outline course={course} encoder={encoder} />
        </>
      ) : (
        <p className="staff-message">创建课程后，可以上传封面、添加章节和课时。</p>
      )}
    </Page>
  );
}
