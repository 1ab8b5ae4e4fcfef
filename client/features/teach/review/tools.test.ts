import { describe, expect, it } from "vitest";
import { type KeyLike, shortcutOf } from "./tools";

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("review shortcuts", () => {
  it("picks tools by letter, either case", () => {
    expect(shortcutOf(key("p"), false)).toEqual({ kind: "tool", tool: "pen" });
    expect(shortcutOf(key("E"), false)).toEqual({ kind: "tool", tool: "eraser" });
    expect(shortcutOf(key("c"), false)).toEqual({ kind: "tool", tool: "circle" });
    expect(shortcutOf(key("t"), false)).toEqual({ kind: "tool", tool: "tick" });
    expect(shortcutOf(key("g"), false)).toEqual({ kind: "tool", tool: "grid" });
  });

  it("undoes with Ctrl or ⌘ + Z and redoes with Shift added", () => {
    expect(shortcutOf(key("z", { ctrlKey: true }), false)).toEqual({ kind: "undo" });
    expect(shortcutOf(key("z", { metaKey: true }), false)).toEqual({ kind: "undo" });
    expect(shortcutOf(key("Z", { metaKey: true, shiftKey: true }), false)).toEqual({ kind: "redo" });
  });

  it("rates with 1–4 and saves with Ctrl/⌘ + Enter", () => {
    expect(shortcutOf(key("1"), false)).toEqual({ kind: "level", index: 0 });
    expect(shortcutOf(key("4"), false)).toEqual({ kind: "level", index: 3 });
    expect(shortcutOf(key("5"), false)).toBeNull();
    expect(shortcutOf(key("Enter", { ctrlKey: true }), false)).toEqual({ kind: "save" });
  });

  it("leaves typing alone except for saving", () => {
    expect(shortcutOf(key("p"), true)).toBeNull();
    expect(shortcutOf(key("1"), true)).toBeNull();
    expect(shortcutOf(key("z", { ctrlKey: true }), true)).toBeNull();
    expect(shortcutOf(key("Enter", { metaKey: true }), true)).toEqual({ kind: "save" });
  });

  it("does not take the browser's own shortcuts", () => {
    expect(shortcutOf(key("p", { ctrlKey: true }), false)).toBeNull();
    expect(shortcutOf(key("c", { metaKey: true }), false)).toBeNull();
  });
});
