/**
 * The operators' console (/admin): side navigation over every section, the section beside it.
 * Guarded actions of every section ask for a step-up here (components/step-up).
 */
import { Outlet } from "react-router-dom";
import { StepUpProvider } from "../../components/step-up/StepUp";
import { NavLink } from "../../routing/link";
import { adminNav } from "./admin-nav";
import "./admin.css";

export default function AdminLayoutPage() {
  return (
    <div className="admin-layout">
      <nav className="admin-nav" aria-label="运营后台">
        <p className="admin-nav__title">运营后台</p>
        <ul>
          {adminNav.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end ?? false}
                className={({ isActive }) => `admin-nav__link${isActive ? " is-active" : ""}`}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-main">
        <StepUpProvider>
          <Outlet />
        </StepUpProvider>
      </div>
    </div>
  );
}
