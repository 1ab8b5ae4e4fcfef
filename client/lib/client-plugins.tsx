/**
 * Browser-only route guards of DESIGN §3 that are side effects rather than redirects:
 * the developer-tools shortcut block (off unless configured), the mobile debug console
 * (loaded only when asked for), and the banner that points mobile visitors to the mobile site.
 */
import { useEffect, useState } from "react";
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

export function isMobileUserAgent(ua: string): boolean {
  return /Android|iPhone|iPod|Windows Phone|Mobile/i.test(ua) && !/iPad/i.test(ua);
}

function MobileBanner({ url }: { url: string }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    setOpen(isMobileUserAgent(navigator.userAgent) && sessionStorage.getItem("mobile-banner") !== "closed");
  }, []);
  if (!open) return null;
  return (
    <section className="mobile-banner" aria-label="移动版提示">
      <span>手机访问体验更好</span>
      <a className="button button--primary" href={url}>
        打开移动版
      </a>
      <button
        type="button"
        className="mobile-banner__close"
        aria-label="关闭"
        onClick={() => {
          sessionStorage.setItem("mobile-banner", "closed");
          setOpen(false);
        }}
      >
        ×
      </button>
    </section>
  );
}

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

  return root.mobileSiteUrl ? <MobileBanner url={root.mobileSiteUrl} /> : null;
}
