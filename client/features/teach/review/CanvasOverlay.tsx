/** What lies over the photo on the review canvas: grids, marks, the stroke being drawn and the model characters. */
import type { Drawing, Mark } from "../../../../shared/contracts/homework";
import { toScreen, type View } from "../../../components/homework/canvas-geometry";
import { MarkShape } from "../../../components/homework/DrawingLayer";
import { penPath } from "../../../components/homework/drawing-geometry";
import { GridShape } from "../../../components/homework/GridShape";
import { gridBox } from "../../../components/homework/grid-geometry";
import { ModelCharacter } from "../../../components/homework/ModelCharacter";
import type { Tool } from "./tools";
import { HANDLE_PX } from "./use-canvas-gestures";

type Size = { width: number; height: number };

/** The marks layer, in the photo's own coordinates; the selected grid shows its resize handle with the grid tool. */
export function MarksLayer({
  drawing,
  draft,
  size,
  tool,
  selectedGrid,
  perPixel,
}: {
  drawing: Drawing;
  draft: Mark | null;
  size: Size;
  tool: Tool;
  selectedGrid: number | null;
  perPixel: number;
}) {
  const handle = HANDLE_PX * perPixel * size.width;
  return (
    <svg
      className="review-canvas__layer"
      viewBox={`0 0 ${size.width} ${size.height}`}
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
                x={b.left + b.size - (HANDLE_PX / 2) * perPixel * size.width}
                y={b.top + b.size - (HANDLE_PX / 2) * perPixel * size.width}
                width={handle}
                height={handle}
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
  );
}

/** Each grid's model character beside the learner's, at the same scale, to the right of its grid. */
export function ModelCharacters({ drawing, view }: { drawing: Drawing; view: View }) {
  return drawing.grids.map((grid, i) => {
    if (!grid.character) return null;
    const scale = view.baseWidth * view.zoom;
    const [, top] = toScreen({ ...view, x: 0, y: 0 }, 0, grid.y);
    return (
      <span
        key={`m${i}`}
        className="review-model"
        style={{ left: (grid.x + grid.size / 2) * scale + 8, top: top - (grid.size * scale) / 2 }}
      >
        <ModelCharacter character={grid.character} kind={grid.kind} size={grid.size * scale} />
      </span>
    );
  });
}
