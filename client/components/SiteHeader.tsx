/**
 * The site header: brand, main navigation (active state), search, the mobile-site QR pop-up,
 * notices and the login button or user menu.
 */
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { GetForm } from "../routing/get-form";
import { Link, NavLink } from "../routing/link";
import { useRootData } from "../lib/root-data";
import { LoginDialog, preloadLoginDialog } from "./LoginDialog";
import { LazyNoticesPopover } from "./LazyNoticesPopover";
import { logOut, SIGNED_IN_EVENT } from "./login/login-client";
import { QrPopover } from "./QrPopover";
import { SealLogo } from "./SealLogo";
import { SITE_DRAWER_ID, SiteDrawer } from "./SiteDrawer";
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
function LogoutLink({ className }: { className?: string }) {
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
            aria-controls={SITE_DRAWER_ID}
            onClick={() => setDrawerOpen((open) => !open)}
          >
            <span className="menu-button__bars" aria-hidden="true" />
          </button>
        </div>
        <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} initialPanel={loginPanel} />
      </header>
      {/* Outside the sticky header, so it layers above the page's floating actions. */}
      <SiteDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} returnFocusTo={menuButtonRef}>
        <MainNav block="drawer-nav" />
        <div className="drawer-user">
          {viewer ? (
            <>
              <p className="drawer-user__name">{viewer.nickname}</p>
              <nav className="drawer-user__links" aria-label="我的">
                {userLinks(viewer).map((item) => (
                  <Link key={item.to} to={item.to} className="drawer-user__link">
                    {item.label}
                  </Link>
                ))}
                <LogoutLink className="drawer-user__link" />
              </nav>
            </>
          ) : justSignedIn ? (
            <p className="drawer-user__name">已登录</p>
          ) : (
            <button
              type="button"
              className="button button--primary drawer-user__login"
              onPointerEnter={preloadLoginDialog}
              onFocus={preloadLoginDialog}
              onClick={openLogin}
            >
              登录 / 注册
            </button>
          )}
        </div>
      </SiteDrawer>
    </>
  );
}

/** The main navigation: in the header on desktops, in the drawer on phones and tablets. */
function MainNav({ block }: { block: "main-nav" | "drawer-nav" }) {
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
