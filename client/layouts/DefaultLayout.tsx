import type { ReactNode } from "react";
import { Outlet } from "react-router-dom";
import { Breadcrumb } from "../components/Breadcrumb";
import { FloatingActions } from "../components/FloatingActions";
import { SiteFooter } from "../components/SiteFooter";
import { SiteHeader } from "../components/SiteHeader";
import { SkipLink } from "../components/SkipLink";

export function DefaultLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="layout layout--default">
      <SkipLink />
      <SiteHeader />
      <main className="layout__main" id="main" tabIndex={-1}>
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
