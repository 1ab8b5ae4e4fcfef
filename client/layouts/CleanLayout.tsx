import { Link, Outlet } from "react-router-dom";
import { useRootData } from "../lib/root-data";
import { SealLogo } from "../components/SealLogo";

export function CleanLayout() {
  const { siteName } = useRootData();
  return (
    <div className="layout layout--clean">
      <header className="clean-header">
        <div className="container clean-header__inner">
          <Link to="/" className="brand" aria-label={`${siteName}首页`}>
            <SealLogo />
            <span className="brand__name">{siteName}</span>
          </Link>
        </div>
      </header>
      <main className="layout__main" id="main">
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
