/**
 * The header's drawer with its content: the main navigation and the user menu (or 登录 / 注册).
 * Loaded with the first touch of the menu button (client/components/SiteHeader.tsx).
 */
import type { RefObject } from "react";
import { useRootData } from "../lib/root-data";
import { preloadLoginDialog } from "./LoginDialog";
import { SiteDrawer } from "./SiteDrawer";
import { Link } from "../routing/link";
import { LogoutLink, MainNav, userLinks } from "./site-nav";

export default function SiteDrawerMenu({
  open,
  onClose,
  returnFocusTo,
  justSignedIn,
  onLogin,
}: {
  open: boolean;
  onClose: () => void;
  returnFocusTo: RefObject<HTMLElement | null>;
  /** Signed in from a dialog that still shows 完善资料 (no 登录 / 注册 until the page reloads). */
  justSignedIn: boolean;
  onLogin: () => void;
}) {
  const { viewer } = useRootData();
  return (
    <SiteDrawer open={open} onClose={onClose} returnFocusTo={returnFocusTo}>
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
            onClick={onLogin}
          >
            登录 / 注册
          </button>
        )}
      </div>
    </SiteDrawer>
  );
}
