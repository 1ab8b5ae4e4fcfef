import { describe, expect, it } from "vitest";
import type { Grid, Mark } from "../../../shared/contracts/homework";
import {
  circleFromDrag,
  fitView,
  GRID_MAX_SIZE,
  GRID_MIN_SIZE,
  hitGrid,
  hitMark,
  MAX_ZOOM,
  moveGrid,
  newGrid,
  panBy,
  pinch,
  scaleGridBy,
  scaleGridTo,
  thinPoints,
  tickFromDrag,
  toPhoto,
  toScreen,
  wheelFactor,
  zoomAt,
} from "./canvas-geometry";

const close = (a: readonly number[], b: readonly number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 6));

describe("the view between screen and photo", () => {
  it("fits a tall photo into the viewport, centred", () => {
    const v = fitView(1000, 600, 1500, 2000, 0);
    expect(v.baseHeight).toBe(600);
    expect(v.baseWidth).toBe(450);
    expect(v.x).toBe(275);
    expect(v.y).toBe(0);
  });

  it("maps the photo's corners to 0 and 1 and back", () => {
    const v = { ...fitView(800, 600, 400, 300), zoom: 2.5, x: -120, y: 40 };
    close(toPhoto(v, v.x, v.y), [0, 0]);
    const [sx, sy] = toScreen(v, 1, 1);
    close(toPhoto(v, sx, sy), [1, 1]);
    close(toScreen(v, ...toPhoto(v, 333, 222)), [333, 222]);
  });

  it("zooms about the pointer: the photo point under it stays put", () => {
    const v = fitView(800, 600, 400, 300);
    const before = toPhoto(v, 500, 260);
    const z = zoomAt(v, 3, 500, 260);
    expect(z.zoom).toBe(3);
    close(toPhoto(z, 500, 260), before);
  });

  it("keeps the zoom within bounds", () => {
    const v = fitView(800, 600, 400, 300);
    expect(zoomAt(v, 1000, 0, 0).zoom).toBe(MAX_ZOOM);
    expect(zoomAt(v, 0.001, 0, 0).zoom).toBe(0.5);
  });

  it("pans by screen pixels", () => {
    const v = panBy(fitView(800, 600, 400, 300), 30, -10);
    const u = fitView(800, 600, 400, 300);
    expect([v.x - u.x, v.y - u.y]).toEqual([30, -10]);
  });

  it("turns the wheel into zoom: down is out, up is in, lines count as 16 px", () => {
    expect(wheelFactor(100)).toBeLessThan(1);
    expect(wheelFactor(-100)).toBeGreaterThan(1);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48), 9);
  });

  it("reads a pinch as a factor and a move of the midpoint", () => {
    const p = pinch(
      [
        [100, 100],
        [200, 100],
      ],
      [
        [90, 110],
        [290, 110],
      ],
    );
    expect(p.factor).toBeCloseTo(2);
    close(p.mid, [190, 110]);
    close(p.shift, [40, 10]);
  });
});

const pen = (points: Array<[number, number]>, width = 0.01): Mark => ({
  kind: "pen",
  color: "#b22c1a",
  width,
  points: points.map(([x, y]) => [x, y, 0.5]),
});

describe("the eraser", () => {
  const marks: Mark[] = [
    pen([
      [0.1, 0.1],
      [0.5, 0.1],
    ]),
    {
      kind: "circle",
      color: "#222222",
      width: 0.004,
      points: [
        [0.4, 0.4, 0.5],
        [0.6, 0.6, 0.5],
      ],
    },
  ];

  it("touches a stroke along its whole length, with half its width", () => {
    expect(hitMark(marks, [0.3, 0.1], 1, 0.005)).toBe(0);
    expect(hitMark(marks, [0.3, 0.108], 1, 0.005)).toBe(0);
    expect(hitMark(marks, [0.3, 0.13], 1, 0.005)).toBe(-1);
  });

  it("touches a circle on its line, not in its middle", () => {
    expect(hitMark(marks, [0.6, 0.5], 1, 0.005)).toBe(1);
    expect(hitMark(marks, [0.5, 0.5], 1, 0.005)).toBe(-1);
  });

  it("takes the topmost mark where two cross", () => {
    const crossing = [
      ...marks,
      pen([
        [0.3, 0],
        [0.3, 0.3],
      ]),
    ];
    expect(hitMark(crossing, [0.3, 0.1], 1, 0.005)).toBe(2);
  });

  it("measures across and down alike on a tall photo", () => {
    // On a photo twice as tall as wide, 0.01 of the height is 0.02 of the width: out of reach.
    expect(hitMark(marks, [0.3, 0.11], 2, 0.012)).toBe(-1);
    expect(hitMark(marks, [0.3, 0.104], 2, 0.012)).toBe(0);
  });
});

describe("circle and tick shapes", () => {
  it("a drag gives the circle's box; a click a circle of the default size around it", () => {
    expect(circleFromDrag([0.2, 0.2], [0.4, 0.5], 1)).toEqual([
      [0.2, 0.2, 0.5],
      [0.4, 0.5, 0.5],
    ]);
    const dot = circleFromDrag([0.5, 0.5], [0.5, 0.5], 2);
    expect(dot[1]![0] - dot[0]![0]).toBeCloseTo(0.05);
    expect((dot[1]![1] - dot[0]![1]) * 2).toBeCloseTo(0.05);
  });

  it("a tick goes down from the left, to the bottom, up to the top right", () => {
    const [a, b, c] = tickFromDrag([0.4, 0.2], [0.2, 0.4], 1);
    expect(a![0]).toBeCloseTo(0.2);
    expect(b![1]).toBeCloseTo(0.4);
    expect(c).toEqual([0.4, 0.2, 0.5]);
    expect(a![1]).toBeGreaterThan(c![1]);
  });
});

describe("stroke points", () => {
  it("drops points that do not move the line, keeps the end", () => {
    const pts = [0, 0.0001, 0.0002, 0.01, 0.0101].map((x): [number, number, number] => [x, 0, 0.5]);
    expect(thinPoints(pts, 1, 0.001).map((p) => p[0])).toEqual([0, 0.01, 0.0101]);
  });
});

describe("grids", () => {
  const grid: Grid = newGrid("mi", [0.5, 0.5], "永", 0.2);

  it("is grabbed by its body or by its bottom-right handle", () => {
    expect(hitGrid([grid], [0.5, 0.5], 1, 0.02)).toEqual({ index: 0, part: "body" });
    expect(hitGrid([grid], [0.6, 0.6], 1, 0.02)).toEqual({ index: 0, part: "handle" });
    expect(hitGrid([grid], [0.8, 0.8], 1, 0.02)).toBeNull();
  });

  it("stays square on a tall photo", () => {
    // Side 0.2 of the width is 0.1 of the height when the photo is twice as tall.
    expect(hitGrid([grid], [0.5, 0.58], 2, 0.01)).toBeNull();
    expect(hitGrid([grid], [0.5, 0.54], 2, 0.01)).toEqual({ index: 0, part: "body" });
  });

  it("moves with its centre kept on the photo", () => {
    expect(moveGrid(grid, 0.1, -0.2)).toMatchObject({ x: 0.6, y: 0.3 });
    expect(moveGrid(grid, 2, 2)).toMatchObject({ x: 1, y: 1 });
  });

  it("scales by the handle around its centre and by the wheel, within bounds", () => {
    expect(scaleGridTo(grid, [0.7, 0.65], 1).size).toBeCloseTo(0.4);
    expect(scaleGridTo(grid, [0.5, 0.5], 1).size).toBe(GRID_MIN_SIZE);
    expect(scaleGridBy(grid, 1.5).size).toBeCloseTo(0.3);
    expect(scaleGridBy(grid, 100).size).toBe(GRID_MAX_SIZE);
  });

  it("is placed where the teacher clicks, with the chosen model character", () => {
    expect(newGrid("tian", [1.3, -0.2], "和")).toEqual({ kind: "tian", x: 1, y: 0, size: 0.25, character: "和" });
  });
});
