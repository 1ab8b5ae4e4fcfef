import { describe, expect, it } from "vitest";
import { drawingSchema, type Mark } from "../../../shared/contracts/homework";
import {
  canRedo,
  canUndo,
  checkpoint,
  commit,
  createEditor,
  drawingsToSave,
  hasChanges,
  preview,
  redo,
  settle,
  undo,
  UNDO_DEPTH,
  withGrid,
  withGridChanged,
  withMark,
  withoutMark,
} from "./editor-state";

const stroke = (x: number): Mark => ({ kind: "pen", color: "#b22c1a", width: 0.006, points: [[x, 0.5, 0.5]] });

describe("the review editor", () => {
  it("keeps one drawing per photo, starting from what was saved", () => {
    const ed = createEditor(3, [{ photo: 1, marks: [stroke(0.1)], grids: [] }]);
    expect(ed.drawings.map((d) => [d.photo, d.marks.length])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
    ]);
    expect(canUndo(ed)).toBe(false);
  });

  it("undoes and redoes marks in order; a new mark clears redo", () => {
    let ed = createEditor(1);
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.1)));
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.2)));
    ed = undo(ed);
    expect(ed.drawings[0]!.marks.map((m) => m.points[0]![0])).toEqual([0.1]);
    expect(canRedo(ed)).toBe(true);
    ed = redo(ed);
    expect(ed.drawings[0]!.marks).toHaveLength(2);
    ed = undo(undo(ed));
    expect(ed.drawings[0]!.marks).toHaveLength(0);
    expect(undo(ed)).toBe(ed);
    ed = redo(ed);
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.3)));
    expect(canRedo(ed)).toBe(false);
    expect(ed.drawings[0]!.marks.map((m) => m.points[0]![0])).toEqual([0.1, 0.3]);
  });

  it("makes a whole gesture one undo step", () => {
    let ed = createEditor(1);
    ed = commit(ed, withGrid(ed.drawings, 0, { kind: "tian", x: 0.5, y: 0.5, size: 0.2, character: "永" }));
    ed = checkpoint(ed);
    for (const x of [0.52, 0.55, 0.6])
      ed = preview(
        ed,
        withGridChanged(ed.drawings, 0, 0, (g) => ({ ...g, x })),
      );
    ed = settle(ed);
    expect(ed.drawings[0]!.grids[0]!.x).toBe(0.6);
    ed = undo(ed);
    expect(ed.drawings[0]!.grids[0]!.x).toBe(0.5);
  });

  it("leaves no step behind for a gesture that changed nothing", () => {
    let ed = createEditor(1);
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.1)));
    const steps = ed.undo.length;
    ed = settle(checkpoint(ed));
    expect(ed.undo.length).toBe(steps);
  });

  it("erases one mark and brings it back with undo", () => {
    let ed = createEditor(1);
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.1)));
    ed = commit(ed, withMark(ed.drawings, 0, stroke(0.2)));
    ed = commit(ed, withoutMark(ed.drawings, 0, 0));
    expect(ed.drawings[0]!.marks.map((m) => m.points[0]![0])).toEqual([0.2]);
    ed = undo(ed);
    expect(ed.drawings[0]!.marks.map((m) => m.points[0]![0])).toEqual([0.1, 0.2]);
  });

  it("remembers a bounded number of steps", () => {
    let ed = createEditor(1);
    for (let i = 0; i < UNDO_DEPTH + 20; i++) ed = commit(ed, withMark(ed.drawings, 0, stroke(0.001 * i)));
    expect(ed.undo.length).toBe(UNDO_DEPTH);
  });

  it("saves only the photos that carry something, as the contract accepts them", () => {
    let ed = createEditor(3);
    expect(hasChanges(ed)).toBe(false);
    ed = commit(ed, withMark(ed.drawings, 2, stroke(0.4)));
    expect(hasChanges(ed)).toBe(true);
    const saved = drawingsToSave(ed);
    expect(saved.map((d) => d.photo)).toEqual([2]);
    for (const d of saved) expect(drawingSchema.safeParse(d).success).toBe(true);
    expect(hasChanges(undo(ed))).toBe(false);
  });
});
