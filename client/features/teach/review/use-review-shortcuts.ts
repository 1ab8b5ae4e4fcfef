/** The review's keyboard shortcuts (listed in the toolbar's 快捷键 popover); space held pans. */
import { type Dispatch, type SetStateAction, useEffect, useState } from "react";
import { type Level, LEVELS } from "../../../../shared/contracts/homework";
import { commit, type EditorState, redo, undo, withoutGrid } from "../../../components/homework/editor-state";
import { shortcutOf, type Tool } from "./tools";

export interface ShortcutTargets {
  setTool: (tool: Tool) => void;
  setEditor: Dispatch<SetStateAction<EditorState>>;
  setLevel: (level: Level | null) => void;
  save: (andNext: boolean) => Promise<void>;
  zoomBy: (factor: number) => void;
  selectedGrid: number | null;
  setSelectedGrid: (index: number | null) => void;
  photoIndex: number;
}

/** Listens for the shortcuts while mounted; returns whether space is held (drag pans). */
export function useReviewShortcuts(targets: ShortcutTargets): boolean {
  const [spaceHeld, setSpaceHeld] = useState(false);
  const { setTool, setEditor, setLevel, save, zoomBy, selectedGrid, setSelectedGrid, photoIndex } = targets;

  useEffect(() => {
    const typingIn = (t: EventTarget | null) =>
      t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector("[role=dialog][aria-modal=true]")) return;
      const typing = typingIn(e.target);
      if (e.key === " " && !typing) {
        e.preventDefault();
        setSpaceHeld(true);
        return;
      }
      const action = shortcutOf(e, typing);
      if (!action) return;
      // A focused button's own keys (Enter/Space) are not shortcuts; Backspace in a select neither.
      e.preventDefault();
      switch (action.kind) {
        case "tool":
          setTool(action.tool);
          break;
        case "undo":
          setEditor(undo);
          break;
        case "redo":
          setEditor(redo);
          break;
        case "level":
          setLevel(LEVELS[action.index] ?? null);
          break;
        case "save":
          void save(false);
          break;
        case "zoom":
          zoomBy(action.factor);
          break;
        case "deleteGrid":
          if (selectedGrid !== null) {
            setEditor((ed) => commit(ed, withoutGrid(ed.drawings, photoIndex, selectedGrid)));
            setSelectedGrid(null);
          }
          break;
      }
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === " ") setSpaceHeld(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp);
    };
  }, [save, selectedGrid, photoIndex]); // eslint-disable-line react-hooks/exhaustive-deps -- the setters and zoomBy are stable in effect

  return spaceHeld;
}
