/** The canvas's tools, pen colours and widths, and the keys that pick them. */
export type Tool = "pen" | "eraser" | "circle" | "tick" | "grid" | "hand";

export const TOOL_LABELS: Record<Tool, string> = {
  pen: "画笔",
  eraser: "橡皮",
  circle: "圈",
  tick: "勾",
  grid: "格子",
  hand: "移动画面",
};

export interface Pen {
  color: string;
  /** A fraction of the photo's width (the contract's unit). */
  width: number;
}

/** 朱红 is the site's seal red (`--seal` in styles/app.css); stored marks need the value itself. */
export const PEN_COLORS = [
  { value: "#b22c1a", label: "朱红" },
  { value: "#222222", label: "墨黑" },
  { value: "#1f5f8b", label: "靛青" },
] as const;

export const PEN_WIDTHS = [
  { value: 0.004, label: "细" },
  { value: 0.008, label: "中" },
  { value: 0.014, label: "粗" },
] as const;

export const DEFAULT_PEN: Pen = { color: PEN_COLORS[0].value, width: PEN_WIDTHS[1].value };

export const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ["P", "画笔"],
  ["E", "橡皮（碰到的批注整笔擦掉）"],
  ["C", "画圈"],
  ["T", "打勾"],
  ["G", "格子：点击放置，拖动移动，拖右下角或滚轮缩放"],
  ["H / 按住空格", "移动画面"],
  ["Delete", "删除选中的格子"],
  ["Ctrl/⌘ + Z", "撤销"],
  ["Shift + Ctrl/⌘ + Z", "重做"],
  ["1 – 4", "评级：优 / 良 / 中 / 需加强"],
  ["Ctrl/⌘ + Enter", "保存批改"],
  ["+ / − / 0", "放大 / 缩小 / 适合窗口"],
];

export const TOOL_KEYS: Record<string, Tool> = { p: "pen", e: "eraser", c: "circle", t: "tick", g: "grid", h: "hand" };

export type ShortcutAction =
  | { kind: "tool"; tool: Tool }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "level"; index: number }
  | { kind: "save" }
  | { kind: "zoom"; factor: number }
  | { kind: "deleteGrid" };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * What a key press means on the review page. While the teacher types (comment, reason) only
 * saving with Ctrl/⌘ + Enter is a shortcut; letters and digits are text.
 */
export function shortcutOf(e: KeyLike, typing: boolean): ShortcutAction | null {
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.key === "Enter") return { kind: "save" };
  if (typing || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (mod && key === "z") return e.shiftKey ? { kind: "redo" } : { kind: "undo" };
  if (mod && key === "y") return { kind: "redo" };
  if (mod) return null;
  const tool = TOOL_KEYS[key];
  if (tool) return { kind: "tool", tool };
  if (/^[1-4]$/.test(e.key)) return { kind: "level", index: Number(e.key) - 1 };
  if (e.key === "+" || e.key === "=") return { kind: "zoom", factor: 1.25 };
  if (e.key === "-") return { kind: "zoom", factor: 0.8 };
  if (e.key === "0") return { kind: "zoom", factor: 1 };
  if (e.key === "Delete" || e.key === "Backspace") return { kind: "deleteGrid" };
  return null;
}
