/** Unsaved marks are not lost to a closed tab without a question. */
import { useEffect } from "react";
import { type EditorState, hasChanges } from "../../../components/homework/editor-state";

export function useUnsavedWarning(editor: EditorState) {
  useEffect(() => {
    if (!hasChanges(editor)) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [editor]);
}
