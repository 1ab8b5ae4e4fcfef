/** 课程管理 (/admin/courses): every course, searched, filtered, sorted and paged by the server. */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData, useSearchParams } from "react-router-dom";
import { GetForm } from "../../../routing/get-form";
import { Link } from "../../../routing/link";
import { courseCategories, courseCategoryName } from "../../../../shared/catalogue";
import {
  type AdminCourseRow,
  COURSE_KIND_LABELS,
  PUBLISH_STATES,
  PUBLISH_STATE_LABELS,
  adminCoursePageSchema,
} from "../../../../shared/contracts/admin-catalogue";
import { formatDateTime } from "../../../../shared/format";
import { formatYuan } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import type { PageLoaderArgs } from "../../../routing/nav-context";

const PARAMS = ["q", "status", "category", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const key of PARAMS) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  const text = query.toString();
  const page = await env.api(`/api/admin/courses${text ? `?${text}` : ""}`, { signal, schema: adminCoursePageSchema });
  return { page, meta: { title: "课程管理", noindex: true } };
}

const column = createColumnHelper<AdminCourseRow>();
const columns = [
  column.accessor("id", { header: "编号", meta: { sortKey: "id" } }),
  column.accessor("title", {
    header: "课程",
    cell: (c) => (
      <Link className="text-link" to={`/admin/courses/${c.row.original.id}`}>
        {c.getValue()}
      </Link>
    ),
    meta: { sortKey: "title" },
  }),
  column.accessor("category", { header: "分类", cell: (c) => courseCategoryName(c.getValue()) ?? c.getValue() }),
  column.accessor("kind", { header: "类型", cell: (c) => COURSE_KIND_LABELS[c.getValue()] }),
  column.accessor("teacherName", { header: "老师" }),
  column.accessor("priceCents", {
    header: "售价",
    cell: (c) => `¥${formatYuan(c.getValue())}`,
    meta: { sortKey: "price", align: "end" },
  }),
  column.accessor("lessons", { header: "课时", meta: { align: "end" } }),
  column.accessor("status", {
    header: "状态",
    cell: (c) => PUBLISH_STATE_LABELS[c.getValue()],
    meta: { sortKey: "status" },
  }),
  column.accessor("updatedAt", {
    header: "更新",
    cell: (c) => formatDateTime(c.getValue()),
    meta: { sortKey: "updatedAt" },
  }),
];

export default function CoursesPage() {
  const { page } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  return (
    <Page
      lead="新建、编辑、上架和下架课程；改动立即出现在公开页面。"
      actions={
        <Link className="button button--primary" to="/admin/courses/new">
          新建课程
        </Link>
      }
    >
      <GetForm className="admin-filters" role="search" aria-label="筛选课程">
        <label>
          搜索
          <input name="q" type="search" defaultValue={search.get("q") ?? ""} placeholder="课程名称、编号或老师" />
        </label>
        <label>
          状态
          <select name="status" defaultValue={search.get("status") ?? ""}>
            <option value="">全部</option>
            {PUBLISH_STATES.map((s) => (
              <option key={s} value={s}>
                {PUBLISH_STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          分类
          <select name="category" defaultValue={search.get("category") ?? ""}>
            <option value="">全部</option>
            {courseCategories.map((c) => (
              <option key={c.key} value={c.key}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--small">
          筛选
        </button>
      </GetForm>
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
