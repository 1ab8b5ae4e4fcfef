/**
 * The operators' console under /admin (a route group of its own, loaded by the browser only
 * there; decision 048).
 */
import type { RouteDef } from "../route-def";

/** The operators' console; each section is a child of the admin layout (its navigation: client/features/admin/admin-nav.ts). */
const adminChildren: RouteDef[] = [
  { id: "admin.index", path: "", page: "admin/dashboard/Dashboard", title: "运营看板" },
  { id: "admin.audit", path: "audit", page: "admin/audit/AuditLog", title: "审计日志" },
  { id: "admin.orders", path: "orders", page: "admin/orders/Orders", title: "订单管理" },
  { id: "admin.orders.detail", path: "orders/detail", page: "admin/orders/OrderDetail", title: "订单详情" },
  { id: "admin.users", path: "users", page: "admin/users/Users", title: "学员与员工" },
  {
    id: "admin.users.detail",
    path: "users/:id",
    page: "admin/users/UserDetail",
    title: "账号详情",
    params: { id: "id" },
  },
  { id: "admin.courses", path: "courses", page: "admin/catalogue/Courses", title: "课程管理" },
  { id: "admin.courses.new", path: "courses/new", page: "admin/catalogue/CourseEdit", title: "新建课程" },
  {
    id: "admin.courses.edit",
    path: "courses/:id",
    page: "admin/catalogue/CourseEdit",
    title: "编辑课程",
    params: { id: "id" },
  },
  { id: "admin.books", path: "books", page: "admin/catalogue/Books", title: "图书管理" },
  { id: "admin.books.new", path: "books/new", page: "admin/catalogue/BookNew", title: "新建图书" },
  { id: "admin.books.edit", path: "books/:id", page: "admin/catalogue/BookEdit", title: "图书", params: { id: "id" } },
  { id: "admin.stationery", path: "stationery", page: "admin/catalogue/Stationery", title: "文房管理" },
  { id: "admin.stationery.new", path: "stationery/new", page: "admin/catalogue/StationeryNew", title: "新建文房" },
  {
    id: "admin.stationery.edit",
    path: "stationery/:id",
    page: "admin/catalogue/StationeryEdit",
    title: "文房",
    params: { id: "id" },
  },
  { id: "admin.live", path: "live", page: "admin/live/LiveList", title: "直播排期" },
  { id: "admin.live.new", path: "live/new", page: "admin/live/LiveEdit", title: "排一场直播" },
  { id: "admin.live.edit", path: "live/:id", page: "admin/live/LiveEdit", title: "直播管理", params: { id: "id" } },
  { id: "admin.mall", path: "mall", page: "admin/mall/Mall", title: "兑换商城" },
  { id: "admin.shipping", path: "shipping", page: "admin/shipping/Shipping", title: "兑换发货" },
  { id: "admin.coupons", path: "coupons", page: "admin/coupons/Coupons", title: "优惠券" },
  { id: "admin.campaigns", path: "campaigns", page: "admin/campaigns/Campaigns", title: "拼团活动" },
  { id: "admin.moderation", path: "moderation", page: "admin/moderation/Moderation", title: "内容审核" },
];

export const adminRoute: RouteDef = {
  id: "admin",
  path: "admin",
  page: "admin/AdminLayout",
  title: "运营后台",
  access: "operator",
  children: adminChildren,
};
