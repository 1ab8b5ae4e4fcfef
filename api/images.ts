/**
 * Uploaded pictures the site shows (avatars, catalogue covers; reference §1 uploads, §6 case 20):
 * the bytes must be a JPEG, PNG or WebP by their magic numbers, whatever the request claims; the
 * size is read from the header before anything is decoded (pixel floods); then the picture is
 * decoded and re-encoded as WebP, which drops EXIF (location, camera) and anything smuggled beside
 * the pixels. Homework photos are only sniffed here (their pipeline is the homework module's).
 */
import { AVATAR_MAX_PIXELS, AVATAR_MAX_SIDE } from "../shared/contracts/me";
import { ApiError } from "./http";
import { loadSharp } from "./providers/images";

export type ImageFormat = "jpeg" | "png" | "webp";

const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

/** The format the bytes themselves announce, or null for anything else (HTML, SVG, scripts…). */
export function sniffImageFormat(buf: Buffer): ImageFormat | null {
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  // RIFF <size> WEBP
  if (startsWith(buf, [0x52, 0x49, 0x46, 0x46]) && startsWith(buf, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

export const unsupportedImage = (what = "头像") =>
  new ApiError(415, "unsupported_media_type", `${what}只支持 JPEG、PNG 或 WebP 格式的图片`);
const brokenImage = () => new ApiError(400, "invalid_image", "图片已损坏或无法识别，请换一张");
const oversizedImage = () =>
  new ApiError(
    400,
    "image_too_large",
    `图片尺寸太大，请选择边长不超过 ${AVATAR_MAX_SIDE} 像素、总像素不超过 ${AVATAR_MAX_PIXELS / 1_000_000} 百万的图片`,
  );

export interface ImageTarget {
  width: number;
  height: number;
  /** What the picture is, for the refusal of a wrong format ("头像", "封面"). */
  what: string;
}

/**
 * The one upload pipeline for pictures the site shows (avatars, catalogue covers): format by the
 * bytes, size from the header before decoding, then upright, cropped to `target` and re-encoded
 * as WebP without metadata.
 */
export async function reencodeImage(upload: Buffer, target: ImageTarget): Promise<Buffer> {
  const sharp = await loadSharp();
  const format = sniffImageFormat(upload);
  if (!format) throw unsupportedImage(target.what);
  const options = { limitInputPixels: AVATAR_MAX_PIXELS, failOn: "error" } as const;
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reads the header only (no pixel limit needed, nothing is decoded): a 20 000 × 20 000
    // PNG of a few KB stops here with a clear message.
    const meta = await sharp(upload, { limitInputPixels: false, failOn: "error" }).metadata();
    if (meta.format !== format) throw brokenImage();
    ({ width, height } = meta);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw brokenImage();
  }
  if (!width || !height) throw brokenImage();
  if (width > AVATAR_MAX_SIDE || height > AVATAR_MAX_SIDE || width * height > AVATAR_MAX_PIXELS) throw oversizedImage();
  try {
    return await sharp(upload, options)
      .rotate() // upright by its EXIF orientation before the EXIF goes
      .resize(target.width, target.height, { fit: "cover" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw brokenImage();
  }
}
