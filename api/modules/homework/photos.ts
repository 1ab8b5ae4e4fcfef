/**
 * Homework photos: the bytes must be a JPEG, PNG, WebP or HEIC/HEIF by their magic numbers,
 * whatever the request claims (everything else: 415); HEIC is decoded in a worker thread
 * (`heic.ts`, decision 073) and then treated like the rest; the dimensions are read from the header and a
 * pixel flood is refused before anything is decoded; the picture is turned upright by its EXIF
 * orientation and re-encoded twice (display, long side ≤ 2048; thumbnail, long side 480) as
 * progressive JPEG without any metadata, so no location or camera data is ever kept or served.
 */
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import {
  HOMEWORK_BROKEN_HEIC,
  HOMEWORK_PHOTO_MAX_BYTES,
  HOMEWORK_PHOTO_MAX_PIXELS,
  HOMEWORK_UNSUPPORTED_TYPE,
  HOMEWORK_UPLOAD_LONG_SIDE,
} from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { ApiError, rawUpload } from "../../http";
import { enforce } from "../../rate-limit";
import { requireAuth } from "../auth/guard";
import { sniffImageFormat } from "../../images";
import { loadSharp } from "../../providers/images";
import { decodeHeic, isHeif } from "./heic";

export const DISPLAY_LONG_SIDE = HOMEWORK_UPLOAD_LONG_SIDE;
export const THUMB_LONG_SIDE = 480;

export interface ProcessedPhoto {
  width: number;
  height: number;
  display: Buffer;
  thumbWidth: number;
  thumbHeight: number;
  thumb: Buffer;
}

export const unsupportedPhoto = () => new ApiError(415, "unsupported_media_type", HOMEWORK_UNSUPPORTED_TYPE);
const brokenPhoto = () => new ApiError(400, "invalid_image", "照片已损坏或无法识别，请重新拍一张");
const brokenHeic = () => new ApiError(400, "invalid_image", HOMEWORK_BROKEN_HEIC);
const floodPhoto = () =>
  new ApiError(
    400,
    "image_too_large",
    `照片像素太多（超过 ${HOMEWORK_PHOTO_MAX_PIXELS / 1_000_000} 百万像素），请缩小后再上传`,
  );

/** 128 random bits, URL-safe: a photo's id can be neither guessed nor counted. */
export function newPhotoId(): string {
  return randomBytes(16).toString("base64url");
}

export const PHOTO_ID = /^[A-Za-z0-9_-]{22}$/;

/** Checks an upload and makes the display image and thumbnail that are kept instead of it. */
export async function processPhoto(upload: Buffer): Promise<ProcessedPhoto> {
  const sharp = await loadSharp();
  const heif = isHeif(upload);
  const format = heif ? "heif" : sniffImageFormat(upload);
  if (!format) throw unsupportedPhoto();
  const broken = heif ? brokenHeic : brokenPhoto;
  let width: number | undefined;
  let height: number | undefined;
  let compression: string | undefined;
  try {
    // The header only: a 30 000 × 30 000 PNG of a few KB stops here, undecoded.
    const meta = await sharp(upload, { limitInputPixels: false, failOn: "error" }).metadata();
    if (meta.format !== format) throw broken();
    ({ width, height, compression } = meta);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw broken();
  }
  if (!width || !height) throw broken();
  if (width * height > HOMEWORK_PHOTO_MAX_PIXELS) throw floodPhoto();
  const options = { limitInputPixels: HOMEWORK_PHOTO_MAX_PIXELS, failOn: "error" } as const;
  let source: ReturnType<typeof sharp>;
  if (heif && compression !== "av1") {
    // HEVC, which libvips here cannot decode: raw pixels from the worker, already turned upright
    // by the file's own rotation and mirror boxes (HEIC keeps no EXIF orientation to apply).
    let decoded;
    try {
      decoded = await decodeHeic(upload);
    } catch {
      throw brokenHeic();
    }
    if (decoded.width * decoded.height > HOMEWORK_PHOTO_MAX_PIXELS) throw floodPhoto();
    source = sharp(decoded.data, {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
      limitInputPixels: HOMEWORK_PHOTO_MAX_PIXELS,
    });
  } else {
    source = sharp(upload, options).rotate();
  }
  try {
    // Upright first (EXIF orientation 5–8 swap the sides), then sized; sharp writes no metadata
    // unless asked to, so EXIF (GPS included), XMP and ICC comments are all left behind.
    const display = await source
      .resize(DISPLAY_LONG_SIDE, DISPLAY_LONG_SIDE, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 84, progressive: true, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumb = await sharp(display.data)
      .resize(THUMB_LONG_SIDE, THUMB_LONG_SIDE, { fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 78, progressive: true, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return {
      width: display.info.width,
      height: display.info.height,
      display: display.data,
      thumbWidth: thumb.info.width,
      thumbHeight: thumb.info.height,
      thumb: thumb.data,
    };
  } catch {
    throw broken();
  }
}

const MAX_MB = HOMEWORK_PHOTO_MAX_BYTES / 1024 / 1024;

/**
 * Route middleware for a photo upload (homework, the practice diary): counts the upload against
 * the learner's hourly limit before the bytes are read, then reads them whole (413 in plain words
 * beyond the limit). The handler then passes `req.body` to `processPhoto`.
 */
export function photoUploadReader(
  ctx: ApiContext,
  limit: { key: (userId: number) => string; perHour: number },
): RequestHandler[] {
  const rawPhoto = rawUpload("image", HOMEWORK_PHOTO_MAX_BYTES);
  return [
    (req: Request, res: Response, next: NextFunction) => {
      const { user } = requireAuth(req, res);
      enforce(
        ctx.database,
        [{ key: limit.key(user.id), max: limit.perHour, windowSeconds: 3600, message: "上传照片太频繁了，请稍后再试" }],
        ctx.now(),
      ).then(() => next(), next);
    },
    (req: Request, res: Response, next: NextFunction) =>
      rawPhoto(req, res, (err?: unknown) => {
        if ((err as { type?: string } | undefined)?.type === "entity.too.large")
          return next(new ApiError(413, "payload_too_large", `照片不能超过 ${MAX_MB} MB，请压缩后再上传`));
        next(err);
      }),
  ];
}
