/**
 * What container an uploaded lesson video is, by its first bytes (docs/decisions/070): the
 * ISO/QuickTime box family (MP4, MOV, M4V, 3GP), Matroska/WebM, AVI, MPEG transport streams and
 * MPEG program streams. Anything else (a playlist, a concat or SDP file, text, HTML, a picture, an
 * empty or cut-short header) is no lesson video, whatever its name or declared type. The answer
 * names the one ffmpeg demuxer that may read the file: none of them follows references to other
 * files, so the transcoder reads only the uploaded bytes.
 */

/** How many leading bytes the check needs (three 188-byte transport packets fit). */
export const VIDEO_HEAD_BYTES = 4096;

/** ffmpeg's demuxer for each accepted container. */
export type VideoDemuxer = "mov" | "matroska" | "avi" | "mpegts" | "mpeg";

export const UNSUPPORTED_VIDEO_MESSAGE =
  "只能上传 MP4、MOV、WebM、MKV、AVI 或 MPEG（含 TS）视频文件：这个文件的内容不是其中任何一种，请换一个文件上传。";

const ascii = (buf: Buffer, offset: number, length: number) =>
  buf.length >= offset + length ? buf.toString("latin1", offset, offset + length) : "";

/** Boxes a QuickTime or MP4 file may open with (QuickTime writers often start with `wide` or `mdat`). */
const LEADING_BOXES = new Set(["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"]);
/** `ftyp` brands of still pictures (HEIF, AVIF, JPEG 2000) and of Canon raw photos. */
const STILL_BRANDS = /^(hei[cmsx]|hev[cmsx]|mif[12]|msf1|avi[fos]|jp2 |jpx |jpm |crx )$/;

function isoBoxes(buf: Buffer): VideoDemuxer | null {
  const type = ascii(buf, 4, 4);
  if (!LEADING_BOXES.has(type)) return null;
  const size = buf.readUInt32BE(0);
  if (size === 1) {
    // A 64-bit size follows the type.
    if (buf.length < 16 || buf.readBigUInt64BE(8) < 16n) return null;
  } else if (size === 0) {
    // The box runs to the end of the file: only the media data may.
    if (type !== "mdat") return null;
  } else if (size < 8) return null;
  if (type !== "ftyp") return "mov";
  // The whole ftyp box (major brand, version, compatible brands) must be there.
  if (size < 16 || size > 4096 || buf.length < size) return null;
  return STILL_BRANDS.test(ascii(buf, 8, 4)) ? null : "mov";
}

/** EBML header with a DocType of `matroska` or `webm` (element 0x4282, a one-byte length). */
function ebml(buf: Buffer): VideoDemuxer | null {
  if (buf.length < 16 || buf.readUInt32BE(0) !== 0x1a45dfa3) return null;
  const header = buf.subarray(0, Math.min(buf.length, 128));
  for (let i = 4; i + 3 < header.length; i++) {
    if (header[i] !== 0x42 || header[i + 1] !== 0x82) continue;
    const length = header[i + 2]! & 0x7f;
    if (!(header[i + 2]! & 0x80)) return null;
    const docType = ascii(header, i + 3, length);
    return docType === "matroska" || docType === "webm" ? "matroska" : null;
  }
  return null;
}

/** Three transport packets in a row: 188 bytes apart, or 192 for M2TS's timestamped packets. */
function transportStream(buf: Buffer): VideoDemuxer | null {
  for (const [start, step] of [
    [0, 188],
    [4, 192],
  ] as const) {
    if ([0, 1, 2].every((n) => buf[start + n * step] === 0x47)) return "mpegts";
  }
  return null;
}

/** The demuxer for the container the bytes announce, or null when they are no video container. */
export function sniffVideoContainer(head: Buffer): VideoDemuxer | null {
  if (head.length < 12) return null;
  if (ascii(head, 0, 4) === "RIFF") return ascii(head, 8, 4) === "AVI " ? "avi" : null;
  // An MPEG program stream opens with a pack header.
  if (head.readUInt32BE(0) === 0x000001ba) return head.length >= 14 ? "mpeg" : null;
  return ebml(head) ?? isoBoxes(head) ?? transportStream(head);
}
