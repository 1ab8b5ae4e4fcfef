/**
 * 田 / 米 / 九宫 grids over a photo in thin red lines, where the teacher placed them (centre and
 * side relative to the photo). Place it inside a positioned box that holds the photo.
 */
import type { Grid, GridKind } from "../../../shared/contracts/homework";
import { gridBox, gridLines, type GridBox, type PhotoSize } from "./drawing-geometry";
import "./homework.css";

export const GRID_COLOR = "#d0352b";

/** One grid in a box, as SVG (for use inside an `<svg>`); lines keep 1 px however it is scaled. */
export function GridShape({ kind, box, color = GRID_COLOR }: { kind: GridKind; box: GridBox; color?: string }) {
  return (
    <g className="hw-grid" stroke={color} fill="none" strokeWidth={1}>
      <rect x={box.left} y={box.top} width={box.size} height={box.size} vectorEffect="non-scaling-stroke" />
      {gridLines(kind, box).map(([x1, y1, x2, y2], i) => (
        <line
          key={i}
          x1={x1}
          y1={y1}
          x2={x2}
          y2={y2}
          strokeDasharray="4 3"
          strokeOpacity={0.8}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </g>
  );
}

export interface GridOverlayProps {
  grids: readonly Pick<Grid, "kind" | "x" | "y" | "size">[];
  /** The photo's size in pixels. */
  photo: PhotoSize;
  /** Draw every grid as this kind instead of its own (the viewer's 田 / 米 / 九宫 switch). */
  kind?: GridKind;
  className?: string;
}

export function GridOverlay({ grids, photo, kind, className }: GridOverlayProps) {
  if (grids.length === 0) return null;
  return (
    <svg
      className={`hw-layer hw-layer--grid${className ? ` ${className}` : ""}`}
      viewBox={`0 0 ${photo.width} ${photo.height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      {grids.map((grid, i) => (
        <GridShape key={i} kind={kind ?? grid.kind} box={gridBox(grid, photo)} />
      ))}
    </svg>
  );
}
