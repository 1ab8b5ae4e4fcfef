/**
 * Scroll behaviour of spec §2 (reference §4): back/forward restores the saved position, a hash
 * scrolls to its element (the browser honours its scroll-margin-top), otherwise the view goes
 * to the top, unless the route opts out. Nested child pages (e.g. the personal centre) keep
 * the position unless one of them asks for the top.
 */
import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useMatches, useNavigationType } from "react-router-dom";
import type { RouteDef } from "../../shared/route-def";
import { defOf } from "../../shared/routes";

const STORAGE_KEY = "scroll-positions";
const MAX_SAVED = 50;

export function shouldScrollToTop(chain: RouteDef[]): boolean {
  if (chain.length <= 1) return chain[0]?.scrollToTop !== false;
  return chain.some((d) => d.scrollToTop === true);
}

function loadPositions(): Map<string, number> {
  try {
    return new Map(JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as Array<[string, number]>);
  } catch {
    return new Map();
  }
}

function savePositions(positions: Map<string, number>) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-MAX_SAVED)));
  } catch {
    // Storage full or disabled: positions are then kept for this page's lifetime only.
  }
}

function scrollToHash(hash: string): boolean {
  if (!hash || hash === "#") return false;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return false;
  }
  const el = document.getElementById(id);
  if (!el) return false;
  el.scrollIntoView();
  return true;
}

const useIsoLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const matches = useMatches();
  const positions = useRef<Map<string, number> | null>(null);
  const current = useRef<{ key: string; pathname: string } | null>(null);

  // Positions are recorded as the reader scrolls: by the time a navigation commits, the old
  // page is gone and the browser has already clamped the offset to the new page's height.
  useEffect(() => {
    positions.current ??= loadPositions();
    history.scrollRestoration = "manual";
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (current.current) positions.current?.set(current.current.key, window.scrollY);
      });
    };
    // A reload or a cross-document back lets the browser restore, as before.
    const onUnload = () => {
      if (positions.current) savePositions(positions.current);
      history.scrollRestoration = "auto";
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", onUnload);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", onUnload);
    };
  }, []);

  useIsoLayoutEffect(() => {
    positions.current ??= loadPositions();
    const store = positions.current;
    const prev = current.current;
    current.current = { key: location.key, pathname: location.pathname };
    if (!prev) {
      // First render: the browser (or a hash) decides.
      if (location.hash) scrollToHash(location.hash);
      return;
    }
    if (prev.key === location.key) return;
    if (navigationType === "POP") {
      const saved = store.get(location.key);
      if (saved !== undefined) {
        window.scrollTo(0, saved);
        return;
      }
    }
    if (location.hash && scrollToHash(location.hash)) return;
    if (prev.pathname === location.pathname && location.hash) return;
    const chain = matches.map((m) => defOf(m)).filter((d): d is RouteDef => Boolean(d));
    if (shouldScrollToTop(chain)) window.scrollTo(0, 0);
  }, [location.key]);

  return null;
}
