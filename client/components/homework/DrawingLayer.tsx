/**
 * A teacher's drawing over a photo, read-only: pen marks as filled outlines, circles as
 * ellipses, ticks as polylines. Place it inside a positioned box that holds the photo (see
 * `HomeworkPhoto`); it stretches over the box in the photo's own pixel coordinates.
 */
import type { Drawing, Mark } from "../../../shared/contracts/homework";
import { circleShape, penPath, tickPoints } from "./drawing-geometry";
import type { PhotoSize } from "./grid-geometry";
import "./homework.css";

/** One mark as an SVG element in photo pixels (for use inside an `<svg>` of the photo's size). */
export function MarkShape({ mark, photo }: { mark: Mark; photo: PhotoSize }) {
  const strokeWidth = mark.width * photo.width;
  if (mark.kind === "pen") return <path d={penPath(mark, photo)} fill={mark.color} />;
  if (mark.kind === "circle") {
    return <ellipse {...circleShape(mark, photo)} fill="none" stroke={mark.color} strokeWidth={strokeWidth} />;
  }
  return (
    <polyline
      points={tickPoints(mark, photo)}
      fill="none"
      stroke={mark.color}
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  );
}

export interface DrawingLayerProps {
  /** The drawing of this photo; nothing is drawn for null. */
  drawing: Pick<Drawing, "marks"> | null | undefined;
  /** The photo's size in pixels (`HomeworkPhoto.width` / `height`). */
  photo: PhotoSize;
  className?: string;
}

export function DrawingLayer({ drawing, photo, className }: DrawingLayerProps) {
  if (!drawing || drawing.marks.length === 0) return null;
  return (
    <svg
      className={`hw-layer hw-layer--drawing${className ? ` ${className}` : ""}`}
      viewBox={`0 0 ${photo.width} ${photo.height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      {drawing.marks.map((mark, i) => (
        <MarkShape key={i} mark={mark} photo={photo} />
      ))}
    </svg>
  );
}
