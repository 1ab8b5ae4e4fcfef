/** What the review canvas is given: the photo, the marks being edited, the tool and the view requests. */
import type { Grid, HomeworkPhoto } from "../../../../shared/contracts/homework";
import type { EditorState } from "../../../components/homework/editor-state";
import type { Pen, Tool } from "./tools";

export interface CanvasProps {
  photo: HomeworkPhoto;
  photoIndex: number;
  alt: string;
  editor: EditorState;
  onEditor: (next: EditorState) => void;
  tool: Tool;
  pen: Pen;
  gridKind: Grid["kind"];
  character: string;
  selectedGrid: number | null;
  onSelectGrid: (index: number | null) => void;
  /** Space held: drag pans whatever the tool. */
  panning: boolean;
  /** Zoom requests from the toolbar: a counter and a factor (1 = fit). */
  zoomRequest: { n: number; factor: number };
  onZoom: (zoom: number) => void;
}
