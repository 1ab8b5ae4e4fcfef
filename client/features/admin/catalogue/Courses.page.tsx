/** 课程管理 (/admin/courses): every course, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { courseCategories, courseCategoryName } from "../../../../shared/catalogue";
import {
  type AdminCourseRow,
  COURSE_KIND_LABELS,
  adminCoursePageSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { formatDateTime } from "../../../../shared/format";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { nameColumns, statusColumn, statusFilter } from "./list-columns";

const PARAMS = ["q", "status", "category", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await env.api(`/api/admin/courses${listQuery(request, PARAMS)}`, {
    signal,
    schema: adminCoursePageSchema,
  });
  return { page, meta: { title: "课程管理", noindex: true } };
}

const column = createColumnHelper<AdminCourseRow>();
const columns = [
  ...nameColumns<AdminCourseRow>("课程", "/admin/courses"),
  column.accessor("category", { header: "分类", cell: (c) => courseCategoryName(c.getValue()) ?? c.getValue() }),
  column.accessor("kind", { header: "类型", cell: (c) => COURSE_KIND_LABELS[c.getValue()] }),
  column.accessor("teacherName", { header: "老师" }),
  column.accessor("priceCents", {
    header: "售价",
    cell: (c) => `¥${formatYuan(c.getValue())}`,
    meta: { sortKey: "price", align: "end" },
  }),
  column.accessor("lessons", { header: "课时", meta: { align: "end" } }),
  statusColumn<AdminCourseRow>(),
  column.accessor("updatedAt", {
    header: "更新",
    cell: (c) => formatDateTime(c.getValue()),
    meta: { sortKey: "updatedAt" },
  }),
];

export default function CoursesPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <Page
      lead="新建、编辑、上架和下架课程；改动立即出现在公开页面。"
      actions={
        <Link className="button button--primary" to="/admin/courses/new">
          新建课程
        </Link>
      }
    >
      <FilterBar
        label="筛选课程"
        filters={[
          { type: "search", name: "q", label: "搜索", placeholder: "课程名称、编号或老师" },
          statusFilter,
          {
            type: "select",
            name: "category",
            label: "分类",
            options: [["", "全部"], ...courseCategories.map((c) => [c.key, c.name] as const)],
          },
        ]}
      />
      <DataTable
        caption="课程"
        columns={columns}
        page={page}
        rowKey={(row) => String(row.id)}
        defaultSort={{ key: "updatedAt", dir: "desc" }}
        empty={<p>没有符合条件的课程。</p>}
      />
    </Page>
  );
}
