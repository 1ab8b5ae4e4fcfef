import { describe, expect, it } from "vitest";
import { circleShape, fullPhotoGrids, penOutline, penPath, penWidthAt, tickPoints } from "./drawing-geometry";
import { gridBox, gridLines } from "./grid-geometry";

const photo = { width: 2000, height: 1000 };

describe("drawing geometry", () => {
  it("places a grid by its centre, with its side a fraction of the width", () => {
    expect(gridBox({ x: 0.5, y: 0.5, size: 0.1 }, photo)).toEqual({ left: 900, top: 400, size: 200 });
  });

  it("draws 田 with two lines, 米 with four and 九宫 with four thirds", () => {
    const box = { left: 0, top: 0, size: 90 };
    expect(gridLines("tian", box)).toHaveLength(2);
    expect(gridLines("mi", box)).toContainEqual([0, 0, 90, 90]);
    expect(gridLines("jiugong", box)).toEqual([
      [30, 0, 30, 90],
      [0, 30, 90, 30],
      [60, 0, 60, 90],
      [0, 60, 90, 60],
    ]);
  });

  it("turns a circle's two corners into an ellipse and a tick into photo pixels", () => {
    const points: [number, number, number][] = [
      [0.1, 0.2, 0.5],
      [0.3, 0.6, 0.5],
    ];
    expect(circleShape({ points }, photo)).toEqual({ cx: 400, cy: 400, rx: 200, ry: 200 });
    expect(tickPoints({ points }, photo)).toBe("200,200 600,600");
  });

  it("outlines a pen stroke as a closed path", () => {
    const d = penPath(
      {
        width: 0.01,
        points: [
          [0.1, 0.1, 0.5],
          [0.2, 0.15, 0.6],
          [0.3, 0.2, 0.7],
        ],
      },
      photo,
    );
    expect(d).toMatch(/^M[\d.]+,[\d.]+ Q/);
    expect(d.endsWith("Z")).toBe(true);
  });

  it("tiles a photo with whole squares, centred down its height", () => {
    const grids = fullPhotoGrids("mi", { width: 400, height: 500 }, 4);
    expect(grids).toHaveLength(20);
    expect(grids[0]).toMatchObject({ kind: "mi", x: 0.125, size: 0.25 });
    expect(grids[0]?.y).toBeCloseTo(50 / 500);
  });
});

describe("pen pressure", () => {
  it("draws the chosen width at 0.5 and thins or thickens it with the pen's pressure", () => {
    expect(penWidthAt(10, 0.5)).toBeCloseTo(10);
    expect(penWidthAt(10, 1)).toBeCloseTo(16);
    expect(penWidthAt(10, 0)).toBeCloseTo(4);
    expect(penWidthAt(10, 0.25)).toBeLessThan(penWidthAt(10, 0.75));
  });

  /** The outline's thickness across a horizontal stroke, between two x positions. */
  const thickness = (outline: number[][], from: number, to: number) => {
    const ys = outline.filter(([x]) => x! >= from && x! <= to).map(([, y]) => y!);
    return Math.max(...ys) - Math.min(...ys);
  };
  const line = (pressure: (t: number) => number) =>
    Array.from({ length: 41 }, (_, i) => [0.1 + (i / 40) * 0.8, 0.5, pressure(i / 40)] as [number, number, number]);

  it("a pen pressed harder along the stroke leaves a line that grows as wide as penWidthAt says", () => {
    const size = { width: 1000, height: 1000 };
    const outline = penOutline({ width: 0.02, points: line((t) => 0.2 + 0.8 * t) }, size);
    const light = thickness(outline, 250, 350);
    const hard = thickness(outline, 750, 850);
    expect(hard).toBeGreaterThan(light * 1.6);
    expect(hard).toBeGreaterThan(penWidthAt(20, 0.75) * 0.85);
    expect(hard).toBeLessThan(penWidthAt(20, 1) * 1.1);
  });

  it("a device that reports one constant pressure draws as the mouse does (today's width)", () => {
    const size = { width: 1000, height: 1000 };
    const mouse = penOutline({ width: 0.02, points: line(() => 0.5) }, size);
    expect(penOutline({ width: 0.02, points: line(() => 0.8) }, size)).toEqual(mouse);
  });
});
