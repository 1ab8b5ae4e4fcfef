/**
 * Geometry of the review canvas, free of React and the DOM: the view (zoom and pan) between
 * screen pixels and the photo's relative space (0–1 across the width, 0–1 down the height, as
 * the homework contract stores drawings), hit-testing for the eraser and the grid, and the
 * shapes of circle and tick marks as the teacher draws them (`drawing-geometry.ts` draws them).
 *
 * Distances are measured in "width units" (fractions of the photo's width on both axes), so a
 * circle stays round and an eraser touch is as wide across as down on a tall photo.
 */
import type { Grid, Mark } from "../../../shared/contracts/homework";

export type Point = readonly [number, number];

/** How the photo sits in the viewport: its fitted size at zoom 1, the zoom, and its top-left corner. */
export interface View {
  /** The photo's width and height in screen pixels at zoom 1 (fitted into the viewport). */
  baseWidth: number;
  baseHeight: number;
  zoom: number;
  /** The photo's top-left corner in viewport pixels. */
  x: number;
  y: number;
}

export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 8;

/** The photo fitted into the viewport with a margin, centred, at zoom 1. */
export function fitView(
  viewportWidth: number,
  viewportHeight: number,
  photoWidth: number,
  photoHeight: number,
  margin = 16,
): View {
  const availW = Math.max(1, viewportWidth - margin * 2);
  const availH = Math.max(1, viewportHeight - margin * 2);
  const scale = Math.min(availW / photoWidth, availH / photoHeight);
  const baseWidth = photoWidth * scale;
  const baseHeight = photoHeight * scale;
  return {
    baseWidth,
    baseHeight,
    zoom: 1,
    x: (viewportWidth - baseWidth) / 2,
    y: (viewportHeight - baseHeight) / 2,
  };
}

/** Viewport pixels → relative photo coordinates. */
export function toPhoto(view: View, sx: number, sy: number): Point {
  return [(sx - view.x) / (view.baseWidth * view.zoom), (sy - view.y) / (view.baseHeight * view.zoom)];
}

/** Relative photo coordinates → viewport pixels. */
export function toScreen(view: View, px: number, py: number): Point {
  return [view.x + px * view.baseWidth * view.zoom, view.y + py * view.baseHeight * view.zoom];
}

/** Zoom by `factor` keeping the photo point under (sx, sy) where it is. */
export function zoomAt(view: View, factor: number, sx: number, sy: number): View {
  const zoom = clamp(view.zoom * factor, MIN_ZOOM, MAX_ZOOM);
  const [px, py] = toPhoto(view, sx, sy);
  return {
    ...view,
    zoom,
    x: sx - px * view.baseWidth * zoom,
    y: sy - py * view.baseHeight * zoom,
  };
}

export function panBy(view: View, dx: number, dy: number): View {
  return { ...view, x: view.x + dx, y: view.y + dy };
}

/** The zoom factor of a wheel event (a notch of about 100 px is 1.2×; trackpad pinches send small deltas). */
export function wheelFactor(deltaY: number, deltaMode = 0): number {
  const px = deltaMode === 1 ? deltaY * 16 : deltaY;
  return Math.exp(-clamp(px, -300, 300) * 0.0018);
}

/** Two-finger pinch: the zoom factor and the midpoint between the fingers. */
export function pinch(
  before: readonly [Point, Point],
  after: readonly [Point, Point],
): { factor: number; mid: Point; shift: Point } {
  const d0 = Math.hypot(before[0][0] - before[1][0], before[0][1] - before[1][1]);
  const d1 = Math.hypot(after[0][0] - after[1][0], after[0][1] - after[1][1]);
  const m0: Point = [(before[0][0] + before[1][0]) / 2, (before[0][1] + before[1][1]) / 2];
  const mid: Point = [(after[0][0] + after[1][0]) / 2, (after[0][1] + after[1][1]) / 2];
  return { factor: d0 > 0 ? d1 / d0 : 1, mid, shift: [mid[0] - m0[0], mid[1] - m0[1]] };
}

export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

// ---- Marks ----

/** A circle is stored as its bounding box's two corners; here, as points along its outline. */
export function ellipseOutline(mark: Pick<Mark, "points">, aspect: number, steps = 48): Point[] {
  const [a, b] = boxOf(mark.points);
  const cx = (a[0] + b[0]) / 2;
  const cy = (a[1] + b[1]) / 2;
  const rx = Math.abs(b[0] - a[0]) / 2;
  const ry = Math.abs(b[1] - a[1]) / 2;
  const out: Point[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = (i / steps) * Math.PI * 2;
    out.push([cx + rx * Math.cos(t), (cy + ry * Math.sin(t)) * aspect]);
  }
  return out;
}

function boxOf(points: Mark["points"]): [Point, Point] {
  const first = points[0] ?? [0, 0, 0];
  const last = points[points.length - 1] ?? first;
  return [
    [first[0], first[1]],
    [last[0], last[1]],
  ];
}

/** Smallest circle or tick a click makes, as a fraction of the photo's width. */
export const DEFAULT_MARK_SIZE = 0.05;

/**
 * A circle from a drag between two relative points; a click (or a tiny drag) makes a circle of
 * the default size centred there. Corners are kept in the order given.
 */
export function circleFromDrag(from: Point, to: Point, aspect: number): Mark["points"] {
  const wide = Math.abs(to[0] - from[0]);
  const tall = Math.abs(to[1] - from[1]) * aspect;
  if (Math.max(wide, tall) < DEFAULT_MARK_SIZE / 4) {
    const r = DEFAULT_MARK_SIZE / 2;
    return [
      [from[0] - r, from[1] - r / aspect, 0.5],
      [from[0] + r, from[1] + r / aspect, 0.5],
    ];
  }
  return [
    [from[0], from[1], 0.5],
    [to[0], to[1], 0.5],
  ];
}

/**
 * A tick (✓) in the box of a drag: down from the left third to the bottom, then up to the
 * top right. A click makes a tick of the default size ending at the clicked point's right.
 */
export function tickFromDrag(from: Point, to: Point, aspect: number): Mark["points"] {
  let left = Math.min(from[0], to[0]);
  let right = Math.max(from[0], to[0]);
  let top = Math.min(from[1], to[1]);
  let bottom = Math.max(from[1], to[1]);
  if (Math.max(right - left, (bottom - top) * aspect) < DEFAULT_MARK_SIZE / 4) {
    const s = DEFAULT_MARK_SIZE;
    left = from[0] - s / 2;
    right = from[0] + s / 2;
    top = from[1] - s / 2 / aspect;
    bottom = from[1] + s / 2 / aspect;
  }
  const h = bottom - top;
  return [
    [left, top + h * 0.55, 0.5],
    [left + (right - left) * 0.38, bottom, 0.5],
    [right, top, 0.5],
  ];
}

/** The polyline a mark's outline follows, in width units (y multiplied by the photo's aspect). */
export function markPolyline(mark: Mark, aspect: number): Point[] {
  if (mark.kind === "circle") return ellipseOutline(mark, aspect);
  return mark.points.map(([x, y]) => [x, y * aspect] as const);
}

/** Distance from p to the segment ab. */
export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : clamp(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2, 0, 1);
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Distance from p (width units) to a polyline (width units); a single point is a dot. */
export function distanceToPolyline(p: Point, line: readonly Point[]): number {
  const first = line[0];
  if (!first) return Infinity;
  if (line.length === 1) return Math.hypot(p[0] - first[0], p[1] - first[1]);
  let best = Infinity;
  for (let i = 1; i < line.length; i++) best = Math.min(best, distanceToSegment(p, line[i - 1]!, line[i]!));
  return best;
}

/**
 * The topmost mark the eraser touches at relative point `at`, or -1. `radius` is the eraser's
 * reach in width units; a mark is touched where its line (with half its width) comes that close.
 */
export function hitMark(marks: readonly Mark[], at: Point, aspect: number, radius: number): number {
  const p: Point = [at[0], at[1] * aspect];
  for (let i = marks.length - 1; i >= 0; i--) {
    const mark = marks[i]!;
    if (distanceToPolyline(p, markPolyline(mark, aspect)) <= radius + mark.width / 2) return i;
  }
  return -1;
}

/** Drop points closer than `minStep` (width units) to the last one kept: fewer points, same line. */
export function thinPoints(points: Mark["points"], aspect: number, minStep: number): Mark["points"] {
  const out: Array<Mark["points"][number]> = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || Math.hypot(p[0] - last[0], (p[1] - last[1]) * aspect) >= minStep) out.push(p);
  }
  const end = points[points.length - 1];
  if (end && out[out.length - 1] !== end) out.push(end);
  return out;
}

// ---- Grids ----

/** A grid's square in relative coordinates (its side is a fraction of the width; y scaled back by the aspect). */
export function gridBounds(grid: Grid, aspect: number): { left: number; top: number; right: number; bottom: number } {
  const half = grid.size / 2;
  return { left: grid.x - half, right: grid.x + half, top: grid.y - half / aspect, bottom: grid.y + half / aspect };
}

export type GridHit = { index: number; part: "body" | "handle" } | null;

/**
 * What of the grids lies under relative point `at`: the scale handle (bottom-right corner,
 * within `handleRadius` width units) or the square itself; the topmost grid wins.
 */
export function hitGrid(grids: readonly Grid[], at: Point, aspect: number, handleRadius: number): GridHit {
  for (let i = grids.length - 1; i >= 0; i--) {
    const box = gridBounds(grids[i]!, aspect);
    if (Math.hypot(at[0] - box.right, (at[1] - box.bottom) * aspect) <= handleRadius)
      return { index: i, part: "handle" };
    if (at[0] >= box.left && at[0] <= box.right && at[1] >= box.top && at[1] <= box.bottom)
      return { index: i, part: "body" };
  }
  return null;
}

export const GRID_MIN_SIZE = 0.04;
export const GRID_MAX_SIZE = 1.2;
export const GRID_DEFAULT_SIZE = 0.25;

/** A new grid centred on the clicked point (kept on the photo). */
export function newGrid(kind: Grid["kind"], at: Point, character: string, size = GRID_DEFAULT_SIZE): Grid {
  return { kind, x: clamp(at[0], 0, 1), y: clamp(at[1], 0, 1), size, character };
}

/** The grid moved by a relative offset, its centre kept on the photo. */
export function moveGrid(grid: Grid, dx: number, dy: number): Grid {
  return { ...grid, x: clamp(grid.x + dx, 0, 1), y: clamp(grid.y + dy, 0, 1) };
}

/** The grid scaled so that its bottom-right corner follows the handle at relative point `at` (the centre stays). */
export function scaleGridTo(grid: Grid, at: Point, aspect: number): Grid {
  const half = Math.max(at[0] - grid.x, (at[1] - grid.y) * aspect);
  return { ...grid, size: clamp(half * 2, GRID_MIN_SIZE, GRID_MAX_SIZE) };
}

/** The grid scaled by a factor (the wheel over it), within the allowed sizes. */
export function scaleGridBy(grid: Grid, factor: number): Grid {
  return { ...grid, size: clamp(grid.size * factor, GRID_MIN_SIZE, GRID_MAX_SIZE) };
}
