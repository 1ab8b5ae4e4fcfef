/**
 * Whether this machine can transcode an uploaded lesson video to HLS: an `ffmpeg` executable named
 * by FFMPEG_PATH or found on PATH (and `ffprobe` beside it). Without one, uploads are refused with
 * advice (give an address instead); nothing is accepted that would then wait forever for an encoder.
 */
import { accessSync, constants } from "node:fs";
import path from "node:path";
import { NO_ENCODER_MESSAGE, type EncoderStatus } from "../../../shared/contracts/admin-catalogue";
import type { VideoSettings } from "../../context";

/** The default video settings: from the process environment (a context built by hand has none). */
export function videoSettingsOf(settings: VideoSettings | undefined): VideoSettings {
  return (
    settings ?? {
      ffmpegPath: process.env.FFMPEG_PATH || undefined,
      searchPath: process.env.PATH ?? "",
      uploadMaxBytes: Number(process.env.VIDEO_UPLOAD_MAX_MB || 2048) * 2 ** 20,
    }
  );
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface Encoder {
  ffmpeg: string;
  ffprobe: string;
}

/** ffmpeg and the ffprobe of the same folder (or of PATH), or null when either is missing. */
export function findEncoder(settings?: VideoSettings): Encoder | null {
  const { ffmpegPath, searchPath } = videoSettingsOf(settings);
  const dirs = searchPath.split(path.delimiter).filter(Boolean);
  const ffmpeg = ffmpegPath ? [ffmpegPath] : dirs.map((dir) => path.join(dir, "ffmpeg"));
  const found = ffmpeg.find(executable);
  if (!found) return null;
  const probes = [path.join(path.dirname(found), "ffprobe"), ...dirs.map((dir) => path.join(dir, "ffprobe"))];
  const ffprobe = probes.find(executable);
  return ffprobe ? { ffmpeg: found, ffprobe } : null;
}

export function encoderStatus(settings?: VideoSettings): EncoderStatus {
  return findEncoder(settings)
    ? { available: true, message: "已找到视频转码器" }
    : { available: false, message: NO_ENCODER_MESSAGE };
}
