const SiteDrawerMenu = lazy(() => import("./SiteDrawerMenu"));

/**
 * The site header: brand, main navigation (active state), search, the mobile-site QR pop-up,
 * notices and the login button or user menu.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { GetForm } from "../routing/get-form";
import { Link } from "../routing/link";
import { useRootData } from "../lib/root-data";
import { LoginDialog, preloadLoginDialog } from "./LoginDialog";
import { LazyNoticesPopover } from "./LazyNoticesPopover";
import { SIGNED_IN_EVENT } from "./login/login-client";
import { QrPopover } from "./QrPopover";
import { SealLogo } from "./SealLogo";
import { SITE_DRAWER_ID } from "./site-drawer-id";
import { LogoutLink, MainNav, userLinks } from "./site-nav";

export function SiteHeader() {
  const { siteName, viewer, mobileSiteQrSvg, mobileSiteUrl } = useRootData();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [loginOpen, setLoginOpen] = useState(false);
  // Signed in from a dialog that still shows 完善资料: no 登录 / 注册 behind it until the page reloads.
  const [justSignedIn, setJustSignedIn] = useState(false);
  useEffect(() => {
    const signedIn = () => setJustSignedIn(true);
    window.addEventListener(SIGNED_IN_EVENT, signedIn);
    return () => window.removeEventListener(SIGNED_IN_EVENT, signedIn);
  }, []);
  const onSearchPage = location.pathname.startsWith("/search");
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer is mounted (and its code fetched) once the menu button is touched or focused.
  const [drawerWanted, setDrawerWanted] = useState(false);
  const wantDrawer = () => setDrawerWanted(true);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const openLogin = () => {
    setDrawerOpen(false);
    setLoginOpen(true);
  };

  // `/?login=1&redirect=…` (the auth guard's destination) opens the login dialog, on the panel
  // `panel=…` names (the messenger binding after a WeChat login: `panel=bind`).
  const loginPanel = searchParams.get("login") === "1" ? searchParams.get("panel") : null;
  useEffect(() => {
    if (searchParams.get("login") === "1" && !viewer) setLoginOpen(true);
  }, [searchParams, viewer]);

  return (
    <>
      <header className="site-header">
        <div className="container site-header__inner">
          <Link to="/" className="brand">
            <SealLogo />
            <span className="brand__name">{siteName}</span>
            <span className="visually-hidden">首页</span>
          </Link>
          <MainNav block="main-nav" />
          <GetForm action="/search" className="header-search" role="search">
            <input
              type="search"
              name="q"
              className="header-search__input"
              placeholder="搜索课程、书籍、文房"
              aria-label="搜索"
              maxLength={50}
              defaultValue={onSearchPage ? (searchParams.get("q") ?? "") : ""}
              key={onSearchPage ? location.search : "search"}
            />
            <button type="submit" className="header-search__button">
              搜索
            </button>
          </GetForm>
          <div className="site-header__tools">
            {mobileSiteQrSvg && mobileSiteUrl ? (
              <QrPopover label="手机版" svg={mobileSiteQrSvg} caption="扫码打开手机版" href={mobileSiteUrl} />
            ) : null}
            {viewer ? (
              <>
                <LazyNoticesPopover unread={viewer.unreadNotices} />
                <details className="user-menu">
                  <summary className="user-menu__summary">
                    {viewer.avatarUrl ? (
                      <img className="user-menu__avatar" src={viewer.avatarUrl} alt="" width={28} height={28} />
                    ) : (
                      // The initial is drawn by CSS: decoration, not part of the menu's text.
                      <span
                        className="user-menu__avatar user-menu__avatar--initial"
                        data-initial={viewer.nickname.slice(0, 1)}
                        aria-hidden="true"
                      />
                    )}
                    <span>{viewer.nickname}</span>
                  </summary>
                  <div className="user-menu__panel">
                    {userLinks(viewer).map((item) => (
                      <Link key={item.to} to={item.to}>
                        {item.label}
                      </Link>
                    ))}
                    <LogoutLink />
                  </div>
                </details>
              </>
            ) : justSignedIn ? (
              <span className="site-header__signed-in" role="status">
                已登录
              </span>
            ) : (
              <button
                type="button"
                className="button button--primary button--small"
                onPointerEnter={preloadLoginDialog}
                onFocus={preloadLoginDialog}
                onClick={openLogin}
              >
                登录 / 注册
              </button>
            )}
          </div>
          <button
            ref={menuButtonRef}
            type="button"
            className="menu-button"
            aria-label="菜单"
            aria-expanded={drawerOpen}
            aria-controls={drawerWanted ? SITE_DRAWER_ID : undefined}
            onPointerDown={wantDrawer}
            onFocus={wantDrawer}
            onClick={() => {
              wantDrawer();
              setDrawerOpen((open) => !open);
            }}
          >
            <span className="menu-button__bars" aria-hidden="true" />
          </button>
        </div>
        <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} initialPanel={loginPanel} />
      </header>
      {/* Outside the sticky header, so it layers above the page's floating actions. Its code comes
          with the first touch of the menu button, not with every page. */}
      {drawerWanted ? (
        <Suspense fallback={null}>
          <SiteDrawerMenu
            open={drawerOpen}
            onClose={closeDrawer}
            returnFocusTo={menuButtonRef}
            justSignedIn={justSignedIn}
            onLogin={openLogin}
          />
        </Suspense>
      ) : null}
    </>
  );
}
