/**
 * The site's navigation, shared by the header (desktops) and its drawer (phones and tablets): the
 * main pages, the signed-in visitor's own pages and 退出.
 */
import { Link, NavLink } from "../routing/link";
import { logOut } from "./login/login-client";
import { mayOperate, mayTeach, type Viewer } from "../../shared/contracts/viewer";

export const mainNav = [
  { to: "/", label: "首页", end: true },
  { to: "/product/list", label: "课程" },
  { to: "/live", label: "直播" },
  { to: "/playback", label: "回放" },
  { to: "/books", label: "书籍" },
  { to: "/stationery", label: "文房" },
  { to: "/homework", label: "作业" },
] as const;

/** The signed-in visitor's own pages: the user menu on desktop, the drawer on phones. */
export function userLinks(viewer: Viewer): Array<{ to: string; label: string }> {
  return [
    { to: "/my", label: "个人中心" },
    { to: "/my/allcourse", label: "我的课程" },
    { to: "/my/order", label: "我的订单" },
    { to: "/my/homework", label: "我的作业" },
    { to: "/my/dairy", label: "练字日记" },
    ...(mayTeach(viewer) ? [{ to: "/teach", label: "教师工作台" }] : []),
    ...(mayOperate(viewer) ? [{ to: "/admin", label: "运营后台" }] : []),
  ];
}

/** 退出: logs out at once (a POST); without script the link asks on /my/logout. */
export function LogoutLink({ className }: { className?: string }) {
  return (
    <Link
      to="/my/logout"
      className={className}
      onClick={(event) => {
        event.preventDefault();
        logOut().catch(() => window.location.assign("/my/logout"));
      }}
    >
      退出
    </Link>
  );
}

/** The main navigation: in the header on desktops, in the drawer on phones and tablets. */
export function MainNav({ block }: { block: "main-nav" | "drawer-nav" }) {
  return (
    <nav className={block} aria-label="主导航">
      {mainNav.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={"end" in item ? item.end : false}
          className={({ isActive }) => `${block}__link${isActive ? " is-active" : ""}`}
        >
          {item.label}
        </NavLink>
      ))}
    </nav>
  );
}
