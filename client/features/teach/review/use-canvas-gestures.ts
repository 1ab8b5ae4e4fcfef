/**
 * What a pointer does on the review canvas: draw, erase, pan, pinch, place or move a grid.
 * Pointer events cover mouse, pen (with its real pressure) and touch; which pointer counts is
 * decided by touch-input, the geometry by the pure modules in components/homework.
 */
import { type PointerEvent as ReactPointerEvent, type RefObject, useRef, useState } from "react";
import type { Grid, Mark } from "../../../../shared/contracts/homework";
import {
  circleFromDrag,
  clamp,
  hitGrid,
  hitMark,
  moveGrid,
  newGrid,
  panBy,
  pinch,
  type Point,
  scaleGridTo,
  thinPoints,
  tickFromDrag,
  toPhoto,
  type View,
  zoomAt,
} from "../../../components/homework/canvas-geometry";
import {
  checkpoint,
  commit,
  type EditorState,
  preview,
  settle,
  withGrid,
  withGridChanged,
  withMark,
  withoutMark,
} from "../../../components/homework/editor-state";
import type { CanvasProps } from "./canvas-props";
import type { Pen } from "./tools";
import { follows, pointerDown, pointerUp, pressureOf, type RouterState, START } from "./touch-input";

/** Eraser reach and grid handle size, in screen pixels. */
const ERASER_PX = 10;
export const HANDLE_PX = 14;
const MAX_POINTS = 4000;

export type Gesture =
  | { kind: "pen"; mark: Mark }
  | { kind: "shape"; shape: "circle" | "tick"; from: Point; to: Point }
  | { kind: "erase" }
  | { kind: "pan"; last: Point }
  | { kind: "grid"; index: number; part: "body" | "handle"; last: Point }
  | { kind: "pinch"; points: [Point, Point] };

/** The circle or tick a drag from one point to another draws. */
export function shapeMark(gesture: Extract<Gesture, { kind: "shape" }>, pen: Pen, aspect: number): Mark {
  const points =
    gesture.shape === "circle"
      ? circleFromDrag(gesture.from, gesture.to, aspect)
      : tickFromDrag(gesture.from, gesture.to, aspect);
  return { kind: gesture.shape, color: pen.color, width: pen.width, points };
}

/** A pen point in photo coordinates, a little past the edges at most. */
function penPoint(view: View, at: Point, e: { pointerType: string; pressure: number }): Mark["points"][number] {
  const [x, y] = toPhoto(view, at[0], at[1]);
  // Mouse and fingers report no real pressure: a neutral 0.5 lets the outline simulate it.
  return [clamp(x, -0.5, 1.5), clamp(y, -0.5, 1.5), pressureOf(e.pointerType, e.pressure)];
}

/** A pointer's place inside the canvas box, in screen pixels. */
function localPoint(el: HTMLElement, e: { clientX: number; clientY: number }): Point {
  const rect = el.getBoundingClientRect();
  return [e.clientX - rect.left, e.clientY - rect.top];
}

/** The editor with the mark under a point (within reach) previewed away, or unchanged if none is there. */
function erased(ed: EditorState, photoIndex: number, at: Point, aspect: number, reach: number): EditorState {
  const marks = ed.drawings[photoIndex]?.marks ?? [];
  const hit = hitMark(marks, at, aspect, reach);
  return hit < 0 ? ed : preview(ed, withoutMark(ed.drawings, photoIndex, hit));
}

/** What touch-input needs to know of a pointer that comes down. */
function contactOf(e: ReactPointerEvent) {
  return { id: e.pointerId, kind: e.pointerType, width: e.width, height: e.height };
}

/** The browser's batched events behind one pointer move, or the move itself. */
function coalesced(native: PointerEvent): PointerEvent[] {
  const events = typeof native.getCoalescedEvents === "function" ? native.getCoalescedEvents() : [];
  return events.length > 0 ? events : [native];
}

/** The editor once a gesture ends (a stroke thinned and committed, a shape committed, an erase or grid move settled), or null if nothing changes. */
function ended(
  gesture: Gesture,
  editor: EditorState,
  photoIndex: number,
  pen: Pen,
  aspect: number,
  perPixel: number,
): EditorState | null {
  if (gesture.kind === "pen") {
    const points = thinPoints(gesture.mark.points, aspect, 0.5 * perPixel);
    return commit(editor, withMark(editor.drawings, photoIndex, { ...gesture.mark, points }));
  }
  if (gesture.kind === "shape")
    return commit(editor, withMark(editor.drawings, photoIndex, shapeMark(gesture, pen, aspect)));
  if (gesture.kind === "erase" || gesture.kind === "grid") return settle(editor);
  return null;
}

export function useCanvasGestures(
  box: RefObject<HTMLDivElement | null>,
  view: View | null,
  setView: (view: View) => void,
  props: CanvasProps,
) {
  const { photo, photoIndex, editor, onEditor, tool, pen, onSelectGrid } = props;
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const pointers = useRef(new Map<number, Point>());
  const route = useRef<RouterState>(START);
  const aspect = photo.height / photo.width;
  const drawing = editor.drawings[photoIndex] ?? { photo: photoIndex, marks: [], grids: [] };

  const local = (e: { clientX: number; clientY: number }) => localPoint(box.current!, e);

  /** Width units per screen pixel at the current zoom. */
  const perPixel = view ? 1 / (view.baseWidth * view.zoom) : 0;

  const eraseAt = (ed: EditorState, at: Point) => erased(ed, photoIndex, at, aspect, ERASER_PX * perPixel);

  /** The current tool's gesture begins at a point (screen and photo coordinates). */
  function startTool(e: ReactPointerEvent, v: View, at: Point, rel: Point) {
    switch (tool) {
      case "pen":
        setGesture({
          kind: "pen",
          mark: { kind: "pen", color: pen.color, width: pen.width, points: [penPoint(v, at, e)] },
        });
        return;
      case "circle":
      case "tick":
        setGesture({ kind: "shape", shape: tool, from: rel, to: rel });
        return;
      case "eraser":
        onEditor(eraseAt(checkpoint(editor), rel));
        setGesture({ kind: "erase" });
        return;
      case "grid": {
        const hit = hitGrid(drawing.grids, rel, aspect, HANDLE_PX * perPixel);
        if (hit) {
          onSelectGrid(hit.index);
          onEditor(checkpoint(editor));
          setGesture({ kind: "grid", index: hit.index, part: hit.part, last: rel });
        } else {
          onEditor(
            commit(editor, withGrid(editor.drawings, photoIndex, newGrid(props.gridKind, rel, props.character))),
          );
          onSelectGrid(drawing.grids.length);
        }
        return;
      }
    }
  }

  function onPointerDown(e: ReactPointerEvent<HTMLDivElement>) {
    if (!view || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 1)) return;
    const routed = pointerDown(route.current, contactOf(e));
    // A palm, a touch while the pen is down, a third finger: no mark, no move.
    if (routed.start === "ignore") return;
    route.current = routed.state;
    e.currentTarget.setPointerCapture(e.pointerId);
    const at = local(e);
    // What the fingers were doing ends when the pen comes down.
    for (const id of pointers.current.keys()) if (!follows(routed.state, id)) pointers.current.delete(id);
    pointers.current.set(e.pointerId, at);
    if (gesture && (gesture.kind === "erase" || gesture.kind === "grid") && routed.start !== "tool") {
      onEditor(settle(editor));
    }
    if (routed.start === "pinch") {
      // A second finger: whatever the first one started becomes a pinch (a stroke just begun is dropped).
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      setGesture({ kind: "pinch", points: [a, b] });
      return;
    }
    if (routed.start === "pan" || props.panning || tool === "hand" || e.button === 1) {
      setGesture({ kind: "pan", last: at });
      return;
    }
    startTool(e, view, at, toPhoto(view, at[0], at[1]));
  }

  function onPointerMove(e: ReactPointerEvent<HTMLDivElement>) {
    if (!view || !follows(route.current, e.pointerId) || !pointers.current.has(e.pointerId)) return;
    const at = local(e);
    pointers.current.set(e.pointerId, at);
    if (!gesture) return;
    const rel = toPhoto(view, at[0], at[1]);
    switch (gesture.kind) {
      case "pinch": {
        const now = [...pointers.current.values()].slice(0, 2) as [Point, Point];
        if (now.length < 2) return;
        const p = pinch(gesture.points, now);
        setView(zoomAt(panBy(view, p.shift[0], p.shift[1]), p.factor, p.mid[0], p.mid[1]));
        setGesture({ kind: "pinch", points: now });
        return;
      }
      case "pan":
        setView(panBy(view, at[0] - gesture.last[0], at[1] - gesture.last[1]));
        setGesture({ kind: "pan", last: at });
        return;
      case "pen": {
        // Coalesced events keep a fast stroke smooth (browsers batch them per frame).
        const added = coalesced(e.nativeEvent).map((ev) => penPoint(view, local(ev), ev));
        const points = [...gesture.mark.points, ...added].slice(0, MAX_POINTS);
        setGesture({ kind: "pen", mark: { ...gesture.mark, points } });
        return;
      }
      case "shape":
        setGesture({ ...gesture, to: rel });
        return;
      case "erase":
        onEditor(eraseAt(editor, rel));
        return;
      case "grid": {
        const next =
          gesture.part === "handle"
            ? (g: Grid) => scaleGridTo(g, rel, aspect)
            : (g: Grid) => moveGrid(g, rel[0] - gesture.last[0], rel[1] - gesture.last[1]);
        onEditor(preview(editor, withGridChanged(editor.drawings, photoIndex, gesture.index, next)));
        setGesture({ ...gesture, last: rel });
        return;
      }
    }
  }

  function onPointerUp(e: ReactPointerEvent<HTMLDivElement>) {
    if (!follows(route.current, e.pointerId)) return;
    route.current = pointerUp(route.current, e.pointerId);
    pointers.current.delete(e.pointerId);
    if (!gesture) return;
    if (gesture.kind === "pinch") {
      if (pointers.current.size === 0) setGesture(null);
      return;
    }
    if (e.type === "pointercancel" && gesture.kind === "pen") {
      setGesture(null);
      return;
    }
    const next = ended(gesture, editor, photoIndex, pen, aspect, perPixel);
    if (next) onEditor(next);
    setGesture(null);
  }

  return { gesture, perPixel, onPointerDown, onPointerMove, onPointerUp };
}
