/**
 * Where a grid sits and its inner lines, apart from the drawing geometry (drawing-geometry.ts):
 * the model characters and the grids need these, not the brush strokes' outline code.
 */
import type { Grid, GridKind } from "../../../shared/contracts/homework";

export interface PhotoSize {
  width: number;
  height: number;
}

export interface GridBox {
  left: number;
  top: number;
  size: number;
}

/** Where a grid sits in photo pixels: a square whose side is a fraction of the width. */
export function gridBox(grid: Pick<Grid, "x" | "y" | "size">, photo: PhotoSize): GridBox {
  const size = grid.size * photo.width;
  return { left: grid.x * photo.width - size / 2, top: grid.y * photo.height - size / 2, size };
}

export type Line = readonly [number, number, number, number];

/** The inner lines of a grid in a box (the border is drawn as a rectangle). */
export function gridLines(kind: GridKind, box: GridBox): Line[] {
  const { left: x, top: y, size: s } = box;
  const mid: Line[] = [
    [x + s / 2, y, x + s / 2, y + s],
    [x, y + s / 2, x + s, y + s / 2],
  ];
  if (kind === "tian") return mid;
  if (kind === "mi") {
    return [...mid, [x, y, x + s, y + s], [x + s, y, x, y + s]];
  }
  return [1, 2].flatMap((k): Line[] => [
    [x + (s * k) / 3, y, x + (s * k) / 3, y + s],
    [x, y + (s * k) / 3, x + s, y + (s * k) / 3],
  ]);
}
