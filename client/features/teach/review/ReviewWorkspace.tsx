/** The claimed attempt on the canvas beside its written review; saving, returning and giving it back. */
import { useState } from "react";
import type { ClaimResult, GridKind } from "../../../../shared/contracts/homework";
import {
  canRedo,
  canUndo,
  commit,
  createEditor,
  type EditorState,
  redo,
  undo,
  withGridChanged,
} from "../../../components/homework/editor-state";
import { ReviewCanvas } from "./ReviewCanvas";
import { ReviewHeader } from "./ReviewHeader";
import { ReturnDialog } from "./ReviewPanel";
import { ReviewSide } from "./ReviewSide";
import { ReviewToolbar } from "./ReviewToolbar";
import { DEFAULT_PEN, type Pen, type Tool } from "./tools";
import { useReviewShortcuts } from "./use-review-shortcuts";
import { useReviewVerdict } from "./use-review-verdict";
import { useUnsavedWarning } from "./use-unsaved-warning";

export function ReviewWorkspace({ claim, onClaim }: { claim: ClaimResult; onClaim: (c: ClaimResult) => void }) {
  const { submission } = claim;
  const attempt = submission.attempts.find((a) => a.id === claim.attemptId) ?? submission.attempts.at(-1)!;
  const characters = Array.from(submission.task.characters).filter((c) => c.trim());

  const [editor, setEditor] = useState<EditorState>(() => createEditor(attempt.photos.length));
  const [photoIndex, setPhotoIndex] = useState(0);
  const [tool, setTool] = useState<Tool>("pen");
  const [pen, setPen] = useState<Pen>(DEFAULT_PEN);
  const [gridKind, setGridKind] = useState<GridKind>("mi");
  const [character, setCharacter] = useState(characters[0] ?? "");
  const [selectedGrid, setSelectedGrid] = useState<number | null>(null);
  const [zoomRequest, setZoomRequest] = useState({ n: 0, factor: 1 });
  const [zoom, setZoom] = useState(1);
  const verdict = useReviewVerdict(claim, editor);
  const photo = attempt.photos[photoIndex];

  const zoomBy = (factor: number) => setZoomRequest((r) => ({ n: r.n + 1, factor }));

  // Changing the model character while a grid is selected changes that grid's character.
  const chooseCharacter = (c: string) => {
    setCharacter(c);
    if (selectedGrid === null) return;
    if (!editor.drawings[photoIndex]?.grids[selectedGrid]) return;
    setEditor(
      commit(
        editor,
        withGridChanged(editor.drawings, photoIndex, selectedGrid, (g) => ({ ...g, character: c })),
      ),
    );
  };

  const spaceHeld = useReviewShortcuts({
    setTool,
    setEditor,
    setLevel: verdict.setLevel,
    save: verdict.save,
    zoomBy,
    selectedGrid,
    setSelectedGrid,
    photoIndex,
  });
  useUnsavedWarning(editor);

  return (
    <div className="review">
      <ReviewHeader claim={claim} attempt={attempt} onClaim={onClaim} />

      <div className="review__body">
        <section className="review__board" aria-label="批注">
          <ReviewToolbar
            tool={tool}
            onTool={setTool}
            pen={pen}
            onPen={setPen}
            gridKind={gridKind}
            onGridKind={setGridKind}
            characters={characters}
            character={character}
            onCharacter={chooseCharacter}
            canUndo={canUndo(editor)}
            canRedo={canRedo(editor)}
            onUndo={() => setEditor(undo)}
            onRedo={() => setEditor(redo)}
            zoom={zoom}
            onZoom={zoomBy}
          />
          {photo ? (
            <ReviewCanvas
              photo={photo}
              photoIndex={photoIndex}
              alt={`${submission.learner}的作业，第 ${photoIndex + 1} 张`}
              editor={editor}
              onEditor={setEditor}
              tool={tool}
              pen={pen}
              gridKind={gridKind}
              character={character}
              selectedGrid={selectedGrid}
              onSelectGrid={setSelectedGrid}
              panning={spaceHeld}
              zoomRequest={zoomRequest}
              onZoom={setZoom}
            />
          ) : (
            <p className="review-loading">这次提交没有照片。</p>
          )}
          {photo ? (
            <p className="review-touch-hint">
              用笔或一根手指画；两根手指拖动、缩放照片，点“适合”复位。用过笔之后，一根手指只移动照片，手掌碰到也不会留下痕迹。
            </p>
          ) : null}
          {attempt.photos.length > 1 ? (
            <PhotoStrip
              photos={attempt.photos}
              editor={editor}
              photoIndex={photoIndex}
              onPick={(i) => {
                setPhotoIndex(i);
                setSelectedGrid(null);
              }}
            />
          ) : null}
        </section>

        <ReviewSide submission={submission} attempt={attempt} verdict={verdict} />
      </div>
      <ReturnDialog
        open={verdict.returning}
        onClose={() => verdict.setReturning(false)}
        onReturn={verdict.returnWork}
      />
    </div>
  );
}

/** The attempt's photos as thumbnails, each with how many marks and grids it carries. */
function PhotoStrip({
  photos,
  editor,
  photoIndex,
  onPick,
}: {
  photos: ClaimResult["submission"]["attempts"][number]["photos"];
  editor: EditorState;
  photoIndex: number;
  onPick: (index: number) => void;
}) {
  return (
    <ol className="review-photos" aria-label="照片">
      {photos.map((p, i) => {
        const d = editor.drawings[i];
        const marked = d ? d.marks.length + d.grids.length : 0;
        return (
          <li key={p.id}>
            <button type="button" aria-current={i === photoIndex ? "true" : undefined} onClick={() => onPick(i)}>
              <img src={p.thumbUrl} alt={`第 ${i + 1} 张`} width={64} height={64} />
              {marked > 0 ? <span className="review-photos__count">{marked}</span> : null}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
