/**
 * The review canvas: one photo, zoomable (wheel, buttons, pinch) and pannable (space or the
 * hand tool), with the teacher's marks and grids over it in the photo's own coordinates. Pointer
 * events cover mouse, pen (with its real pressure) and touch; what a gesture means is decided by
 * the pure modules in components/homework, this component only feeds them.
 */
import { type PointerEvent as ReactPointerEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Grid, HomeworkPhoto, Mark } from "../../../../shared/contracts/homework";
import {
  circleFromDrag,
  clamp,
  fitView,
  hitGrid,
  hitMark,
  moveGrid,
  newGrid,
  panBy,
  pinch,
  type Point,
  scaleGridBy,
  scaleGridTo,
  thinPoints,
  tickFromDrag,
  toPhoto,
  toScreen,
  type View,
  wheelFactor,
  zoomAt,
} from "../../../components/homework/canvas-geometry";
import { MarkShape } from "../../../components/homework/DrawingLayer";
import { penPath } from "../../../components/homework/drawing-geometry";
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
import { GridShape } from "../../../components/homework/GridShape";
import { ModelCharacter } from "../../../components/homework/ModelCharacter";
import { gridBox } from "../../../components/homework/grid-geometry";
import type { Pen, Tool } from "./tools";
import { follows, pointerDown, pointerUp, pressureOf, type RouterState, START } from "./touch-input";

/** Eraser reach and grid handle size, in screen pixels. */
const ERASER_PX = 10;
const HANDLE_PX = 14;
const MAX_POINTS = 4000;

type Gesture =
  | { kind: "pen"; mark: Mark }
  | { kind: "shape"; shape: "circle" | "tick"; from: Point; to: Point }
  | { kind: "erase" }
  | { kind: "pan"; last: Point }
  | { kind: "grid"; index: number; part: "body" | "handle"; last: Point }
  | { kind: "pinch"; points: [Point, Point] };

export interface CanvasProps {
  photo: HomeworkPhoto;
  photoIndex: number;
  alt: string;
  editor: EditorState;
  onEditor: (next: EditorState) => void;
  tool: Tool;
  pen: Pen;
  gridKind: Grid["kind"];
  character: string;
  selectedGrid: number | null;
  onSelectGrid: (index: number | null) => void;
  /** Space held: drag pans whatever the tool. */
  panning: boolean;
  /** Zoom requests from the toolbar: a counter and a factor (1 = fit). */
  zoomRequest: { n: number; factor: number };
  onZoom: (zoom: number) => void;
}

export function ReviewCanvas(props: CanvasProps) {
  const { photo, photoIndex, editor, onEditor, tool, pen, selectedGrid, onSelectGrid } = props;
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View | null>(null);
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const pointers = useRef(new Map<number, Point>());
  const route = useRef<RouterState>(START);
  const aspect = photo.height / photo.width;
  const drawing = editor.drawings[photoIndex] ?? { photo: photoIndex, marks: [], grids: [] };
  // The latest values for native listeners and gesture steps between renders.
  const live = useRef({ view, editor, props });
  live.current = { view, editor, props };

  // Fit the photo when it changes and when the viewport is resized.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const fit = () => setView(fitView(el.clientWidth, el.clientHeight, photo.width, photo.height));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [photo.width, photo.height, photo.id]);

  useEffect(() => {
    if (view) props.onZoom(view.zoom);
  }, [view?.zoom]); // eslint-disable-line react-hooks/exhaustive-deps -- report zoom changes only

  // Toolbar zoom: around the viewport's centre; factor 1 fits again.
  useEffect(() => {
    const el = box.current;
    if (!el || props.zoomRequest.n === 0) return;
    setView((v) => {
      if (!v) return v;
      if (props.zoomRequest.factor === 1) return fitView(el.clientWidth, el.clientHeight, photo.width, photo.height);
      return zoomAt(v, props.zoomRequest.factor, el.clientWidth / 2, el.clientHeight / 2);
    });
  }, [props.zoomRequest, photo.width, photo.height]);

  // The wheel zooms (or scales the grid under the pointer with the grid tool); passive: false to keep the page still.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { view: v, editor: ed, props: p } = live.current;
      if (!v) return;
      const rect = el.getBoundingClientRect();
      const sx = e.clientX - rect.left;
      const sy = e.clientY - rect.top;
      const factor = wheelFactor(e.deltaY, e.deltaMode);
      if (p.tool === "grid") {
        const grids = ed.drawings[p.photoIndex]?.grids ?? [];
        const hit = hitGrid(grids, toPhoto(v, sx, sy), p.photo.height / p.photo.width, 0);
        if (hit) {
          p.onSelectGrid(hit.index);
          p.onEditor(
            commit(
              ed,
              withGridChanged(ed.drawings, p.photoIndex, hit.index, (g) => scaleGridBy(g, factor)),
            ),
          );
          return;
        }
      }
      setView(zoomAt(v, factor, sx, sy));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, []);

  const local = (e: { clientX: number; clientY: number }): Point => {
    const rect = box.current!.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  };

  /** Width units per screen pixel at the current zoom. */
  const perPixel = view ? 1 / (view.baseWidth * view.zoom) : 0;

  function eraseAt(ed: EditorState, at: Point): EditorState {
    const marks = ed.drawings[photoIndex]?.marks ?? [];
    const hit = hitMark(marks, at, aspect, ERASER_PX * perPixel);
    return hit < 0 ? ed : preview(ed, withoutMark(ed.drawings, photoIndex, hit));
  }

  function pointOf(e: ReactPointerEvent, at: Point): Mark["points"][number] {
    const [x, y] = toPhoto(view!, at[0], at[1]);
    // Mouse and fingers report no real pressure: a neutral 0.5 lets the outline simulate it.
    return [clamp(x, -0.5, 1.5), clamp(y, -0.5, 1.5), pressureOf(e.pointerType, e.pressure)];
  }

  function onPointerDown(e: ReactPointerEvent<HTMLDivElement>) {
    if (!view || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 1)) return;
    const routed = pointerDown(route.current, {
      id: e.pointerId,
      kind: e.pointerType,
      width: e.width,
      height: e.height,
    });
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
    const rel = toPhoto(view, at[0], at[1]);
    if (routed.start === "pan" || props.panning || tool === "hand" || e.button === 1) {
      setGesture({ kind: "pan", last: at });
      return;
    }
    switch (tool) {
      case "pen":
        setGesture({
          kind: "pen",
          mark: { kind: "pen", color: pen.color, width: pen.width, points: [pointOf(e, at)] },
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
        const native = e.nativeEvent;
        const events = typeof native.getCoalescedEvents === "function" ? native.getCoalescedEvents() : [];
        const added = (events.length > 0 ? events : [native]).map((ev) => {
          const p = local(ev);
          const [x, y] = toPhoto(view, p[0], p[1]);
          return [clamp(x, -0.5, 1.5), clamp(y, -0.5, 1.5), pressureOf(ev.pointerType, ev.pressure)] as [
            number,
            number,
            number,
          ];
        });
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
    if (gesture.kind === "pen") {
      const points = thinPoints(gesture.mark.points, aspect, 0.5 * perPixel);
      onEditor(commit(editor, withMark(editor.drawings, photoIndex, { ...gesture.mark, points })));
    } else if (gesture.kind === "shape") {
      const points =
        gesture.shape === "circle"
          ? circleFromDrag(gesture.from, gesture.to, aspect)
          : tickFromDrag(gesture.from, gesture.to, aspect);
      onEditor(
        commit(
          editor,
          withMark(editor.drawings, photoIndex, { kind: gesture.shape, color: pen.color, width: pen.width, points }),
        ),
      );
    } else if (gesture.kind === "erase" || gesture.kind === "grid") {
      onEditor(settle(editor));
    }
    setGesture(null);
  }

  const size = { width: photo.width, height: photo.height };
  const draft: Mark | null =
    gesture?.kind === "pen"
      ? gesture.mark
      : gesture?.kind === "shape"
        ? {
            kind: gesture.shape,
            color: pen.color,
            width: pen.width,
            points:
              gesture.shape === "circle"
                ? circleFromDrag(gesture.from, gesture.to, aspect)
                : tickFromDrag(gesture.from, gesture.to, aspect),
          }
        : null;
  const cursor =
    props.panning || tool === "hand"
      ? gesture?.kind === "pan"
        ? "grabbing"
        : "grab"
      : tool === "grid"
        ? "default"
        : "crosshair";

  return (
    <div
      ref={box}
      className={`review-canvas review-canvas--${tool}`}
      style={{ cursor }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onContextMenu={(e) => e.preventDefault()}
      data-testid="review-canvas"
    >
      {view ? (
        <div
          className="review-canvas__stage"
          style={{ left: view.x, top: view.y, width: view.baseWidth * view.zoom, height: view.baseHeight * view.zoom }}
        >
          <img src={photo.url} alt={props.alt} draggable={false} />
          <svg
            className="review-canvas__layer"
            viewBox={`0 0 ${photo.width} ${photo.height}`}
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            {drawing.grids.map((grid, i) => {
              const b = gridBox(grid, size);
              return (
                <g key={`g${i}`} className={i === selectedGrid ? "review-grid is-selected" : "review-grid"}>
                  <GridShape kind={grid.kind} box={b} />
                  {tool === "grid" && i === selectedGrid ? (
                    <rect
                      className="review-grid__handle"
                      x={b.left + b.size - (HANDLE_PX / 2) * perPixel * photo.width}
                      y={b.top + b.size - (HANDLE_PX / 2) * perPixel * photo.width}
                      width={HANDLE_PX * perPixel * photo.width}
                      height={HANDLE_PX * perPixel * photo.width}
                    />
                  ) : null}
                </g>
              );
            })}
            {drawing.marks.map((mark, i) => (
              <MarkShape key={i} mark={mark} photo={size} />
            ))}
            {draft?.kind === "pen" ? <path d={penPath(draft, size, false)} fill={draft.color} /> : null}
            {draft && draft.kind !== "pen" ? <MarkShape mark={draft} photo={size} /> : null}
          </svg>
          {drawing.grids.map((grid, i) => {
            if (!grid.character) return null;
            const scale = view.baseWidth * view.zoom;
            const [, top] = toScreen({ ...view, x: 0, y: 0 }, 0, grid.y);
            return (
              // Beside the learner's character, at the same scale, to the right of its grid.
              <span
                key={`m${i}`}
                className="review-model"
                style={{ left: (grid.x + grid.size / 2) * scale + 8, top: top - (grid.size * scale) / 2 }}
              >
                <ModelCharacter character={grid.character} kind={grid.kind} size={grid.size * scale} />
              </span>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}
