/**
 * Pinch-zoom and pan of a photo inside its frame, as plain numbers: the photo is drawn at
 * `translate(x, y) scale(scale)` from its top-left corner, never smaller than the frame and never
 * pulled away from its edges.
 */
export interface Zoom {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };
export const MAX_SCALE = 5;
/** The scale a double tap zooms to. */
export const TAP_SCALE = 2.5;

/** Keeps the scale within 1…MAX_SCALE and the photo covering the frame. */
export function clampZoom(zoom: Zoom, width: number, height: number): Zoom {
  const scale = Math.min(MAX_SCALE, Math.max(1, zoom.scale));
  const minX = width - width * scale;
  const minY = height - height * scale;
  return {
    scale,
    x: Math.min(0, Math.max(minX, zoom.x)),
    y: Math.min(0, Math.max(minY, zoom.y)),
  };
}

export const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
export const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/**
 * Two fingers: the point of the photo that was under their midpoint when they touched down stays
 * under their midpoint, and the scale follows the distance between them.
 */
export function pinch(
  start: Zoom,
  from: { a: Point; b: Point },
  to: { a: Point; b: Point },
  width: number,
  height: number,
): Zoom {
  const d0 = distance(from.a, from.b);
  if (d0 < 1) return start;
  const scale = Math.min(MAX_SCALE, Math.max(1, (start.scale * distance(to.a, to.b)) / d0));
  const m0 = midpoint(from.a, from.b);
  const m1 = midpoint(to.a, to.b);
  const px = (m0.x - start.x) / start.scale;
  const py = (m0.y - start.y) / start.scale;
  return clampZoom({ scale, x: m1.x - px * scale, y: m1.y - py * scale }, width, height);
}

/** One finger on a zoomed photo moves it. */
export function pan(start: Zoom, dx: number, dy: number, width: number, height: number): Zoom {
  return clampZoom({ ...start, x: start.x + dx, y: start.y + dy }, width, height);
}

/** A double tap zooms in around the tapped point, or back out when already zoomed. */
export function doubleTap(current: Zoom, at: Point, width: number, height: number): Zoom {
  if (current.scale > 1.01) return NO_ZOOM;
  const scale = TAP_SCALE;
  return clampZoom({ scale, x: at.x - at.x * scale, y: at.y - at.y * scale }, width, height);
}

/** Which way a finger's stroke on an unzoomed photo pages: -1 back, 1 on, 0 not a swipe. */
export function swipeDirection(dx: number, dy: number, width: number): -1 | 0 | 1 {
  const threshold = Math.min(60, width * 0.18);
  if (Math.abs(dx) < threshold || Math.abs(dx) < Math.abs(dy) * 1.2) return 0;
  return dx < 0 ? 1 : -1;
}
