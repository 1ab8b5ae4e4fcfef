/**
 * SVG outlines of review marks, in a drawing space 1000 units wide (the photo's height is
 * 1000 × aspect). Pen strokes get perfect-freehand's pressure-shaped outline: real pen pressure
 * where the teacher's device gave it, simulated from speed for a mouse or a finger (their
 * points all carry the neutral 0.5).
 */
import { getStroke } from "perfect-freehand";
import type { Mark } from "../../../shared/contracts/homework";
import { ellipseOutline } from "./canvas-geometry";

export const DRAWING_UNITS = 1000;

/** Pressure recorded for pointers that do not report any (mouse, most fingers). */
export const NEUTRAL_PRESSURE = 0.5;

const round = (v: number) => Math.round(v * 100) / 100;

/** A closed outline (perfect-freehand's polygon) as an SVG path with quadratic smoothing. */
export function outlineToPath(outline: ReadonlyArray<readonly number[]>): string {
  if (outline.length < 2) return "";
  const pts = outline.map(([x = 0, y = 0]) => [round(x), round(y)] as const);
  const [first] = pts;
  let d = `M${first![0]} ${first![1]}Q`;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % pts.length]!;
    d += `${a[0]} ${a[1]} ${round((a[0] + b[0]) / 2)} ${round((a[1] + b[1]) / 2)} `;
  }
  return `${d.trimEnd()}Z`;
}

/** The filled outline of a pen stroke. `live` while it is still being drawn (its end not tapered yet). */
export function penPath(mark: Mark, aspect: number, live = false): string {
  const simulated = mark.points.every((p) => p[2] === NEUTRAL_PRESSURE);
  const outline = getStroke(
    mark.points.map(([x, y, p]) => [x * DRAWING_UNITS, y * DRAWING_UNITS * aspect, p]),
    {
      size: mark.width * DRAWING_UNITS,
      thinning: 0.55,
      smoothing: 0.5,
      streamline: 0.45,
      simulatePressure: simulated,
      start: { taper: 0, cap: true },
      end: { taper: 0, cap: true },
      last: !live,
    },
  );
  return outlineToPath(outline);
}

/** The stroked centre line of a circle or a tick. */
export function linePath(mark: Mark, aspect: number): string {
  const points =
    mark.kind === "circle" ? ellipseOutline(mark, aspect) : mark.points.map(([x, y]) => [x, y * aspect] as const);
  return points
    .map(([x, y], i) => `${i === 0 ? "M" : "L"}${round(x * DRAWING_UNITS)} ${round(y * DRAWING_UNITS)}`)
    .join("")
    .concat(mark.kind === "circle" ? "Z" : "");
}
