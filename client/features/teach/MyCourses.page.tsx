/** 我的课程 (/teach/courses): the courses this teacher teaches (every course for operators). */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { courseCategoryName } from "../../../shared/catalogue";
import { COURSE_KIND_LABELS, PUBLISH_STATE_LABELS } from "../../../shared/contracts/admin-catalogue-fields";
import { type TeachCourseRow, teachCoursesSchema } from "../../../shared/contracts/admin-courses";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { Table } from "../../components/table/DataTable";
import "../../components/staff/staff.css";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal }: PageLoaderArgs) {
  const data = await env.api("/api/teach/courses", { signal, schema: teachCoursesSchema });
  return { ...data, meta: { title: "我的课程", noindex: true } };
}

const column = createColumnHelper<TeachCourseRow>();
const columns = [
  column.accessor("title", {
    header: "课程",
    cell: (c) => (
      <Link className="text-link" to={`/teach/courses/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
  }),
  column.accessor("category", { header: "分类", cell: (c) => courseCategoryName(c.getValue()) ?? c.getValue() }),
  column.accessor("kind", { header: "类型", cell: (c) => COURSE_KIND_LABELS[c.getValue()] }),
  column.accessor("status", { header: "状态", cell: (c) => PUBLISH_STATE_LABELS[c.getValue()] }),
  column.accessor("lessons", { header: "课时" }),
  column.accessor("tasks", { header: "作业" }),
];

export default function MyCoursesPage() {
  const { courses } = useLoaderData<typeof loader>();
  return (
    <Page lead="查看你任教课程的课时，修改课时讲义和作业。">
      {courses.length === 0 ? (
        <EmptyState glyph="课" title="还没有你任教的课程">
          <p>运营把课程交给你之后，会出现在这里。</p>
        </EmptyState>
      ) : (
        <Table className="staff-table card" columns={columns} rows={courses} rowKey={(c) => String(c.id)} />
      )}
    </Page>
  );
}
