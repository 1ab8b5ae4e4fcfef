/**
 * The header's drawer on phones and tablets (below 1024 px): the main navigation and the user
 * menu slide in from the right. The server renders it closed (`visibility: hidden`, so it is
 * neither seen, focusable nor wider than the screen); open, it traps focus and closes on Escape,
 * on the backdrop, on its close button and on any navigation. Desktop never shows it.
 */
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { focusableIn, lockBodyScroll, trapFocusIndex } from "../lib/modal";
import { SITE_DRAWER_ID } from "./site-drawer-id";

/** The width from which the desktop header shows everything and the drawer is not used. */
export const DESKTOP_QUERY = "(min-width: 1024px)";

export function SiteDrawer({
  open,
  onClose,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The menu button: focus goes back to it when the drawer closes with focus inside. */
  returnFocusTo: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const location = useLocation();

  // Any navigation (a link in the drawer, back/forward, a search) closes it; mounting does not
  // (the header mounts the drawer when it is first opened).
  const place = location.pathname + location.search;
  const shownAt = useRef(place);
  useEffect(() => {
    if (shownAt.current === place) return;
    shownAt.current = place;
    onCloseRef.current();
  }, [place]);

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    const menuButton = returnFocusTo.current;
    const unlock = lockBodyScroll();
    panel?.focus({ preventScroll: true });
    // A link chosen in the drawer closes it at once, also when it leads to this very page.
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("a[href]")) onCloseRef.current();
    };
    panel?.addEventListener("click", onClick);
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented) onCloseRef.current();
    };
    // Grown to desktop width with the drawer open: the desktop header takes over.
    const wide = window.matchMedia?.(DESKTOP_QUERY);
    const onWide = () => {
      if (wide?.matches) onCloseRef.current();
    };
    document.addEventListener("keydown", onKeyDown);
    wide?.addEventListener("change", onWide);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      panel?.removeEventListener("click", onClick);
      wide?.removeEventListener("change", onWide);
      unlock();
      const active = document.activeElement;
      if (!active || active === document.body || panel?.contains(active)) {
        menuButton?.focus({ preventScroll: true });
      }
    };
  }, [open, returnFocusTo]);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Tab" || !panelRef.current) return;
    const items = focusableIn(panelRef.current);
    const next = trapFocusIndex(items.length, items.indexOf(document.activeElement as HTMLElement), event.shiftKey);
    if (next === null) return;
    event.preventDefault();
    if (next === -1) panelRef.current.focus();
    else items[next]?.focus();
  };

  return (
    <div id={SITE_DRAWER_ID} className={`site-drawer${open ? " is-open" : ""}`}>
      <div className="site-drawer__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={panelRef}
        className="site-drawer__panel"
        role="dialog"
        // Modal only while open: a closed drawer must not pause the page's keyboard shortcuts,
        // which wait while a modal dialog is open.
        aria-modal={open ? "true" : undefined}
        aria-label="菜单"
        tabIndex={-1}
        onKeyDown={onPanelKeyDown}
      >
        <div className="site-drawer__head">
          <span className="site-drawer__title">菜单</span>
          <button type="button" className="site-drawer__close" aria-label="关闭菜单" onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
