/**
 * Pictures for link previews and the site icon, rasterised on the server (WeChat, Weibo and most
 * previews show no SVG, and /favicon.ico must be an ICO):
 *
 *   /media/share/{tone}/{hex}.jpg   1200×630 JPEG of a generated cover (courses, books, stationery, live)
 *   /media/share/default.jpg        1200×630 JPEG of the site (home, lists, every page without a picture)
 *   /media/share/…-square.jpg       600×600 forms of both, the square picture WeChat prefers
 *   /favicon.ico                    ICO with 16, 32 and 48 px PNG images of the seal
 *
 * The characters are drawn as outlines of the brush font, so nothing depends on the fonts of the
 * machine. Deterministic: made once per node, kept in memory, cached by browsers for a year.
 */
import type { RequestHandler } from "express";
import { glyphPath, loadSharp, textPath } from "../api/index";
import { coverTones, type CoverTone } from "../shared/media";
import { SHARE_IMAGE_SIZE, SQUARE_SHARE_IMAGE_SIZE } from "../shared/seo";
import { glyphCodePoint } from "./glyph";

const palette: Record<CoverTone, { ground: string; ink: string; grid: string }> = {
  ink: { ground: "#f4efe4", ink: "#1f1f1f", grid: "#b9a98a" },
  red: { ground: "#f6e6df", ink: "#5a1712", grid: "#d08a7c" },
  jade: { ground: "#e5efe8", ink: "#1d3b2e", grid: "#8fb09b" },
  gold: { ground: "#f5ecd4", ink: "#4a3512", grid: "#c9ac6a" },
  indigo: { ground: "#e4e8f2", ink: "#1c2746", grid: "#8e9cc2" },
};
const SEAL = "#b8322a";
const PAPER = "#f7f3ea";

function gridSvg(x: number, y: number, size: number, stroke: string): string {
  const h = size / 2;
  return `<g stroke="${stroke}" fill="none">
<rect x="${x - h}" y="${y - h}" width="${size}" height="${size}" stroke-width="3"/>
<g stroke-dasharray="10 10" stroke-width="1.5" opacity="0.7">
<line x1="${x}" y1="${y - h}" x2="${x}" y2="${y + h}"/><line x1="${x - h}" y1="${y}" x2="${x + h}" y2="${y}"/>
<line x1="${x - h}" y1="${y - h}" x2="${x + h}" y2="${y + h}"/><line x1="${x + h}" y1="${y - h}" x2="${x - h}" y2="${y + h}"/>
</g></g>`;
}

/** The share picture: the character in a 米字格 on the left, the site's name and seal on the right. */
async function shareImageSvg(char: string, tone: CoverTone, siteName: string): Promise<string> {
  const { width, height } = SHARE_IMAGE_SIZE;
  const c = palette[tone];
  const box = 480;
  const cx = 330;
  const cy = height / 2;
  const glyphSize = box * 0.86;
  const glyph = glyphPath(char, cx - glyphSize / 2, cy + glyphSize * 0.36, glyphSize);
  const nameSize = Math.min(110, 520 / Math.max(1, [...siteName].length));
  const name = textPath(siteName, 0, 0, nameSize);
  const nameX = 640 + (500 - name.width) / 2;
  const title = textPath(siteName, nameX, 300, nameSize).d;
  const motto = textPath("一笔一画，皆是修行", 0, 0, 44);
  const mottoD = textPath("一笔一画，皆是修行", 640 + (500 - motto.width) / 2, 400, 44).d;
  const seal = textPath("墨池", 0, 0, 40);
  const sealD = textPath("墨池", 1040 + (80 - seal.width) / 2, 520 + 54, 40).d;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="${width}" height="${height}" fill="${c.ground}"/>
${gridSvg(cx, cy, box, c.grid)}
<path d="${glyph}" fill="${c.ink}"/>
<path d="${title}" fill="${c.ink}"/>
<path d="${mottoD}" fill="${c.ink}" fill-opacity="0.75"/>
<rect x="1040" y="520" width="80" height="80" rx="6" fill="${SEAL}"/>
<path d="${sealD}" fill="#fff6ee"/>
</svg>`;
}

/** The square share picture: the character in a 米字格, the site's name and the seal below it. */
async function squareShareImageSvg(char: string, tone: CoverTone, siteName: string): Promise<string> {
  const { width, height } = SQUARE_SHARE_IMAGE_SIZE;
  const c = palette[tone];
  const box = 400;
  const cx = width / 2;
  const cy = 250;
  const glyphSize = box * 0.86;
  const glyph = glyphPath(char, cx - glyphSize / 2, cy + glyphSize * 0.36, glyphSize);
  const nameSize = Math.min(56, 400 / Math.max(1, [...siteName].length));
  const name = textPath(siteName, 0, 0, nameSize);
  const nameX = (width - 70 - name.width) / 2;
  const title = textPath(siteName, nameX, 540, nameSize).d;
  const seal = textPath("墨池", 0, 0, 26);
  const sealX = nameX + name.width + 20;
  const sealD = textPath("墨池", sealX + (52 - seal.width) / 2, 488 + 36, 26).d;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="${width}" height="${height}" fill="${c.ground}"/>
${gridSvg(cx, cy, box, c.grid)}
<path d="${glyph}" fill="${c.ink}"/>
<path d="${title}" fill="${c.ink}"/>
<rect x="${sealX}" y="488" width="52" height="52" rx="4" fill="${SEAL}"/>
<path d="${sealD}" fill="#fff6ee"/>
</svg>`;
}

/** The seal as an icon: a red square, a paper frame and 墨 in the brush hand. */
async function sealIconSvg(size: number): Promise<string> {
  const glyph = glyphPath("墨", 9, 52, 46);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
<rect x="0" y="0" width="64" height="64" rx="8" fill="${SEAL}"/>
<rect x="5" y="5" width="54" height="54" rx="4" fill="none" stroke="${PAPER}" stroke-width="2.5"/>
<path d="${glyph}" fill="${PAPER}"/>
</svg>`;
}

/** An ICO file whose images are PNGs (allowed since Windows Vista, read by every browser). */
function icoFromPngs(images: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  const entries: Buffer[] = [];
  let offset = 6 + 16 * images.length;
  for (const { size, png } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function faviconIco(): Promise<Buffer> {
  const sharp = await loadSharp();
  const sizes = [16, 32, 48];
  const images = await Promise.all(
    sizes.map(async (size) => ({
      size,
      png: await sharp(Buffer.from(await sealIconSvg(size)))
        .png()
        .toBuffer(),
    })),
  );
  return icoFromPngs(images);
}

async function jpeg(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).jpeg({ quality: 84, progressive: true, mozjpeg: true }).toBuffer();
}

/** At most this many share pictures are kept per node (about 40 KB each). */
const MAX_KEPT = 300;

/** Made once, then kept: the oldest is dropped past MAX_KEPT. Failures are not kept. */
class Kept {
  private readonly made = new Map<string, Promise<Buffer>>();
  get(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    let found = this.made.get(key);
    if (!found) {
      found = make();
      this.made.set(key, found);
      found.catch(() => this.made.delete(key));
      if (this.made.size > MAX_KEPT) {
        const oldest = this.made.keys().next();
        if (!oldest.done) this.made.delete(oldest.value);
      }
    }
    return found;
  }
}

export function shareImageHandlers(siteName: string): { share: RequestHandler; favicon: RequestHandler } {
  const kept = new Kept();
  const send = (res: Parameters<RequestHandler>[1], type: string, body: Buffer) => {
    res.type(type).setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.send(body);
  };
  const share: RequestHandler = (req, res, next) => {
    const file = String(req.params.file ?? "");
    const tone = String(req.params.tone ?? "default");
    let key: string;
    let make: () => Promise<Buffer>;
    if (tone === "default" && (file === "default.jpg" || file === "default-square.jpg")) {
      key = file;
      const draw = file === "default.jpg" ? shareImageSvg : squareShareImageSvg;
      make = async () => jpeg(await draw("墨", "ink", siteName));
    } else {
      const m = /^([0-9a-f]{4,5})(-square)?\.jpg$/.exec(file);
      const cp = m?.[1] ? glyphCodePoint(`${m[1]}.svg`) : null;
      if (!coverTones.includes(tone as CoverTone) || cp === null) {
        res.status(404).type("text/plain").send("Not Found");
        return;
      }
      key = `${tone}/${file}`;
      const draw = m?.[2] ? squareShareImageSvg : shareImageSvg;
      make = async () => jpeg(await draw(String.fromCodePoint(cp), tone as CoverTone, siteName));
    }
    kept.get(key, make).then((body) => send(res, "image/jpeg", body), next);
  };
  const favicon: RequestHandler = (_req, res, next) => {
    kept.get("favicon.ico", faviconIco).then((body) => {
      res.type("image/x-icon").setHeader("Cache-Control", "public, max-age=86400");
      res.send(body);
    }, next);
  };
  return { share, favicon };
}

/** Site paths a QR code may point at: a page of ours, never another host. */
const QR_PATH = /^\/(?!\/)[A-Za-z0-9/_.~%?=&-]{0,200}$/;

/**
 * `/media/qr.svg?path=/video/12`: a QR code of that page on the mobile site when there is one
 * (MOBILE_SITE_URL), else on this site — "continue on your phone". Only our own addresses.
 */
export function qrCodeHandler(target: string): RequestHandler {
  const kept = new Map<string, string>();
  const base = target.replace(/\/+$/, "");
  return async (req, res, next) => {
    const path = typeof req.query.path === "string" ? req.query.path : "";
    if (!QR_PATH.test(path)) {
      res.status(404).type("text/plain").send("Not Found");
      return;
    }
    try {
      let svg = kept.get(path);
      if (!svg) {
        const { default: QRCode } = await import("qrcode");
        svg = await QRCode.toString(base + path, {
          type: "svg",
          margin: 1,
          color: { dark: "#222222", light: "#fffdf8" },
        });
        kept.set(path, svg);
        if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      }
      res.type("image/svg+xml").setHeader("Cache-Control", "public, max-age=86400");
      res.send(svg);
    } catch (err) {
      next(err);
    }
  };
}
