/**
 * Images of brush writing made on the server: a sheet of practice characters (the demo
 * homework photos) and the share poster. Both are SVG drawn with the brush font's outlines and
 * rasterised by sharp, so nothing depends on the fonts installed on the machine.
 */
import QRCode from "qrcode";
import { loadSharp } from "../../providers/images";

/** The brush font's outlines (opentype.js and the parsed font files), loaded with the first drawing. */
const loadBrushFont = () => import("../../brush-font");

export const PAPER = "#f4ecdb";
export const INK = "#1f1b16";
export const SEAL_RED = "#b3261e";

/** A small deterministic random sequence, so a sheet looks the same on every seed. */
function wobble(seed: number) {
  let s = seed * 9301 + 49297;
  return () => {
    s = (s * 9301 + 49297) % 233280;
    return s / 233280 - 0.5;
  };
}

/**
 * A photo-like sheet: the characters in rows of red 米字格 cells on warm paper, each a little
 * off-centre, off-size and tilted, the whole sheet slightly rotated as if photographed by hand.
 */
export async function practiceSheet(characters: string, seed: number, longSide = 1280): Promise<Buffer> {
  const sharp = await loadSharp();
  const { glyphPath } = await loadBrushFont();
  const chars = [...characters].slice(0, 8);
  const columns = chars.length <= 4 ? 2 : 4;
  const rows = Math.ceil(chars.length / columns);
  const cell = 300;
  const margin = 70;
  const width = columns * cell + margin * 2;
  const height = rows * cell + margin * 2;
  const rnd = wobble(seed);
  const cells = chars.map((char, i) => {
    const x = margin + (i % columns) * cell;
    const y = margin + Math.floor(i / columns) * cell;
    const size = cell * (0.78 + rnd() * 0.12);
    const gx = x + (cell - size) / 2 + rnd() * 18;
    const gy = y + cell / 2 + size * 0.36 + rnd() * 18;
    const tilt = rnd() * 6;
    const grid = `<g stroke="${SEAL_RED}" stroke-opacity="0.7" fill="none">
      <rect x="${x}" y="${y}" width="${cell}" height="${cell}" stroke-width="3"/>
      <g stroke-width="1.5" stroke-dasharray="10 8">
        <line x1="${x}" y1="${y + cell / 2}" x2="${x + cell}" y2="${y + cell / 2}"/>
        <line x1="${x + cell / 2}" y1="${y}" x2="${x + cell / 2}" y2="${y + cell}"/>
        <line x1="${x}" y1="${y}" x2="${x + cell}" y2="${y + cell}"/>
        <line x1="${x + cell}" y1="${y}" x2="${x}" y2="${y + cell}"/>
      </g></g>`;
    const glyph = `<path d="${glyphPath(char, gx, gy, size)}" fill="${INK}" fill-opacity="${0.86 + rnd() * 0.1}"
      transform="rotate(${tilt.toFixed(2)} ${x + cell / 2} ${y + cell / 2})"/>`;
    return grid + glyph;
  });
  const turn = rnd() * 3;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><radialGradient id="light" cx="40%" cy="35%" r="80%">
      <stop offset="0" stop-color="#fbf6ea"/><stop offset="1" stop-color="#e6dbc3"/></radialGradient></defs>
    <rect width="100%" height="100%" fill="#cfc4ad"/>
    <g transform="rotate(${turn.toFixed(2)} ${width / 2} ${height / 2})">
      <rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="url(#light)"/>
      ${cells.join("\n")}
    </g></svg>`;
  return sharp(Buffer.from(svg))
    .resize(longSide, longSide, { fit: "inside" })
    .jpeg({ quality: 82, progressive: true, mozjpeg: true })
    .toBuffer();
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Splits text into at most `maxLines` lines of `perLine` characters, the last one cut with "…". */
export function wrapLines(text: string, perLine: number, maxLines: number): string[] {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  const lines: string[] = [];
  for (let i = 0; i < chars.length && lines.length < maxLines; i += perLine)
    lines.push(chars.slice(i, i + perLine).join(""));
  if (chars.length > perLine * maxLines)
    lines[maxLines - 1] = `${[...lines[maxLines - 1]!].slice(0, perLine - 1).join("")}…`;
  return lines;
}

export interface PosterInput {
  photo: Buffer;
  levelLabel: string;
  comment: string;
  learner: string;
  courseTitle: string;
  shareUrl: string;
  siteName: string;
}

/** The share poster: the photo, the level as a red seal, the teacher's comment and a QR code to the share page. */
export async function sharePoster(input: PosterInput): Promise<Buffer> {
  const sharp = await loadSharp();
  const { textPath } = await loadBrushFont();
  const width = 1080;
  const pad = 60;
  const photo = await sharp(input.photo)
    .resize(width - pad * 2, 1100, { fit: "inside", withoutEnlargement: false })
    .toBuffer({ resolveWithObject: true });
  const photoTop = 150;
  const photoLeft = Math.round((width - photo.info.width) / 2);
  const photoBottom = photoTop + photo.info.height;
  const lines = wrapLines(input.comment, 20, 3);
  const commentTop = photoBottom + 160;
  const qrSize = 220;
  const footerTop = commentTop + lines.length * 62 + 40;
  const height = footerTop + qrSize + pad;

  const title = textPath(input.siteName, pad, 100, 64);
  const commentPaths = lines.map((line, i) => textPath(line, pad, commentTop + i * 62, 46).d);
  const sealSize = 170;
  const sealX = width - pad - sealSize - 20;
  const sealY = photoBottom - sealSize / 2;
  const label = [...input.levelLabel];
  const labelSize = label.length > 1 ? 150 / label.length + 10 : 120;
  const labelPath = textPath(input.levelLabel, 0, 0, labelSize);
  const labelX = sealX + (sealSize - labelPath.width) / 2;
  const labelY = sealY + sealSize / 2 + labelSize * 0.36;
  const label2 = textPath(input.levelLabel, labelX, labelY, labelSize).d;
  const learner = textPath(input.learner, pad, footerTop + 60, 40);
  const course = textPath(input.courseTitle, pad, footerTop + 115, 34).d;
  const hint = textPath("扫码看作品与老师批改", pad, footerTop + 190, 36).d;

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${PAPER}"/>
    <path d="${title.d}" fill="${INK}"/>
    <line x1="${pad}" y1="124" x2="${width - pad}" y2="124" stroke="${INK}" stroke-opacity="0.25" stroke-width="2"/>
    <rect x="${photoLeft - 6}" y="${photoTop - 6}" width="${photo.info.width + 12}" height="${photo.info.height + 12}" fill="#ffffff" stroke="${INK}" stroke-opacity="0.15"/>
    <g transform="rotate(-6 ${sealX + sealSize / 2} ${sealY + sealSize / 2})">
      <rect x="${sealX}" y="${sealY}" width="${sealSize}" height="${sealSize}" rx="14" fill="${SEAL_RED}" fill-opacity="0.92"/>
      <rect x="${sealX + 10}" y="${sealY + 10}" width="${sealSize - 20}" height="${sealSize - 20}" rx="8" fill="none" stroke="${PAPER}" stroke-width="4"/>
      <path d="${label2}" fill="${PAPER}"/>
    </g>
    ${commentPaths.map((d) => `<path d="${d}" fill="${INK}"/>`).join("\n")}
    <path d="${learner.d}" fill="${INK}"/>
    <path d="${course}" fill="${INK}" fill-opacity="0.7"/>
    <path d="${hint}" fill="${SEAL_RED}"/>
    <desc>${escape(input.shareUrl)}</desc>
  </svg>`;
  const qr = await QRCode.toBuffer(input.shareUrl, {
    type: "png",
    margin: 1,
    width: qrSize,
    errorCorrectionLevel: "M",
    color: { dark: "#1f1b16ff", light: "#ffffffff" },
  });
  return sharp(Buffer.from(svg))
    .composite([
      { input: photo.data, top: photoTop, left: photoLeft },
      // The seal goes over the photo's corner: drawn again above it.
      { input: await sealLayer(svg, width, height), top: 0, left: 0 },
      { input: qr, top: footerTop, left: width - pad - qrSize },
    ])
    .flatten({ background: PAPER })
    .jpeg({ quality: 86, progressive: true, mozjpeg: true })
    .toBuffer();
}

/** Only the seal group of the poster, transparent elsewhere, to lay over the photo. */
async function sealLayer(svg: string, width: number, height: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const seal = /<g transform="rotate\(-6[\s\S]*?<\/g>/.exec(svg)?.[0] ?? "";
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${seal}</svg>`))
    .png()
    .toBuffer();
}
