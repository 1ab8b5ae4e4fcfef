/**
 * Characters in the Ma Shan Zheng brush hand (SIL Open Font License, from @fontsource) as SVG
 * paths, for images made on the server: demo homework photos and share posters. Fontsource ships
 * the font in unicode-range subsets; a character's subset is found in its unicode.json and each
 * subset file is parsed once, when first needed.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import opentype from "opentype.js";

const require = createRequire(import.meta.url);
const fontDir = path.dirname(require.resolve("@fontsource/ma-shan-zheng/unicode.json"));

let ranges: Array<{ subset: string; from: number; to: number }> | null = null;
const fonts = new Map<string, opentype.Font>();

function subsetRanges() {
  if (ranges) return ranges;
  const table = JSON.parse(readFileSync(path.join(fontDir, "unicode.json"), "utf8")) as Record<string, string>;
  ranges = Object.entries(table).flatMap(([key, list]) => {
    const subset = key.replace(/^\[|\]$/g, "");
    return list.split(",").map((part) => {
      const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
      return { subset, from: parseInt(from!, 16), to: parseInt(to ?? from!, 16) };
    });
  });
  return ranges;
}

function fontFor(char: string): opentype.Font | null {
  const code = char.codePointAt(0)!;
  const range = subsetRanges().find((r) => code >= r.from && code <= r.to);
  if (!range) return null;
  let font = fonts.get(range.subset);
  if (!font) {
    const file = readFileSync(path.join(fontDir, "files", `ma-shan-zheng-${range.subset}-400-normal.woff`));
    font = opentype.parse(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
    fonts.set(range.subset, font);
  }
  return font;
}

/** One character's outline at `size` px with its baseline-left at (x, y); "" when the font lacks it. */
export function glyphPath(char: string, x: number, y: number, size: number): string {
  const font = fontFor(char);
  const glyph = font?.charToGlyph(char);
  if (!glyph || glyph.index === 0) return "";
  return glyph.getPath(x, y, size).toPathData(1);
}

/**
 * One character's outline at `size` px, its ink centred on (cx, cy); "" when the font lacks it
 * (callers then fall back to a brush-like system face).
 */
export function centredGlyphPath(char: string, cx: number, cy: number, size: number): string {
  const font = fontFor(char);
  const glyph = font?.charToGlyph(char);
  if (!glyph || glyph.index === 0) return "";
  const box = glyph.getPath(0, 0, size).getBoundingBox();
  const x = cx - (box.x1 + box.x2) / 2;
  const y = cy - (box.y1 + box.y2) / 2;
  return glyph.getPath(x, y, size).toPathData(1);
}

/** A line of text as one path, each character advanced by its own width; returns the path and its width. */
export function textPath(text: string, x: number, y: number, size: number): { d: string; width: number } {
  let cursor = x;
  const parts: string[] = [];
  for (const char of text) {
    const font = fontFor(char);
    const glyph = font?.charToGlyph(char);
    if (!font || !glyph || glyph.index === 0) {
      cursor += size * 0.5;
      continue;
    }
    parts.push(glyph.getPath(cursor, y, size).toPathData(1));
    cursor += ((glyph.advanceWidth ?? font.unitsPerEm) / font.unitsPerEm) * size;
  }
  return { d: parts.join(" "), width: cursor - x };
}
