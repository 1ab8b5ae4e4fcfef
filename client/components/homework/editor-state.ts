/**
 * The review canvas's drawings with undo and redo, free of React: one drawing (marks and grids)
 * per photo, every change a new value. A gesture that changes things continuously (dragging a
 * grid, sweeping the eraser) sets a checkpoint when it starts and previews each step, so the
 * whole gesture is one undo step, and a gesture that changed nothing leaves no step behind.
 */
import type { Drawing, Grid, Mark } from "../../../shared/contracts/homework";

export interface EditorState {
  /** One drawing per photo, indexed by photo. */
  drawings: readonly Drawing[];
  undo: ReadonlyArray<readonly Drawing[]>;
  redo: ReadonlyArray<readonly Drawing[]>;
}

export const UNDO_DEPTH = 200;

export function createEditor(photoCount: number, saved: readonly Drawing[] = []): EditorState {
  const drawings = Array.from({ length: photoCount }, (_, photo): Drawing => {
    const kept = saved.find((d) => d.photo === photo);
    return kept ? { photo, marks: [...kept.marks], grids: [...kept.grids] } : { photo, marks: [], grids: [] };
  });
  return { drawings, undo: [], redo: [] };
}

/** Replace the drawings as one undoable step. */
export function commit(state: EditorState, drawings: readonly Drawing[]): EditorState {
  if (drawings === state.drawings) return state;
  return { drawings, undo: [...state.undo, state.drawings].slice(-UNDO_DEPTH), redo: [] };
}

/** Start a gesture: the drawings as they are now become one undo step. */
export function checkpoint(state: EditorState): EditorState {
  return { drawings: state.drawings, undo: [...state.undo, state.drawings].slice(-UNDO_DEPTH), redo: [] };
}

/** A step inside a gesture: replaces the drawings without another undo step. */
export function preview(state: EditorState, drawings: readonly Drawing[]): EditorState {
  return { ...state, drawings };
}

/** End a gesture: a gesture that changed nothing takes its checkpoint back. */
export function settle(state: EditorState): EditorState {
  const last = state.undo[state.undo.length - 1];
  if (last !== undefined && last === state.drawings) return { ...state, undo: state.undo.slice(0, -1) };
  return state;
}

export function undo(state: EditorState): EditorState {
  const previous = state.undo[state.undo.length - 1];
  if (previous === undefined) return state;
  return { drawings: previous, undo: state.undo.slice(0, -1), redo: [...state.redo, state.drawings] };
}

export function redo(state: EditorState): EditorState {
  const next = state.redo[state.redo.length - 1];
  if (next === undefined) return state;
  return { drawings: next, undo: [...state.undo, state.drawings], redo: state.redo.slice(0, -1) };
}

export const canUndo = (state: EditorState) => state.undo.length > 0;
export const canRedo = (state: EditorState) => state.redo.length > 0;

function withPhoto(drawings: readonly Drawing[], photo: number, change: (d: Drawing) => Drawing): readonly Drawing[] {
  return drawings.map((d) => (d.photo === photo ? change(d) : d));
}

export function withMark(drawings: readonly Drawing[], photo: number, mark: Mark): readonly Drawing[] {
  return withPhoto(drawings, photo, (d) => ({ ...d, marks: [...d.marks, mark] }));
}

export function withoutMark(drawings: readonly Drawing[], photo: number, index: number): readonly Drawing[] {
  return withPhoto(drawings, photo, (d) => ({ ...d, marks: d.marks.filter((_, i) => i !== index) }));
}

export function withGrid(drawings: readonly Drawing[], photo: number, grid: Grid): readonly Drawing[] {
  return withPhoto(drawings, photo, (d) => ({ ...d, grids: [...d.grids, grid] }));
}

export function withGridChanged(
  drawings: readonly Drawing[],
  photo: number,
  index: number,
  change: (g: Grid) => Grid,
): readonly Drawing[] {
  return withPhoto(drawings, photo, (d) => ({ ...d, grids: d.grids.map((g, i) => (i === index ? change(g) : g)) }));
}

export function withoutGrid(drawings: readonly Drawing[], photo: number, index: number): readonly Drawing[] {
  return withPhoto(drawings, photo, (d) => ({ ...d, grids: d.grids.filter((_, i) => i !== index) }));
}

/** What is sent with the review: the photos that carry something, nothing for the untouched ones. */
export function drawingsToSave(state: EditorState): Drawing[] {
  return state.drawings.filter((d) => d.marks.length > 0 || d.grids.length > 0).map((d) => ({ ...d }));
}

/** Whether anything was drawn since the editor opened (asks before leaving unsaved work). */
export function hasChanges(state: EditorState): boolean {
  return state.undo.length > 0 && state.undo[0] !== state.drawings;
}
