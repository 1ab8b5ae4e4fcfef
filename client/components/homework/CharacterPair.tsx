/**
 * The learner's character (cut from the photo where the teacher placed a grid) beside the
 * model character, both at the same size on the same kind of grid.
 */
import type { Grid, GridKind, HomeworkPhoto } from "../../../shared/contracts/homework";
import { GridShape } from "./GridShape";
import { ModelCharacter } from "./ModelCharacter";
import { gridBox } from "./grid-geometry";
import "./homework.css";

export function CharacterPair({
  photo,
  grid,
  kind,
  size = 120,
}: {
  photo: HomeworkPhoto;
  grid: Grid;
  /** The grid drawn behind both; the teacher's own kind when not given. */
  kind?: GridKind;
  size?: number;
}) {
  const box = gridBox(grid, photo);
  // Scale the photo so the grid's square fills `size`, and shift it so the square is in view.
  const scale = size / box.size;
  const gridKind = kind ?? grid.kind;
  return (
    <figure className="hw-pair">
      <div className="hw-pair__cells">
        <span className="hw-pair__crop" style={{ width: size, height: size }}>
          <img
            src={photo.url}
            alt={grid.character ? `学员写的「${grid.character}」` : "学员写的字"}
            style={{
              width: photo.width * scale,
              height: photo.height * scale,
              transform: `translate(${-box.left * scale}px, ${-box.top * scale}px)`,
            }}
          />
          <svg className="hw-layer" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
            <GridShape kind={gridKind} box={{ left: 0.5, top: 0.5, size: 99 }} />
          </svg>
        </span>
        {grid.character ? <ModelCharacter character={grid.character} kind={gridKind} size={size} /> : null}
      </div>
      <figcaption className="hw-pair__caption">
        {grid.character ? `左：我写的 · 右：范字「${grid.character}」` : "老师圈出的字"}
      </figcaption>
    </figure>
  );
}
