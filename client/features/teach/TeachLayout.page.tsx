/** The teaching area (teachers and operators): its own tabs over every page of it. */
import { Outlet } from "react-router-dom";
import { NavLink } from "../../routing/link";
import "./teach.css";

const teachMenu = [
  { to: "/teach", label: "概览", end: true },
  { to: "/teach/homework", label: "作业批改", end: false },
  { to: "/teach/courses", label: "我的课程", end: false },
  { to: "/teach/live", label: "我的直播", end: false },
] as const;

export default function TeachLayoutPage() {
  return (
    <div className="teach-layout">
      <nav className="teach-tabs" aria-label="教师工作台">
        <span className="teach-tabs__title">教师工作台</span>
        {teachMenu.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
            end={item.end}
            className={({ isActive }) => `teach-tabs__link${isActive ? " is-active" : ""}`}
          >
            {item.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
