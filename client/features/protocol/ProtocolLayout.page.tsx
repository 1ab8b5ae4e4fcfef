/** Agreements and help: side menu beside the page. */
import { Outlet } from "react-router-dom";
import { NavLink } from "../../routing/link";

const protocolMenu = [
  { to: "/protocol/service", label: "服务协议" },
  { to: "/protocol/privacy", label: "隐私政策" },
  { to: "/protocol/contact", label: "联系我们" },
  { to: "/protocol/feedback", label: "意见反馈" },
] as const;

export default function ProtocolLayoutPage() {
  return (
    <div className="side-layout">
      <nav className="side-menu" aria-label="协议与帮助">
        {protocolMenu.map((item) => (
          <NavLink
            key={item.to}
            to={item.to}
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
