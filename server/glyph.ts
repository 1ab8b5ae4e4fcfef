/**
 * Generated practice sheets: one CJK character on rice paper over a 米字格 grid, as SVG.
 * Used wherever the site needs a picture of a character (practice cards, placeholders), so no
 * image is ever hot-linked. Deterministic, hence cached for a year.
 */
import type { RequestHandler } from "express";
import { centredGlyphPath } from "../api/index";

/** Only for a character the brush font lacks: brush-like system faces, never a Song/serif one. */
export const BRUSH_FALLBACK_FONTS = "'Ma Shan Zheng','STXingkai','STKaiti','KaiTi','Kaiti SC',cursive";

const CJK_RANGES: Array<[number, number]> = [
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xf900, 0xfaff],
  [0x20000, 0x2fa1f],
];

export function glyphCodePoint(file: string): number | null {
  const m = /^([0-9a-f]{4,5})\.svg$/.exec(file);
  if (!m?.[1]) return null;
  const cp = Number.parseInt(m[1], 16);
  return CJK_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? cp : null;
}

export function glyphSvg(char: string): string {
  const grid = "#c9453a";
  // The model character in the brush hand (Ma Shan Zheng, SIL OFL) as a path.
  const brush = centredGlyphPath(char, 100, 100, 140);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img" aria-label="${char}">
<rect width="200" height="200" fill="#f7f3ea"/>
<rect x="6" y="6" width="188" height="188" fill="none" stroke="${grid}" stroke-width="2"/>
<g stroke="${grid}" stroke-width="1" stroke-dasharray="6 5" opacity="0.55">
<line x1="100" y1="6" x2="100" y2="194"/><line x1="6" y1="100" x2="194" y2="100"/>
<line x1="6" y1="6" x2="194" y2="194"/><line x1="194" y1="6" x2="6" y2="194"/>
</g>
${
  brush
    ? `<path d="${brush}" fill="#222"/>`
    : `<text x="100" y="103" text-anchor="middle" dominant-baseline="central" font-size="150" fill="#222" font-family="${BRUSH_FALLBACK_FONTS}">${char}</text>`
}
</svg>`;
}

export const glyphHandler: RequestHandler = (req, res) => {
  const cp = glyphCodePoint(String(req.params.file ?? ""));
  if (cp === null) {
    res.status(404).type("text/plain").send("Not Found");
    return;
  }
  res.type("image/svg+xml").setHeader("Cache-Control", "public, max-age=31536000, immutable");
  res.send(glyphSvg(String.fromCodePoint(cp)));
};
