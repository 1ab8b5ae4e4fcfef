import { describe, expect, it } from "vitest";
import { clampZoom, doubleTap, NO_ZOOM, pan, pinch, swipeDirection } from "./zoom-geometry";

describe("photo zoom", () => {
  it("pinches around the fingers' midpoint and keeps the photo covering its frame", () => {
    const zoomed = pinch(
      NO_ZOOM,
      { a: { x: 150, y: 200 }, b: { x: 250, y: 200 } },
      { a: { x: 100, y: 200 }, b: { x: 300, y: 200 } },
      400,
      400,
    );
    expect(zoomed.scale).toBeCloseTo(2);
    // The photo point under (200, 200) stays there: 200 = x + 200 · 2.
    expect(zoomed.x).toBeCloseTo(-200);
    expect(zoomed.y).toBeCloseTo(-200);
    // Pinching in past the whole photo stops at 1, at the corner.
    expect(
      pinch(zoomed, { a: { x: 0, y: 0 }, b: { x: 400, y: 0 } }, { a: { x: 190, y: 0 }, b: { x: 210, y: 0 } }, 400, 400),
    ).toEqual(NO_ZOOM);
  });

  it("pans only within the photo, and a double tap zooms in and back out", () => {
    const zoomed = { scale: 2, x: -100, y: -100 };
    expect(pan(zoomed, 500, 0, 400, 300)).toEqual({ scale: 2, x: 0, y: -100 });
    expect(pan(zoomed, -1000, -1000, 400, 300)).toEqual({ scale: 2, x: -400, y: -300 });
    expect(clampZoom({ scale: 9, x: 0, y: 0 }, 100, 100).scale).toBe(5);
    const tapped = doubleTap(NO_ZOOM, { x: 200, y: 150 }, 400, 300);
    expect(tapped.scale).toBe(2.5);
    expect(tapped.x).toBeCloseTo(200 - 200 * 2.5);
    expect(doubleTap(tapped, { x: 0, y: 0 }, 400, 300)).toEqual(NO_ZOOM);
  });

  it("pages on a clear sideways stroke only", () => {
    expect(swipeDirection(-120, 10, 390)).toBe(1);
    expect(swipeDirection(120, -20, 390)).toBe(-1);
    expect(swipeDirection(-30, 0, 390)).toBe(0);
    expect(swipeDirection(-100, 150, 390)).toBe(0);
  });
});
