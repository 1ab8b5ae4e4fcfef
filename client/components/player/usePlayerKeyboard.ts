/**
 * The player's keys: space plays and pauses, ←/→ jump 5 s, Esc closes the speed menu. They work
 * inside the player and when nothing in particular has the focus (the page itself), and leave
 * alone the keys that a focused control or text field needs for itself.
 */
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useRef } from "react";

export const SEEK_STEP = 5;

export interface KeyboardActions {
  toggle: () => void;
  /** Moves the position by this many seconds (negative: back). */
  seekBy: (seconds: number) => void;
  menuOpen: boolean;
  closeMenu: () => void;
}

export function usePlayerKeyboard(actions: KeyboardActions) {
  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement> | KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    const tag = target.tagName;
    if (event.key === " ") {
      // A focused button or link does its own thing with the space bar.
      if (tag === "BUTTON" || tag === "A" || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      event.preventDefault();
      actions.toggle();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && (target as HTMLInputElement).type !== "range"))
        return;
      event.preventDefault();
      actions.seekBy(event.key === "ArrowLeft" ? -SEEK_STEP : SEEK_STEP);
    } else if (event.key === "Escape" && actions.menuOpen) {
      actions.closeMenu();
    }
  };

  // The same keys when nothing in particular has the focus (the page itself).
  const keyRef = useRef(onKeyDown);
  keyRef.current = onKeyDown;
  useEffect(() => {
    const onDocumentKey = (event: KeyboardEvent) => {
      if (event.target === document.body) keyRef.current(event);
    };
    document.addEventListener("keydown", onDocumentKey);
    return () => document.removeEventListener("keydown", onDocumentKey);
  }, []);

  return onKeyDown;
}
