/** A review level as a red seal stamp (优 / 良 / 中 / 需加强). */
import { LEVEL_LABELS, type Level } from "../../../shared/contracts/homework";
import "./homework.css";

export function LevelSeal({ level, size = "normal" }: { level: Level; size?: "small" | "normal" }) {
  const label = LEVEL_LABELS[level];
  return (
    <span
      className={`seal hw-seal hw-seal--${size}${label.length > 1 ? " hw-seal--long" : ""}`}
      role="img"
      aria-label={`评级：${label}`}
    >
      <span aria-hidden="true">{label}</span>
    </span>
  );
}
