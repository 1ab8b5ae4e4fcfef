/**
 * 田 / 米 / 九宫 grids over a photo in thin red lines, where the teacher placed them (centre and
 * side relative to the photo). Place it inside a positioned box that holds the photo.
 */
import type { Grid, GridKind } from "../../../shared/contracts/homework";
import { gridBox, type PhotoSize } from "./grid-geometry";
import { GridShape } from "./GridShape";
import "./homework.css";

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
