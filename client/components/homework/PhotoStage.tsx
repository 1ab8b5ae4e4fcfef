/**
 * The photos of one attempt on a phone: one photo at a time across the screen, thumbnails below,
 * a sideways swipe to the next or previous photo, and two fingers to zoom into the photo and move
 * around it (a double tap zooms in and out). The page itself does not zoom (the viewport meta
 * forbids it), so the photo area takes every touch (`touch-action: none`). The teacher's marks
 * and the grid are inside the zoomed box, so they stay on the strokes they belong to.
 */
import { type PointerEvent, useEffect, useRef, useState } from "react";
import type { Drawing, GridKind, HomeworkPhoto as Photo } from "../../../shared/contracts/homework";
import { HomeworkPhoto } from "./HomeworkPhoto";
import { doubleTap, NO_ZOOM, pan, pinch, type Point, swipeDirection, type Zoom } from "./zoom-geometry";
import "./homework.css";

export interface PhotoStageProps {
  photos: readonly Photo[];
  /** The alt text of the photo at an index. */
  altOf: (index: number) => string;
  drawingOf: (index: number) => Drawing | null;
  showMarks: boolean;
  gridKind: GridKind | null;
  fallbackColumns: number;
}

interface Gesture {
  /** Where each finger touched down, by pointer id. */
  down: Map<number, Point>;
  /** Where each finger is now. */
  now: Map<number, Point>;
  zoom: Zoom;
  /** More than one finger took part: the stroke is no swipe and no tap. */
  multi: boolean;
}

const DOUBLE_TAP_MS = 300;

export function PhotoStage({ photos, altOf, drawingOf, showMarks, gridKind, fallbackColumns }: PhotoStageProps) {
  const [index, setIndex] = useState(0);
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);
  const [dragX, setDragX] = useState(0);
  const frame = useRef<HTMLDivElement | null>(null);
  const gesture = useRef<Gesture | null>(null);
  const lastTap = useRef<{ at: number; point: Point } | null>(null);
  const count = photos.length;
  const current = photos[Math.min(index, count - 1)];

  useEffect(() => {
    if (index >= count) setIndex(Math.max(0, count - 1));
  }, [index, count]);

  const go = (next: number) => {
    if (next < 0 || next >= count) return;
    setIndex(next);
    setZoom(NO_ZOOM);
    setDragX(0);
  };

  const local = (event: PointerEvent): Point => {
    const rect = frame.current?.getBoundingClientRect();
    return { x: event.clientX - (rect?.left ?? 0), y: event.clientY - (rect?.top ?? 0) };
  };
  const size = () => {
    const rect = frame.current?.getBoundingClientRect();
    return { width: rect?.width ?? 1, height: rect?.height ?? 1 };
  };

  /** Starts the gesture again from where the fingers are now (a finger added or lifted). */
  const restart = (g: Gesture, current: Zoom) => {
    g.down = new Map(g.now);
    g.zoom = current;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const point = local(event);
    const g = gesture.current ?? { down: new Map(), now: new Map(), zoom, multi: false };
    g.now.set(event.pointerId, point);
    if (g.now.size > 1) g.multi = true;
    restart(g, zoom);
    gesture.current = g;
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !g.now.has(event.pointerId)) return;
    g.now.set(event.pointerId, local(event));
    const { width, height } = size();
    const ids = [...g.now.keys()];
    if (ids.length >= 2) {
      const [a, b] = ids as [number, number];
      setZoom(
        pinch(g.zoom, { a: g.down.get(a)!, b: g.down.get(b)! }, { a: g.now.get(a)!, b: g.now.get(b)! }, width, height),
      );
      return;
    }
    const from = g.down.get(event.pointerId)!;
    const to = g.now.get(event.pointerId)!;
    if (g.zoom.scale > 1.01) setZoom(pan(g.zoom, to.x - from.x, to.y - from.y, width, height));
    else if (!g.multi) setDragX(to.x - from.x);
  };

  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g || !g.now.has(event.pointerId)) return;
    const from = g.down.get(event.pointerId)!;
    const to = g.now.get(event.pointerId)!;
    g.now.delete(event.pointerId);
    if (g.now.size > 0) {
      // One finger of two lifted: the other carries on panning from here.
      restart(g, zoom);
      return;
    }
    gesture.current = null;
    setDragX(0);
    if (g.multi || event.type === "pointercancel") return;
    const { width, height } = size();
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    if (g.zoom.scale <= 1.01) {
      const direction = swipeDirection(dx, dy, width);
      if (direction !== 0) {
        go(index + direction);
        return;
      }
    }
    if (Math.hypot(dx, dy) < 10) {
      const now = event.timeStamp;
      const previous = lastTap.current;
      if (
        previous &&
        now - previous.at < DOUBLE_TAP_MS &&
        Math.hypot(previous.point.x - to.x, previous.point.y - to.y) < 30
      ) {
        lastTap.current = null;
        setZoom(doubleTap(zoom, to, width, height));
      } else lastTap.current = { at: now, point: to };
    }
  };

  if (!current) return null;
  const zoomed = zoom.scale > 1.01;
  return (
    <div className="hw-stage" role="group" aria-roledescription="照片浏览" aria-label={`照片 ${index + 1} / ${count}`}>
      <div
        ref={frame}
        className={`hw-stage__frame${zoomed ? " is-zoomed" : ""}`}
        style={{ aspectRatio: `${current.width} / ${current.height}` }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      >
        <div
          className="hw-stage__zoom"
          data-scale={zoom.scale.toFixed(2)}
          style={{
            transform: `translate(${zoom.x + dragX}px, ${zoom.y}px) scale(${zoom.scale})`,
          }}
        >
          <HomeworkPhoto
            key={current.id}
            photo={current}
            alt={altOf(index)}
            drawing={drawingOf(index)}
            showMarks={showMarks}
            gridKind={gridKind}
            fallbackColumns={fallbackColumns}
          />
        </div>
      </div>
      <p className="hw-stage__hint" aria-live="polite">
        {count > 1 ? `第 ${index + 1} / ${count} 张 · 左右滑动翻页，双指缩放` : "双指缩放，双击放大"}
        {zoomed ? (
          <button type="button" className="hw-stage__reset" onClick={() => setZoom(NO_ZOOM)}>
            还原
          </button>
        ) : null}
      </p>
      {count > 1 ? (
        <ol className="hw-stage__thumbs" aria-label="全部照片">
          {photos.map((photo, i) => (
            <li key={photo.id}>
              <button
                type="button"
                className={`hw-stage__thumb${i === index ? " is-current" : ""}`}
                aria-current={i === index ? "true" : undefined}
                aria-label={`看第 ${i + 1} 张`}
                onClick={() => go(i)}
              >
                <img src={photo.thumbUrl} alt="" width={photo.width} height={photo.height} loading="lazy" />
              </button>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
