/**
 * Browser-only route guards of DESIGN §3 that are side effects rather than redirects:
 * the developer-tools shortcut block (off unless configured), the mobile debug console
 * (loaded only when asked for), and the banner that points mobile visitors to the mobile site.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { useRootData } from "./root-data";

/** Keys that open developer tools or the page source. */
export function isDevtoolsShortcut(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey">): boolean {
  const key = e.key.toUpperCase();
  if (key === "F12") return true;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.shiftKey && (key === "I" || key === "J" || key === "C")) return true;
  return mod && !e.shiftKey && key === "U";
}

export function wantsDebugConsole(search: string, cookie: string): boolean {
  return new URLSearchParams(search).get("debug") === "1" || /(?:^|;\s*)debug=1(?:;|$)/.test(cookie);
}

/** The session storage key a closed banner leaves (closed for the rest of the visit). */
export const MOBILE_BANNER_CLOSED = "mobile-banner";

export function isMobileUserAgent(ua: string): boolean {
  return /Android|iPhone|iPod|Windows Phone|Mobile/i.test(ua) && !/iPad/i.test(ua);
}

/** The banner's code loads only for a phone's visitor on a site with a mobile version. */
const MobileBanner = lazy(() => import("./MobileBanner"));

export function ClientPlugins() {
  const root = useRootData();

  // Marks the document as interactive (tests and monitoring wait for it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);

  useEffect(() => {
    if (!root.devtoolsBlock) return;
    const onKey = (e: KeyboardEvent) => {
      if (isDevtoolsShortcut(e)) e.preventDefault();
    };
    const onMenu = (e: MouseEvent) => e.preventDefault();
    window.addEventListener("keydown", onKey, true);
    window.addEventListener("contextmenu", onMenu);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      window.removeEventListener("contextmenu", onMenu);
    };
  }, [root.devtoolsBlock]);

  useEffect(() => {
    if (!wantsDebugConsole(window.location.search, document.cookie)) return;
    let instance: { destroy(): void } | undefined;
    let cancelled = false;
    import("vconsole").then(({ default: VConsole }) => {
      if (!cancelled) instance = new VConsole({ theme: "light" });
    });
    return () => {
      cancelled = true;
      instance?.destroy();
    };
  }, []);

  // Not on the server nor in the first render (the server cannot know the browser): after hydration.
  const [mobile, setMobile] = useState(false);
  useEffect(() => {
    if (!root.mobileSiteUrl) return;
    setMobile(isMobileUserAgent(navigator.userAgent) && sessionStorage.getItem(MOBILE_BANNER_CLOSED) !== "closed");
  }, [root.mobileSiteUrl]);

  return root.mobileSiteUrl && mobile ? (
    <Suspense fallback={null}>
      <MobileBanner
        url={root.mobileSiteUrl}
        onClose={() => {
          // Closed for the rest of the visit.
          sessionStorage.setItem(MOBILE_BANNER_CLOSED, "closed");
          setMobile(false);
        }}
      />
    </Suspense>
  ) : null;
}
