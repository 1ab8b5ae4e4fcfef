/**
 * The document root's hook for the on-screen keyboard (keyboard-reveal.ts): on touch screens, where
 * a keyboard slides over the page, its code is fetched after hydration and started; desktops never
 * load it.
 */
import { useEffect } from "react";

export function useRevealFocusedFields() {
  useEffect(() => {
    if (!window.matchMedia?.("(pointer: coarse)").matches) return;
    let stop: (() => void) | undefined;
    let unmounted = false;
    void import("./keyboard-reveal").then(({ revealFocusedFields }) => {
      if (!unmounted) stop = revealFocusedFields(window);
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);
}
