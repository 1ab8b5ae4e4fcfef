/** The canvas's tools: pen, eraser, circle, tick, grid, hand; colours and widths; grid kind and model character; undo, zoom, help. */
import { useState } from "react";
import { GRID_KINDS, GRID_LABELS, type GridKind } from "../../../../shared/contracts/homework";
import { type Pen, PEN_COLORS, PEN_WIDTHS, SHORTCUTS, type Tool, TOOL_LABELS } from "./tools";

const TOOL_KEYS_SHOWN: Record<Tool, string> = { pen: "P", eraser: "E", circle: "C", tick: "T", grid: "G", hand: "H" };

export interface ToolbarProps {
  tool: Tool;
  onTool: (t: Tool) => void;
  pen: Pen;
  onPen: (p: Pen) => void;
  gridKind: GridKind;
  onGridKind: (k: GridKind) => void;
  characters: string[];
  character: string;
  onCharacter: (c: string) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  zoom: number;
  onZoom: (factor: number) => void;
}

export function ReviewToolbar(props: ToolbarProps) {
  return (
    <div className="review-toolbar" role="toolbar" aria-label="批改工具">
      <ToolButtons tool={props.tool} onTool={props.onTool} />
      <PenPicker pen={props.pen} onPen={props.onPen} />
      <GridPicker {...props} />
      <HistoryAndZoom {...props} />
      <ShortcutHelp />
    </div>
  );
}

function ToolButtons({ tool, onTool }: Pick<ToolbarProps, "tool" | "onTool">) {
  return (
    <div className="review-toolbar__group" role="group" aria-label="工具">
      {(Object.keys(TOOL_LABELS) as Tool[]).map((t) => (
        <button
          key={t}
          type="button"
          className={`tool-button${tool === t ? " is-active" : ""}`}
          aria-pressed={tool === t}
          title={`${TOOL_LABELS[t]}（${TOOL_KEYS_SHOWN[t]}）`}
          onClick={() => onTool(t)}
        >
          <span className={`tool-icon tool-icon--${t}`} aria-hidden="true" />
          {TOOL_LABELS[t]}
        </button>
      ))}
    </div>
  );
}

/** The pen's colour and width. */
function PenPicker({ pen, onPen }: Pick<ToolbarProps, "pen" | "onPen">) {
  return (
    <>
      <div className="review-toolbar__group" role="group" aria-label="颜色">
        {PEN_COLORS.map((c) => (
          <button
            key={c.value}
            type="button"
            className={`swatch${pen.color === c.value ? " is-active" : ""}`}
            aria-pressed={pen.color === c.value}
            title={c.label}
            onClick={() => onPen({ ...pen, color: c.value })}
          >
            <span className="swatch__dot" style={{ background: c.value }} aria-hidden="true" />
            <span className="visually-hidden">{c.label}</span>
          </button>
        ))}
      </div>
      <div className="review-toolbar__group" role="group" aria-label="粗细">
        {PEN_WIDTHS.map((w) => (
          <button
            key={w.value}
            type="button"
            className={`tool-button tool-button--narrow${pen.width === w.value ? " is-active" : ""}`}
            aria-pressed={pen.width === w.value}
            onClick={() => onPen({ ...pen, width: w.value })}
          >
            {w.label}
          </button>
        ))}
      </div>
    </>
  );
}

/** The kind of grid a new grid gets and the model character shown beside it. */
function GridPicker({
  gridKind,
  onGridKind,
  characters,
  character,
  onCharacter,
}: Pick<ToolbarProps, "gridKind" | "onGridKind" | "characters" | "character" | "onCharacter">) {
  return (
    <div className="review-toolbar__group">
      <label className="review-toolbar__select">
        <span className="visually-hidden">格子样式</span>
        <select value={gridKind} onChange={(e) => onGridKind(e.target.value as GridKind)}>
          {GRID_KINDS.map((k) => (
            <option key={k} value={k}>
              {GRID_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label className="review-toolbar__select">
        <span>范字</span>
        <select value={character} onChange={(e) => onCharacter(e.target.value)}>
          <option value="">不显示</option>
          {characters.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

function HistoryAndZoom({
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  zoom,
  onZoom,
}: Pick<ToolbarProps, "canUndo" | "canRedo" | "onUndo" | "onRedo" | "zoom" | "onZoom">) {
  return (
    <div className="review-toolbar__group" role="group" aria-label="撤销与缩放">
      <button
        type="button"
        className="tool-button tool-button--narrow"
        onClick={onUndo}
        disabled={!canUndo}
        title="撤销（Ctrl/⌘+Z）"
      >
        撤销
      </button>
      <button
        type="button"
        className="tool-button tool-button--narrow"
        onClick={onRedo}
        disabled={!canRedo}
        title="重做（Shift+Ctrl/⌘+Z）"
      >
        重做
      </button>
      <button type="button" className="tool-button tool-button--narrow" onClick={() => onZoom(0.8)} aria-label="缩小">
        −
      </button>
      <span className="review-toolbar__zoom" aria-live="polite">
        {Math.round(zoom * 100)}%
      </span>
      <button type="button" className="tool-button tool-button--narrow" onClick={() => onZoom(1.25)} aria-label="放大">
        ＋
      </button>
      <button
        type="button"
        className="tool-button tool-button--narrow"
        onClick={() => onZoom(1)}
        title="照片复位：适合窗口（0）"
      >
        适合
      </button>
    </div>
  );
}

/** The 快捷键 button and the list of shortcuts it opens. */
function ShortcutHelp() {
  const [help, setHelp] = useState(false);
  return (
    <div className="review-toolbar__help">
      <button
        type="button"
        className="tool-button tool-button--narrow"
        aria-expanded={help}
        aria-controls="review-shortcuts"
        onClick={() => setHelp(!help)}
      >
        快捷键
      </button>
      {help ? (
        <div
          id="review-shortcuts"
          className="review-shortcuts"
          role="dialog"
          aria-label="快捷键"
          onKeyDown={(e) => e.key === "Escape" && setHelp(false)}
        >
          <dl>
            {SHORTCUTS.map(([k, v]) => (
              <div key={k}>
                <dt>
                  <kbd>{k}</kbd>
                </dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          <button type="button" className="text-button" onClick={() => setHelp(false)}>
            关闭
          </button>
        </div>
      ) : null}
    </div>
  );
}
