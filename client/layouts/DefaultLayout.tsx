import type { ReactNode } from "react";
import { Outlet } from "react-router-dom";
import { Breadcrumb } from "../components/Breadcrumb";
import { FloatingActions } from "../components/FloatingActions";
import { SiteFooter } from "../components/SiteFooter";
import { SiteHeader } from "../components/SiteHeader";

export function DefaultLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="layout layout--default">
      <SiteHeader />
      <main className="layout__main" id="main">
        <div className="container">
          <Breadcrumb />
          {children ?? <Outlet />}
        </div>
      </main>
      <SiteFooter />
      <FloatingActions />
    </div>
  );
}
