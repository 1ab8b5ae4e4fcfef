import { describe, expect, it } from "vitest";
import { circleShape, fullPhotoGrids, penPath, tickPoints } from "./drawing-geometry";
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
