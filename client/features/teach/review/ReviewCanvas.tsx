/**
 * The review canvas: one photo, zoomable (wheel, buttons, pinch) and pannable (space or the
 * hand tool), with the teacher's marks and grids over it in the photo's own coordinates. Where
 * the photo sits is use-canvas-view's, what a pointer does use-canvas-gestures', what lies over
 * the photo CanvasOverlay's; this component puts them together.
 */
import { useRef } from "react";
import type { Mark } from "../../../../shared/contracts/homework";
import type { CanvasProps } from "./canvas-props";
import { MarksLayer, ModelCharacters } from "./CanvasOverlay";
import { shapeMark, useCanvasGestures } from "./use-canvas-gestures";
import { useCanvasView } from "./use-canvas-view";

export function ReviewCanvas(props: CanvasProps) {
  const { photo, photoIndex, editor, tool, pen } = props;
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useCanvasView(box, props);
  const { gesture, perPixel, onPointerDown, onPointerMove, onPointerUp } = useCanvasGestures(box, view, setView, props);
  const aspect = photo.height / photo.width;
  const drawing = editor.drawings[photoIndex] ?? { photo: photoIndex, marks: [], grids: [] };

  const draft: Mark | null =
    gesture?.kind === "pen" ? gesture.mark : gesture?.kind === "shape" ? shapeMark(gesture, pen, aspect) : null;
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
          <MarksLayer
            drawing={drawing}
            draft={draft}
            size={{ width: photo.width, height: photo.height }}
            tool={tool}
            selectedGrid={props.selectedGrid}
            perPixel={perPixel}
          />
          <ModelCharacters drawing={drawing} view={view} />
        </div>
      ) : null}
    </div>
  );
}
