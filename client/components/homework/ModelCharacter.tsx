/**
 * A model character in the brush hand (Ma Shan Zheng, self-hosted) on a grid, to set beside
 * the learner's character. Give it the size the learner's grid has on screen so both are
 * compared at the same scale.
 */
import "@fontsource/ma-shan-zheng/400.css";
import type { GridKind } from "../../../shared/contracts/homework";
import { GridShape } from "./GridShape";
import "./homework.css";

export interface ModelCharacterProps {
  /** One character ("" shows the empty grid). */
  character: string;
  kind?: GridKind;
  /** Side of the square in CSS pixels. */
  size?: number;
  className?: string;
}

export function ModelCharacter({ character, kind = "mi", size = 96, className }: ModelCharacterProps) {
  return (
    <span
      className={`hw-model${className ? ` ${className}` : ""}`}
      style={{ width: size, height: size, fontSize: size * 0.78 }}
      role="img"
      aria-label={character ? `范字「${character}」` : "空白格"}
    >
      <svg className="hw-model__grid" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
        <GridShape kind={kind} box={{ left: 0.5, top: 0.5, size: 99 }} />
      </svg>
      <span className="hw-model__char" aria-hidden="true">
        {character}
      </span>
    </span>
  );
}
