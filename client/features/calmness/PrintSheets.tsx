/**
 * Printable A4 practice sheets: each chosen character in the brush hand (Ma Shan Zheng, served
 * with the site) as the model, then faint copies to trace, then empty cells, on the grid chosen.
 * Printing uses the browser's print dialog (print CSS: only the sheet, A4, no page furniture).
 */
import "@fontsource/ma-shan-zheng/400.css";
import { useState } from "react";
import { HAN } from "../../../shared/contracts/practice";
import { GridLines, type GridStyle, gridNames } from "./Trainer";

export const SHEET_COLUMNS = 10;
export const SHEET_MAX_CHARACTERS = 24;

export function sheetCharacters(text: string): string[] {
  return [...new Set([...text].filter((c) => HAN.test(c)))].slice(0, SHEET_MAX_CHARACTERS);
}

export function PrintSheets({ initial }: { initial: string }) {
  const [text, setText] = useState(initial);
  const [grid, setGrid] = useState<GridStyle>("mi");
  const [faint, setFaint] = useState(4);
  const chars = sheetCharacters(text);
  return (
    <section className="sheets" aria-labelledby="sheets-title">
      <h2 id="sheets-title">打印字帖</h2>
      <div className="sheets__controls">
        <label className="sheets__field">
          <span>字帖上的字（最多 {SHEET_MAX_CHARACTERS} 个）</span>
          <input type="text" value={text} onChange={(e) => setText(e.target.value)} maxLength={120} />
        </label>
        <label className="sheets__field">
          <span>格子</span>
          <select value={grid} onChange={(e) => setGrid(e.target.value as GridStyle)}>
            {(Object.keys(gridNames) as GridStyle[]).map((g) => (
              <option key={g} value={g}>
                {gridNames[g]}
              </option>
            ))}
          </select>
        </label>
        <label className="sheets__field">
          <span>描红几遍</span>
          <select value={faint} onChange={(e) => setFaint(Number(e.target.value))}>
            {[0, 2, 4, 6, 9].map((n) => (
              <option key={n} value={n}>
                {n} 遍
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--primary"
          onClick={() => window.print()}
          disabled={!chars.length}
        >
          打印（A4）
        </button>
      </div>
      {chars.length === 0 ? (
        <p className="sheets__empty">输入几个汉字，这里会排出一张 A4 字帖。</p>
      ) : (
        <div className="print-sheet" data-testid="print-sheet" role="region" aria-label="A4 字帖预览">
          <p className="print-sheet__title">墨池课堂 · 静心习字 · {gridNames[grid]}</p>
          {chars.map((c) => (
            <div key={c} className="print-sheet__row">
              {Array.from({ length: SHEET_COLUMNS }, (_, i) => (
                <div key={i} className="print-sheet__cell">
                  <GridLines style={grid} size={100} />
                  {i === 0 ? (
                    <span className="print-sheet__char">{c}</span>
                  ) : i <= faint ? (
                    <span className="print-sheet__char print-sheet__char--faint">{c}</span>
                  ) : null}
                </div>
              ))}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
