/**
 * Modal dialogs with the behaviour of vue-final-modal 2 (reference §8): a stack with z-index
 * 1000 + 2 × position, the overlay only under the top modal, the four transition states, plus
 * the accessibility the original lacked: Esc, focus trap and focus return, scroll lock.
 */
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { createPortal } from "react-dom";
import { MODAL_Z_BASE } from "../../shared/constants";

export type ModalPhase = "enter" | "entering" | "leave" | "leaving";
export type ModalEvent = "open" | "close" | "transitionEnd";

/** Slightly longer than the 0.2 s CSS fade, so the animation's own end event normally wins. */
export const MODAL_TRANSITION_FALLBACK_MS = 250;

export function modalTransition(phase: ModalPhase, event: ModalEvent): ModalPhase {
  switch (event) {
    case "open":
      return phase === "leave" || phase === "leaving" ? "entering" : phase;
    case "close":
      return phase === "enter" || phase === "entering" ? "leaving" : phase;
    case "transitionEnd":
      if (phase === "entering") return "enter";
      if (phase === "leaving") return "leave";
      return phase;
  }
}

export function modalZIndex(stackIndex: number): number {
  return MODAL_Z_BASE + 2 * stackIndex;
}

type Timers = Pick<typeof globalThis, "setTimeout" | "clearTimeout">;

/**
 * Calls `done` once, on the element's own transitionend/animationend (a child's bubbling
 * event does not count) or after `fallbackMs` when no animation runs. Returns a canceller.
 */
export function waitForTransition(
  el: EventTarget,
  done: () => void,
  fallbackMs: number = MODAL_TRANSITION_FALLBACK_MS,
  timers: Timers = globalThis,
): () => void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    cancel();
    done();
  };
  const onEnd = (event: Event) => {
    if (event.target === el) finish();
  };
  const timer = timers.setTimeout(finish, fallbackMs);
  el.addEventListener("transitionend", onEnd);
  el.addEventListener("animationend", onEnd);
  function cancel() {
    finished = true;
    timers.clearTimeout(timer);
    el.removeEventListener("transitionend", onEnd);
    el.removeEventListener("animationend", onEnd);
  }
  return cancel;
}

export interface ModalStackEntry {
  id: string;
  /** Fading out: it keeps its layer, but Esc and clicks go to the open modal below. */
  closing: boolean;
}

export class ModalStack {
  private entries: readonly ModalStackEntry[] = [];
  private readonly listeners = new Set<() => void>();

  getSnapshot = (): readonly ModalStackEntry[] => this.entries;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private set(entries: readonly ModalStackEntry[]) {
    this.entries = entries;
    for (const listener of this.listeners) listener();
  }

  add(id: string) {
    if (this.entries.some((e) => e.id === id)) return;
    this.set([...this.entries, { id, closing: false }]);
  }

  setClosing(id: string, closing: boolean) {
    if (!this.entries.some((e) => e.id === id && e.closing !== closing)) return;
    this.set(this.entries.map((e) => (e.id === id ? { id, closing } : e)));
  }

  remove(id: string) {
    if (!this.entries.some((e) => e.id === id)) return;
    this.set(this.entries.filter((e) => e.id !== id));
  }

  get size(): number {
    return this.entries.length;
  }
}

/** z-index of a modal from its place in the stack; one not yet in it goes on top. */
export function stackZIndex(entries: readonly ModalStackEntry[], id: string): number {
  const index = entries.findIndex((e) => e.id === id);
  return modalZIndex(index < 0 ? entries.length : index);
}

/** The modal Esc and outside clicks act on. */
export function topOpenModal(entries: readonly ModalStackEntry[]): string | undefined {
  return entries.findLast((e) => !e.closing)?.id;
}

/** The top modal shows the overlay; while it fades out, the open one below shows it too. */
export function showsOverlay(entries: readonly ModalStackEntry[], id: string): boolean {
  return entries.at(-1)?.id === id || topOpenModal(entries) === id;
}

export const modalStack = new ModalStack();

const FOCUSABLE =
  'a[href], area[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, audio[controls], video[controls], [contenteditable]:not([contenteditable="false"]), [tabindex]:not([tabindex="-1"])';

export function focusableIn(root: Element): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute("inert") && el.getAttribute("aria-hidden") !== "true",
  );
}

/**
 * Where Tab should go, or null to let the browser move on inside the dialog. `current` is the
 * index of the focused element among `count` focusables, -1 when the dialog itself has focus.
 */
export function trapFocusIndex(count: number, current: number, backwards: boolean): number | null {
  if (count === 0) return -1;
  if (backwards) return current <= 0 ? count - 1 : null;
  return current === -1 || current >= count - 1 ? 0 : null;
}

let scrollLocks = 0;
let savedBodyStyle: { overflow: string; paddingRight: string } | null = null;

/**
 * Hides the page scrollbar while any modal is open and pads the body by its width so the
 * page does not jump. Counted, so nested modals unlock only when the last one is gone.
 */
export function lockBodyScroll(doc: Document = document): () => void {
  const body = doc.body;
  const win = doc.defaultView;
  if (scrollLocks === 0 && win) {
    const gap = win.innerWidth - doc.documentElement.clientWidth;
    savedBodyStyle = { overflow: body.style.overflow, paddingRight: body.style.paddingRight };
    if (gap > 0) {
      const padding = Number.parseFloat(win.getComputedStyle(body).paddingRight) || 0;
      body.style.paddingRight = `${padding + gap}px`;
      doc.documentElement.style.setProperty("--scrollbar-gap", `${gap}px`);
    }
    body.style.overflow = "hidden";
  }
  scrollLocks++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    scrollLocks--;
    if (scrollLocks === 0 && savedBodyStyle) {
      body.style.overflow = savedBodyStyle.overflow;
      body.style.paddingRight = savedBodyStyle.paddingRight;
      doc.documentElement.style.removeProperty("--scrollbar-gap");
      savedBodyStyle = null;
    }
  };
}

/** Unless the user has since put focus somewhere else on the page. */
function giveFocusBack(previous: HTMLElement | null, root: HTMLElement | null) {
  const now = document.activeElement;
  const untouched = !now || now === document.body || !now.isConnected || root?.contains(now) === true;
  if (previous?.isConnected && untouched) previous.focus({ preventScroll: true });
}

const noopSubscribe = () => () => {};
const noEntries: readonly ModalStackEntry[] = [];
const useIsoLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** False on the server and while hydrating, so the portal never causes a mismatch. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}

export function useModalStack(): { count: number; topOpenId: string | undefined } {
  const entries = useSyncExternalStore(modalStack.subscribe, modalStack.getSnapshot, () => noEntries);
  return { count: entries.length, topOpenId: topOpenModal(entries) };
}

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  /** Id of a heading in the children, when there is no `title`. */
  labelledBy?: string;
  className?: string;
  children?: ReactNode;
}

export function Modal({ open, onClose, title, labelledBy, className, children }: ModalProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const inBrowser = useInBrowser();
  const [phase, setPhase] = useState<ModalPhase>(open ? "entering" : "leave");
  const [lastOpen, setLastOpen] = useState(open);
  if (open !== lastOpen) {
    setLastOpen(open);
    setPhase((p) => modalTransition(p, open ? "open" : "close"));
  }
  const mounted = inBrowser && phase !== "leave";
  const active = inBrowser && (phase === "entering" || phase === "enter");

  const stack = useSyncExternalStore(modalStack.subscribe, modalStack.getSnapshot, () => noEntries);
  const rootRef = useRef<HTMLDivElement | null>(null);
  const dialogRef = useRef<HTMLDivElement | null>(null);
  const onCloseRef = useRef(onClose);
  const pressedOutside = useRef(false);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useIsoLayoutEffect(() => {
    if (!mounted) return;
    modalStack.add(id);
    const unlock = lockBodyScroll();
    return () => {
      modalStack.remove(id);
      unlock();
    };
  }, [mounted, id]);

  useIsoLayoutEffect(() => {
    if (mounted) modalStack.setClosing(id, !active);
  }, [mounted, active, id]);

  // `mounted` too: a modal open at hydration has its element only after the first browser render.
  useEffect(() => {
    const el = rootRef.current;
    if (!el || (phase !== "entering" && phase !== "leaving")) return;
    return waitForTransition(el, () => setPhase((p) => modalTransition(p, "transitionEnd")));
  }, [phase, mounted]);

  // Listeners only while open: a modal fading out leaves Esc and focus to the one below.
  useIsoLayoutEffect(() => {
    if (!active) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || topOpenModal(modalStack.getSnapshot()) !== id) return;
      event.preventDefault();
      onCloseRef.current();
    };
    // Focus that escapes (screen-reader cursor, script) is brought back into the top dialog.
    const onFocusIn = (event: FocusEvent) => {
      const root = rootRef.current;
      if (topOpenModal(modalStack.getSnapshot()) !== id || !root || !(event.target instanceof Node)) return;
      if (!root.contains(event.target)) dialogRef.current?.focus({ preventScroll: true });
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [active, id]);

  // Focus in on open; back on close. Done in an effect body, not a cleanup: React restores the
  // focus it saw before a commit right after running cleanups, which would undo ours.
  useIsoLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (active && dialog) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const autofocus = dialog.querySelector<HTMLElement>("[autofocus]");
      (autofocus ?? dialog).focus({ preventScroll: true });
    } else {
      giveFocusBack(returnFocus.current, rootRef.current);
      returnFocus.current = null;
    }
  }, [active]);

  // Removed while open: this cleanup runs before the dialog leaves the DOM, so it still has focus.
  useIsoLayoutEffect(
    () => () => {
      giveFocusBack(returnFocus.current, rootRef.current);
      returnFocus.current = null;
    },
    [],
  );

  if (!mounted) return null;

  const onDialogKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const dialog = dialogRef.current;
    if (event.key !== "Tab" || !dialog) return;
    const focusables = focusableIn(dialog);
    const current = focusables.indexOf(document.activeElement as HTMLElement);
    const target = trapFocusIndex(focusables.length, current, event.shiftKey);
    if (target === null) return;
    event.preventDefault();
    (target === -1 ? dialog : focusables[target])?.focus();
  };

  // Both halves of the click outside the dialog: a drag that starts inside does not close.
  const onBackdropMouseDown = (event: MouseEvent<HTMLDivElement>) => {
    pressedOutside.current = event.target === event.currentTarget;
  };
  const onBackdropMouseUp = (event: MouseEvent<HTMLDivElement>) => {
    const outside = pressedOutside.current && event.target === event.currentTarget;
    pressedOutside.current = false;
    if (outside && topOpenModal(modalStack.getSnapshot()) === id) onCloseRef.current();
  };

  return createPortal(
    <div ref={rootRef} className="modal" data-state={phase} style={{ zIndex: stackZIndex(stack, id) }}>
      {showsOverlay(stack, id) && <div className="modal__overlay" aria-hidden="true" />}
      {/* A mouse shortcut; Esc and the close button do the same by keyboard. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div className="modal__container" onMouseDown={onBackdropMouseDown} onMouseUp={onBackdropMouseUp}>
        <div
          ref={dialogRef}
          className={className ? `modal__dialog ${className}` : "modal__dialog"}
          role="dialog"
          aria-modal="true"
          aria-labelledby={labelledBy ?? (title !== undefined ? titleId : undefined)}
          tabIndex={-1}
          onKeyDown={onDialogKeyDown}
        >
          <div className="modal__header">
            {title !== undefined && (
              <h2 id={titleId} className="modal__title">
                {title}
              </h2>
            )}
            <button type="button" className="modal__close" aria-label="关闭" onClick={() => onCloseRef.current()}>
              ×
            </button>
          </div>
          <div className="modal__body">{children}</div>
        </div>
      </div>
    </div>,
    document.body,
  );
}
