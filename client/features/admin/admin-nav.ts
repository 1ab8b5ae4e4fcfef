/** The operators' console sections, in the order of the side navigation (one entry per section). */
export interface AdminNavItem {
  to: string;
  label: string;
  /** Active only on the exact path (the dashboard). */
  end?: boolean;
}

export const adminNav: AdminNavItem[] = [
  { to: "/admin", label: "概览", end: true },
  { to: "/admin/orders", label: "订单" },
  { to: "/admin/users", label: "学员与员工" },
  { to: "/admin/courses", label: "课程" },
  { to: "/admin/books", label: "图书" },
  { to: "/admin/stationery", label: "文房" },
  { to: "/admin/live", label: "直播" },
  { to: "/admin/coupons", label: "优惠券" },
  { to: "/admin/campaigns", label: "拼团活动" },
  { to: "/admin/mall", label: "兑换商城" },
  { to: "/admin/shipping", label: "兑换发货" },
  { to: "/admin/moderation", label: "内容审核" },
  { to: "/admin/audit", label: "审计日志" },
];
