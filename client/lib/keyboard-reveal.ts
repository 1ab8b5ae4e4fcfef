/**
 * The on-screen keyboard never hides the field being typed into. Phones shrink the visual
 * viewport when the keyboard opens (and, with `interactive-widget=resizes-content` in the viewport
 * meta, the layout viewport too); a field low on the page or in a dialog sheet can end up under
 * the keyboard. Once a text field gains focus, each resize of the visual viewport brings it back
 * into view if it is outside; without such a resize (the keyboard was already open) it is checked
 * once a moment later. Started once, at the document's root, on touch screens only
 * (client/lib/use-keyboard-reveal.ts).
 */

/** Inputs that open no keyboard. */
const NO_KEYBOARD = new Set([
  "button",
  "checkbox",
  "color",
  "file",
  "hidden",
  "image",
  "radio",
  "range",
  "reset",
  "submit",
]);

/** Whether focusing `el` brings up the on-screen keyboard (a text input, a textarea, a select). */
export function isTypingField(el: EventTarget | null): el is HTMLElement {
  if (!el || typeof (el as Element).matches !== "function") return false;
  const field = el as HTMLElement;
  if (field.matches("textarea, select")) return true;
  return field.matches("input") && !NO_KEYBOARD.has((field as HTMLInputElement).type);
}

/** The part of the layout viewport the visitor sees (the visual viewport, when the browser has one). */
function visibleBand(win: Window): { top: number; bottom: number } {
  const vv = win.visualViewport;
  if (!vv) return { top: 0, bottom: win.innerHeight };
  return { top: vv.offsetTop, bottom: vv.offsetTop + vv.height };
}

/** How long to wait for the keyboard's resize before checking the field anyway. */
export const REVEAL_FALLBACK_MS = 400;

/** Starts watching `win`; returns the function that stops it. */
export function revealFocusedFields(win: Window = window): () => void {
  const doc = win.document;
  let field: HTMLElement | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const reveal = () => {
    if (!field || doc.activeElement !== field || !field.isConnected) return;
    const rect = field.getBoundingClientRect();
    const band = visibleBand(win);
    if (rect.top >= band.top && rect.bottom <= band.bottom) return;
    field.scrollIntoView({ block: "center", inline: "nearest" });
  };
  const onFocusIn = (event: FocusEvent) => {
    if (!isTypingField(event.target)) return;
    field = event.target;
    clearTimeout(timer);
    timer = setTimeout(reveal, REVEAL_FALLBACK_MS);
  };
  const onResize = () => {
    clearTimeout(timer);
    reveal();
  };

  doc.addEventListener("focusin", onFocusIn);
  win.visualViewport?.addEventListener("resize", onResize);
  return () => {
    clearTimeout(timer);
    doc.removeEventListener("focusin", onFocusIn);
    win.visualViewport?.removeEventListener("resize", onResize);
  };
}
