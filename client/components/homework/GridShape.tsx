/** One 田 / 米 / 九宫 grid as SVG: the model characters' and the photo overlays' grid. */
import type { GridKind } from "../../../shared/contracts/homework";
import { type GridBox, gridLines } from "./grid-geometry";

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
