/**
 * The personal centre: side menu of every child page beside the page itself. On tablets and
 * phones the menu is a row of tabs that scrolls sideways, brought round to the current page's tab.
 */
import { useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { NavLink } from "../../routing/link";
import "./my-layout.css";

export const myMenu = [
  { to: "/my", label: "个人中心", end: true },
  { to: "/my/allcourse", label: "我的课程" },
  { to: "/my/calendar", label: "学习日历" },
  { to: "/my/dairy", label: "练字日记" },
  { to: "/my/homework", label: "我的作业" },
  { to: "/my/activities", label: "我的活动" },
  { to: "/my/order", label: "我的订单" },
  { to: "/my/packs", label: "我的卡包" },
  { to: "/my/exchange", label: "兑换商城" },
  { to: "/my/exchange/record", label: "兑换记录" },
  { to: "/my/information", label: "个人资料" },
  { to: "/my/security", label: "账号与安全" },
] as const;

/** Scrolls a sideways row of tabs (and only it) so that its current tab is in view. */
function showCurrentTab(menu: HTMLElement | null) {
  const active = menu?.querySelector<HTMLElement>(".is-active");
  if (!menu || !active || menu.scrollWidth <= menu.clientWidth) return;
  const tab = active.getBoundingClientRect();
  const row = menu.getBoundingClientRect();
  menu.scrollLeft += tab.left + tab.width / 2 - (row.left + row.width / 2);
}

export default function MyLayoutPage() {
  const menu = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => showCurrentTab(menu.current), [pathname]);
  return (
    <div className="side-layout side-layout--my">
      <nav className="side-menu" aria-label="个人中心菜单" ref={menu}>
        {myMenu.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={"end" in item ? item.end : item.to === "/my/exchange"}
            className={({ isActive }) => `side-menu__link${isActive ? " is-active" : ""}`}
          >
            {item.label}
          </NavLink>
        ))}
      </nav>
      <div className="side-layout__content">
        <Outlet />
      </div>
    </div>
  );
}
