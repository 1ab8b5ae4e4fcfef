/**
 * A homework photo with the teacher's drawing and grids over it, all scaled with the photo.
 * Used by the learner's review viewer, the wall's share page and the teacher's pages.
 */
import type { ReactNode } from "react";
import type { Drawing, GridKind, HomeworkPhoto as Photo } from "../../../shared/contracts/homework";
import { DrawingLayer } from "./DrawingLayer";
import { GridOverlay } from "./GridOverlay";
import { fullPhotoGrids } from "./drawing-geometry";
import "./homework.css";

export interface HomeworkPhotoProps {
  photo: Photo;
  alt: string;
  /** The teacher's drawing on this photo, if any. */
  drawing?: Drawing | null;
  /** Show the teacher's marks. */
  showMarks?: boolean;
  /**
   * Show grids of this kind: where the teacher placed them, or tiling the whole photo
   * (`fallbackColumns` squares across) when the teacher placed none. Null hides them.
   */
  gridKind?: GridKind | null;
  fallbackColumns?: number;
  /** Use the thumbnail instead of the full photo. */
  thumb?: boolean;
  className?: string;
  /** Drawn over everything else (e.g. the teacher's editing canvas). */
  children?: ReactNode;
}

export function HomeworkPhoto({
  photo,
  alt,
  drawing,
  showMarks = true,
  gridKind = null,
  fallbackColumns = 4,
  thumb = false,
  className,
  children,
}: HomeworkPhotoProps) {
  const size = { width: photo.width, height: photo.height };
  const grids =
    drawing && drawing.grids.length > 0 ? drawing.grids : fullPhotoGrids(gridKind ?? "tian", size, fallbackColumns);
  return (
    <div
      className={`hw-photo${className ? ` ${className}` : ""}`}
      style={{ aspectRatio: `${photo.width} / ${photo.height}` }}
    >
      <img
        src={thumb ? photo.thumbUrl : photo.url}
        alt={alt}
        width={photo.width}
        height={photo.height}
        loading="lazy"
      />
      {gridKind ? <GridOverlay grids={grids} photo={size} kind={gridKind} /> : null}
      {showMarks ? <DrawingLayer drawing={drawing} photo={size} /> : null}
      {children}
    </div>
  );
}
