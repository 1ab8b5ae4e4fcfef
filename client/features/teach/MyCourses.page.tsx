/** 我的课程 (/teach/courses): the courses this teacher teaches (every course for operators). */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { courseCategoryName } from "../../../shared/catalogue";
import { COURSE_KIND_LABELS, PUBLISH_STATE_LABELS } from "../../../shared/contracts/admin-catalogue-fields";
import { teachCoursesSchema } from "../../../shared/contracts/admin-courses";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import "../../components/staff/staff.css";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal }: PageLoaderArgs) {
  const data = await env.api("/api/teach/courses", { signal, schema: teachCoursesSchema });
  return { ...data, meta: { title: "我的课程", noindex: true } };
}

export default function MyCoursesPage() {
  const { courses } = useLoaderData<typeof loader>();
  return (
    <Page lead="查看你任教课程的课时，修改课时讲义和作业。">
      {courses.length === 0 ? (
        <EmptyState glyph="课" title="还没有你任教的课程">
          <p>运营把课程交给你之后，会出现在这里。</p>
        </EmptyState>
      ) : (
        <table className="staff-table card">
          <thead>
            <tr>
              <th scope="col">课程</th>
              <th scope="col">分类</th>
              <th scope="col">类型</th>
              <th scope="col">状态</th>
              <th scope="col">课时</th>
              <th scope="col">作业</th>
            </tr>
          </thead>
          <tbody>
            {courses.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link className="text-link" to={`/teach/courses/${c.id}`}>
                    {c.title}
                  </Link>
                </td>
                <td>{courseCategoryName(c.category) ?? c.category}</td>
                <td>{COURSE_KIND_LABELS[c.kind]}</td>
                <td>{PUBLISH_STATE_LABELS[c.status]}</td>
                <td>{c.lessons}</td>
                <td>{c.tasks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
