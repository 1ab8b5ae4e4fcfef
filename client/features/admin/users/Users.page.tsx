/**
 * 学员与员工 (/admin/users): every account, searched by phone, e-mail, nickname or id and
 * filtered by role and status; sorted and paged by the server. Each opens its detail.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  adminUserPageSchema,
  USER_ROLE_LABELS,
  USER_ROLES,
  USER_STATUS_LABELS,
  USER_STATUSES,
  type AdminUserRow,
} from "../../../../shared/contracts/admin-users";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar, optionsOf } from "../../../components/table/FilterBar";
import { listQuery } from "../../../components/table/list-query";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { LoadFailed, loaded } from "../desk-parts";
import "../desk.css";

const PARAMS = ["q", "role", "status", "page", "pageSize", "sort", "dir"];

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const page = await loaded(
    env.api(`/api/admin/users${listQuery(request, PARAMS)}`, { signal, schema: adminUserPageSchema }),
  );
  return { page, meta: { title: "学员与员工", noindex: true } };
}

const column = createColumnHelper<AdminUserRow>();
const columns = [
  column.accessor("id", { header: "编号", meta: { sortKey: "id", align: "end" } }),
  column.accessor("nickname", {
    header: "昵称",
    cell: (c) => <Link to={`/admin/users/${c.row.original.id}`}>{c.getValue()}</Link>,
    meta: { sortKey: "nickname" },
  }),
  column.accessor("phone", { header: "手机号", cell: (c) => c.getValue() ?? "—" }),
  column.accessor("email", { header: "邮箱", cell: (c) => c.getValue() ?? "—" }),
  column.accessor("role", { header: "角色", cell: (c) => USER_ROLE_LABELS[c.getValue()] }),
  column.accessor("status", {
    header: "状态",
    cell: (c) => (
      <span className="desk-status" data-status={c.getValue()}>
        {USER_STATUS_LABELS[c.getValue()]}
      </span>
    ),
  }),
  column.accessor("orders", {
    header: "订单",
    cell: (c) => (c.getValue() ? <Link to={`/admin/orders?userId=${c.row.original.id}`}>{c.getValue()}</Link> : "0"),
    meta: { align: "end" },
  }),
  column.accessor("createdAt", {
    header: "注册时间",
    cell: (c) => formatDateTime(c.getValue()),
    meta: { sortKey: "createdAt" },
  }),
];

export default function UsersPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <Page lead="学员、老师与运营的账号。按手机号、邮箱、昵称或编号搜索；在详情里停用或启用账号、结束登录会话、授予或撤销角色。">
      <FilterBar
        label="筛选账号"
        filters={[
          {
            type: "search",
            name: "q",
            label: "搜索",
            placeholder: "手机号 / 邮箱 / 昵称 / 编号",
            size: 26,
            maxLength: 100,
          },
          {
            type: "select",
            name: "role",
            label: "角色",
            options: [["", "全部角色"], ...optionsOf(USER_ROLES, USER_ROLE_LABELS)],
          },
          {
            type: "select",
            name: "status",
            label: "状态",
            options: [["", "全部状态"], ...optionsOf(USER_STATUSES, USER_STATUS_LABELS)],
          },
        ]}
        keep={["sort", "dir", "pageSize"]}
        resetTo="/admin/users"
      />
      {page.ok ? (
        <DataTable
          caption="账号"
          columns={columns}
          page={page.data}
          rowKey={(row) => String(row.id)}
          defaultSort={{ key: "createdAt", dir: "desc" }}
          empty={<p>没有符合条件的账号。</p>}
        />
      ) : (
        <LoadFailed problem={page.problem} what="账号列表" />
      )}
    </Page>
  );
}
