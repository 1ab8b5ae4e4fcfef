/**
 * Generated cover pictures (480×270 or 300×400 SVG): one large character over a tinted paper
 * ground with a 米字格 frame and a small seal, so every course, book, commodity and live lesson
 * has a picture without hot-linking anything. Deterministic, hence cached for a year.
 *
 *   /media/cover/{tone}/{hex}.svg         landscape (courses, live, banners)
 *   /media/cover/{tone}/{hex}-portrait.svg portrait (books)
 *   /media/cover/{tone}/{hex}-square.svg   square (stationery)
 */
import type { RequestHandler } from "express";
import { coverTones, type CoverTone } from "../shared/media";
import { centredGlyphPath } from "../api/index";
import { BRUSH_FALLBACK_FONTS, glyphCodePoint } from "./glyph";

const palette: Record<CoverTone, { ground: string; ink: string; grid: string; seal: string }> = {
  ink: { ground: "#f4efe4", ink: "#1f1f1f", grid: "#b9a98a", seal: "#b8322a" },
  red: { ground: "#f6e6df", ink: "#5a1712", grid: "#d08a7c", seal: "#b8322a" },
  jade: { ground: "#e5efe8", ink: "#1d3b2e", grid: "#8fb09b", seal: "#b8322a" },
  gold: { ground: "#f5ecd4", ink: "#4a3512", grid: "#c9ac6a", seal: "#b8322a" },
  indigo: { ground: "#e4e8f2", ink: "#1c2746", grid: "#8e9cc2", seal: "#b8322a" },
};

const shapes = { landscape: [480, 270], portrait: [300, 400], square: [400, 400] } as const;
type Shape = keyof typeof shapes;

export function coverSvg(char: string, tone: CoverTone, shape: Shape): string {
  const [w, h] = shapes[shape];
  const c = palette[tone];
  const size = Math.min(w, h) * 0.78;
  const x = shape === "landscape" ? w * 0.36 : w / 2;
  const y = h / 2;
  const half = size / 2;
  // The model character in the brush hand (Ma Shan Zheng) as a path, never a print face.
  const brush = centredGlyphPath(char, x, y, size * 0.74);
  const seal = `${centredGlyphPath("墨", 20, 11, 15)} ${centredGlyphPath("池", 20, 28, 15)}`.trim();
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${char}">
<rect width="${w}" height="${h}" fill="${c.ground}"/>
<g stroke="${c.grid}" fill="none">
<rect x="${x - half}" y="${y - half}" width="${size}" height="${size}" stroke-width="2"/>
<g stroke-dasharray="6 6" stroke-width="1" opacity="0.7">
<line x1="${x}" y1="${y - half}" x2="${x}" y2="${y + half}"/><line x1="${x - half}" y1="${y}" x2="${x + half}" y2="${y}"/>
<line x1="${x - half}" y1="${y - half}" x2="${x + half}" y2="${y + half}"/><line x1="${x + half}" y1="${y - half}" x2="${x - half}" y2="${y + half}"/>
</g></g>
${
  brush
    ? `<path d="${brush}" fill="${c.ink}"/>`
    : `<text x="${x}" y="${y + 2}" text-anchor="middle" dominant-baseline="central" font-size="${size * 0.8}" fill="${c.ink}" font-family="${BRUSH_FALLBACK_FONTS}">${char}</text>`
}
<g transform="translate(${w - 58} ${h - 58})"><rect width="40" height="40" rx="4" fill="${c.seal}"/>
<path d="${seal}" fill="#fff6ee"/></g>
</svg>`;
}

export const coverHandler: RequestHandler = (req, res) => {
  const tone = String(req.params.tone ?? "") as CoverTone;
  const m = /^([0-9a-f]{4,5})(?:-(portrait|square))?\.svg$/.exec(String(req.params.file ?? ""));
  const cp = m?.[1] ? glyphCodePoint(`${m[1]}.svg`) : null;
  if (!coverTones.includes(tone) || !m || cp === null) {
    res.status(404).type("text/plain").send("Not Found");
    return;
  }
  const shape: Shape = (m[2] as Shape | undefined) ?? "landscape";
  res.type("image/svg+xml").setHeader("Cache-Control", "public, max-age=31536000, immutable");
  res.send(coverSvg(String.fromCodePoint(cp), tone, shape));
};
