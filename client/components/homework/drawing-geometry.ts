/**
 * Geometry of a teacher's drawing, shared by the read-only layers and the review canvas: the
 * contract stores marks and grids relative to the photo (0–1 across the width and down the
 * height; widths and grid sides as fractions of the width), and these turn them into SVG in
 * the photo's own pixels.
 */
import { getStroke } from "perfect-freehand";
import type { Grid, GridKind, Mark } from "../../../shared/contracts/homework";
import type { PhotoSize } from "./grid-geometry";

type Point = readonly [number, number];

/** The outline of a stroke as a closed path of quadratic curves through the midpoints. */
export function outlinePath(outline: readonly (readonly number[])[]): string {
  const count = outline.length;
  if (count < 2) return "";
  const at = (i: number): Point => {
    const p = outline[i % count] ?? [0, 0];
    return [p[0] ?? 0, p[1] ?? 0];
  };
  const fmt = (n: number) => Number(n.toFixed(2));
  const [x0, y0] = at(0);
  const [x1, y1] = at(1);
  const parts = [
    `M${fmt(x0)},${fmt(y0)}`,
    `Q${fmt(x1)},${fmt(y1)} ${fmt((x1 + at(2)[0]) / 2)},${fmt((y1 + at(2)[1]) / 2)}`,
  ];
  for (let i = 2; i < count; i++) {
    const [ax, ay] = at(i);
    const [bx, by] = at(i + 1);
    parts.push(`T${fmt((ax + bx) / 2)},${fmt((ay + by) / 2)}`);
  }
  return `${parts.join(" ")} Z`;
}

/** How much a pen's pressure thins or thickens its line (perfect-freehand's `thinning`). */
export const PEN_THINNING = 0.6;

/**
 * The width of a pen line at a pressure, for a pen width `size`: 0.5 (mouse, finger, a pen that
 * reports no pressure) draws exactly the chosen width; a light pen down to 40 %, a hard one up to
 * 160 % (perfect-freehand's radius is size × (0.5 − thinning × (0.5 − pressure))).
 */
export function penWidthAt(size: number, pressure: number): number {
  const p = Math.min(1, Math.max(0, pressure));
  return 2 * size * (0.5 - PEN_THINNING * (0.5 - p));
}

/**
 * A pen mark's outline as perfect-freehand draws it around its points, in the photo's pixels.
 * Points that all carry the same pressure (a mouse, a finger, a pen that reports one constant
 * value) are drawn as the mouse's, with pressure simulated from the speed of the hand; a pen's real pressure varies the width (penWidthAt).
 */
export function penOutline(mark: Pick<Mark, "points" | "width">, photo: PhotoSize, last = true): number[][] {
  const first = mark.points[0]?.[2];
  const flat = mark.points.every((p) => p[2] === first);
  // One constant pressure is no pressure at all: drawn exactly as the mouse's 0.5.
  const points = mark.points.map(([x, y, pressure]) => [x * photo.width, y * photo.height, flat ? 0.5 : pressure]);
  return getStroke(points, {
    size: mark.width * photo.width,
    thinning: PEN_THINNING,
    smoothing: 0.5,
    streamline: 0.5,
    simulatePressure: flat,
    last,
  });
}

/** A pen mark as the filled outline of penOutline. */
export function penPath(mark: Pick<Mark, "points" | "width">, photo: PhotoSize, last = true): string {
  return outlinePath(penOutline(mark, photo, last));
}

/** A circle mark: the ellipse inside the box its two points span. */
export function circleShape(mark: Pick<Mark, "points">, photo: PhotoSize) {
  const [a, b] = [mark.points[0], mark.points.at(-1)];
  const x1 = (a?.[0] ?? 0) * photo.width;
  const y1 = (a?.[1] ?? 0) * photo.height;
  const x2 = (b?.[0] ?? 0) * photo.width;
  const y2 = (b?.[1] ?? 0) * photo.height;
  return { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, rx: Math.abs(x2 - x1) / 2, ry: Math.abs(y2 - y1) / 2 };
}

/** A tick mark: its points as an SVG polyline. */
export function tickPoints(mark: Pick<Mark, "points">, photo: PhotoSize): string {
  return mark.points
    .map(([x, y]) => `${Number((x * photo.width).toFixed(2))},${Number((y * photo.height).toFixed(2))}`)
    .join(" ");
}

/**
 * Grids tiling the whole photo, for work the teacher placed no grid on: `columns` squares
 * across, as many rows as fit, centred. Relative to the photo like the teacher's grids.
 */
export function fullPhotoGrids(kind: GridKind, photo: PhotoSize, columns: number): Grid[] {
  const across = Math.max(1, Math.floor(columns));
  const side = photo.width / across;
  const rows = Math.max(1, Math.floor(photo.height / side));
  const top = (photo.height - rows * side) / 2;
  const grids: Grid[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < across; c++) {
      grids.push({
        kind,
        x: (c + 0.5) / across,
        y: (top + (r + 0.5) * side) / photo.height,
        size: 1 / across,
        character: "",
      });
    }
  }
  return grids;
}
