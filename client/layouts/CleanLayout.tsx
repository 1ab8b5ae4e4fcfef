import { Outlet } from "react-router-dom";
import { Link } from "../routing/link";
import { useRootData } from "../lib/root-data";
import { SealLogo } from "../components/SealLogo";
import { SkipLink } from "../components/SkipLink";

export function CleanLayout() {
  const { siteName } = useRootData();
  return (
    <div className="layout layout--clean">
      <SkipLink />
      <header className="clean-header">
        <div className="container clean-header__inner">
          <Link to="/" className="brand">
            <SealLogo />
            <span className="brand__name">{siteName}</span>
            <span className="visually-hidden">首页</span>
          </Link>
        </div>
      </header>
      <main className="layout__main" id="main" tabIndex={-1}>
        <div className="container container--narrow">
          <Outlet />
        </div>
      </main>
      <footer className="clean-footer">
        <div className="container">© {siteName}</div>
      </footer>
    </div>
  );
}
