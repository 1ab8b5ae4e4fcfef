import { describe, expect, it } from "vitest";
import type { Mark } from "../../../shared/contracts/homework";
import { linePath, outlineToPath, penPath } from "./mark-paths";

const stroke = (pressures: number[]): Mark => ({
  kind: "pen",
  color: "#b22c1a",
  width: 0.01,
  points: pressures.map((p, i) => [0.1 + i * 0.05, 0.2, p]),
});

/** The path's points: it is "M x y Q x y x y …Z", pairs all the way. */
function pointsOf(d: string): Array<[number, number]> {
  const n = d.replace(/[MQZ]/g, " ").trim().split(/\s+/).map(Number);
  return Array.from({ length: n.length / 2 }, (_, i) => [n[2 * i]!, n[2 * i + 1]!]);
}

function widthAtMiddle(d: string): number {
  const ys = pointsOf(d)
    .filter(([x]) => Math.abs(x - 200) < 15)
    .map(([, y]) => y);
  return Math.max(...ys) - Math.min(...ys);
}

describe("mark outlines", () => {
  it("draws a closed outline around a pen stroke, in 1000 units across", () => {
    const d = penPath(stroke([0.5, 0.5, 0.5, 0.5, 0.5]), 1);
    expect(d.startsWith("M")).toBe(true);
    expect(d.endsWith("Z")).toBe(true);
    const xs = pointsOf(d).map(([x]) => x);
    expect(Math.min(...xs)).toBeGreaterThan(85);
    expect(Math.max(...xs)).toBeLessThan(315);
  });

  it("widens a pen stroke where the pen pressed harder", () => {
    const light = penPath(stroke([0.2, 0.2, 0.2, 0.2, 0.2]), 1);
    const hard = penPath(stroke([0.9, 0.9, 0.9, 0.9, 0.9]), 1);
    expect(widthAtMiddle(hard)).toBeGreaterThan(widthAtMiddle(light));
  });

  it("draws a tick through its three points and a circle as a closed ring", () => {
    const tick: Mark = {
      kind: "tick",
      color: "#222222",
      width: 0.005,
      points: [
        [0.1, 0.5, 0.5],
        [0.2, 0.6, 0.5],
        [0.4, 0.2, 0.5],
      ],
    };
    expect(linePath(tick, 2)).toBe("M100 1000L200 1200L400 400");
    const circle: Mark = {
      kind: "circle",
      color: "#222222",
      width: 0.005,
      points: [
        [0.1, 0.1, 0.5],
        [0.3, 0.3, 0.5],
      ],
    };
    const ring = linePath(circle, 1);
    expect(ring.startsWith("M300 200")).toBe(true);
    expect(ring.endsWith("Z")).toBe(true);
  });

  it("gives nothing for a degenerate outline", () => {
    expect(outlineToPath([[1, 2]])).toBe("");
  });
});
