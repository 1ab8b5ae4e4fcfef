/**
 * What a pointer on the review canvas means, for a tablet held in the hand: a pen always draws;
 * one finger draws too until a pen has been used, after which a lone finger moves the photo (the
 * hand resting on the glass must not write); two fingers pan and zoom; a touch while the pen is
 * down, a third finger and a contact as wide as a palm are ignored. Pure, so it is tested alone.
 */

export type PointerKind = "mouse" | "pen" | "touch";

/** A contact wider than this (CSS px, the larger side the device reports) is a palm, not a finger. */
export const PALM_PX = 60;

export interface Contact {
  id: number;
  kind: PointerKind;
}

export interface RouterState {
  /** Pointers down now that the canvas follows, in the order they came. */
  down: readonly Contact[];
  /** A pen has touched the canvas in this review: lone fingers pan from then on. */
  penSeen: boolean;
}

export const START: RouterState = { down: [], penSeen: false };

/**
 * What a new pointer starts: `tool` (the current tool's gesture: draw, erase, place a grid…),
 * `pan`, `pinch` (with the finger already down: whatever it started is dropped), `ignore`.
 */
export type Start = "tool" | "pan" | "pinch" | "ignore";

export interface DownInfo {
  id: number;
  kind: string;
  /** The contact's size as the device reports it (1 × 1 when it does not). */
  width?: number;
  height?: number;
}

export function kindOf(pointerType: string): PointerKind {
  return pointerType === "pen" || pointerType === "touch" ? pointerType : "mouse";
}

/** Decides what a pointer going down means, and the state after it. */
export function pointerDown(state: RouterState, e: DownInfo): { state: RouterState; start: Start } {
  const kind = kindOf(e.kind);
  const contact: Contact = { id: e.id, kind };
  if (kind === "pen") {
    // The pen wins: fingers and a palm already on the glass are forgotten.
    return { state: { down: [contact], penSeen: true }, start: "tool" };
  }
  if (kind === "mouse") return { state: { ...state, down: [contact] }, start: "tool" };
  const palm = Math.max(e.width ?? 0, e.height ?? 0) > PALM_PX;
  const others = state.down;
  if (palm || others.some((c) => c.kind === "pen") || others.length >= 2) return { state, start: "ignore" };
  if (others.length === 1) {
    if (others[0]!.kind !== "touch") return { state, start: "ignore" };
    return { state: { ...state, down: [...others, contact] }, start: "pinch" };
  }
  return { state: { ...state, down: [contact] }, start: state.penSeen ? "pan" : "tool" };
}

/** Whether the canvas follows this pointer (it went down and was not ignored). */
export function follows(state: RouterState, id: number): boolean {
  return state.down.some((c) => c.id === id);
}

/** A pointer lifted or cancelled. */
export function pointerUp(state: RouterState, id: number): RouterState {
  return { ...state, down: state.down.filter((c) => c.id !== id) };
}

/**
 * The pressure a point of a stroke keeps: a pen's own (0–1) where it reports one; mouse, finger
 * and a pen that reports nothing get the neutral 0.5, and a stroke whose points all carry the
 * same pressure is drawn at the pen width chosen, its pressure simulated from the hand's speed
 * as before (drawing-geometry's penPath).
 */
export function pressureOf(pointerType: string, pressure: number): number {
  if (pointerType !== "pen" || !(pressure > 0)) return 0.5;
  return Math.min(1, pressure);
}
