/**
 * The demo broadcaster, mounted at /broadcast when BROADCAST_ORIGIN is not set: every stream key
 * is a live HLS stream that loops one of the sample videos (media/video/{key}/seg-NNN.ts) on the
 * wall clock, so a live lesson page always has something playing.
 *
 *   GET /broadcast/{streamKey}/index.m3u8   live playlist: the last few segments, no ENDLIST
 *   GET /broadcast/{streamKey}/seg/{m}.ts   media sequence m → sample segment m mod N
 *
 * Segment m covers [m·D, (m+1)·D) seconds of Unix time; the playlist's newest entry is the segment
 * of the current moment. Sequence numbers only grow, so every segment URL names one moment and
 * may be cached. Each pass through the loop starts with an EXT-X-DISCONTINUITY (the timestamps
 * jump back to the start of the sample); the discontinuity sequence of segment m is floor(m / N).
 */
import path from "node:path";
import express, { type Router } from "express";
import { type SampleVideoKey, sampleVideoKeys } from "../shared/media";

const STREAM_KEY = /^[a-z0-9-]{3,40}$/;

export interface LiveLoop {
  /** Seconds per segment (the samples are cut every 3 s). */
  segmentSeconds: number;
  /** Segments in one pass of the sample. */
  segmentCount: number;
  /** Segments listed in the playlist. */
  window: number;
  /** How long a segment stays fetchable after its moment, in seconds. */
  keepSeconds: number;
}

export const defaultLiveLoop: LiveLoop = { segmentSeconds: 3, segmentCount: 10, window: 4, keepSeconds: 60 };

/** FNV-1a (32 bit): a stable hash, the same on every node and every start. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The sample video a stream loops: chosen by the stream key, always the same one. */
export function sampleForStream(streamKey: string): SampleVideoKey {
  const key = sampleVideoKeys[fnv1a(streamKey) % sampleVideoKeys.length];
  if (!key) throw new Error("no sample videos");
  return key;
}

/** The media sequence number of the segment playing at nowMs. */
export function currentSequence(nowMs: number, loop: LiveLoop = defaultLiveLoop): number {
  return Math.max(0, Math.floor(nowMs / 1000 / loop.segmentSeconds));
}

/** A segment that begins a new pass through the sample (the very first one does not). */
function startsLoop(sequence: number, loop: LiveLoop): boolean {
  return sequence > 0 && sequence % loop.segmentCount === 0;
}

/**
 * The live playlist at nowMs: segments m-window+1 … m. EXT-X-DISCONTINUITY-SEQUENCE counts the
 * loop starts before the first listed segment (its own, if it starts a loop, is the tag in the
 * list), so every segment keeps the discontinuity number floor(m / N) from one reload to the next.
 */
export function livePlaylist(nowMs: number, loop: LiveLoop = defaultLiveLoop): string {
  const last = currentSequence(nowMs, loop);
  const first = Math.max(0, last - loop.window + 1);
  const discontinuitySequence = first === 0 ? 0 : Math.floor((first - 1) / loop.segmentCount);
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    `#EXT-X-TARGETDURATION:${Math.ceil(loop.segmentSeconds)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuitySequence}`,
  ];
  for (let m = first; m <= last; m++) {
    if (startsLoop(m, loop)) lines.push("#EXT-X-DISCONTINUITY");
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(m * loop.segmentSeconds * 1000).toISOString()}`);
    lines.push(`#EXTINF:${loop.segmentSeconds.toFixed(3)},`, `seg/${m}.ts`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Which sample segment (0 … N-1) media sequence `sequence` plays, or null when it cannot be
 * fetched at nowMs: in the future, or older than keepSeconds.
 */
export function liveSegmentIndex(sequence: number, nowMs: number, loop: LiveLoop = defaultLiveLoop): number | null {
  if (!Number.isSafeInteger(sequence) || sequence < 0) return null;
  const current = currentSequence(nowMs, loop);
  if (sequence > current) return null;
  if ((current - sequence) * loop.segmentSeconds > loop.keepSeconds) return null;
  return sequence % loop.segmentCount;
}

/** The file of a sample's HLS segment, as scripts/make-sample-videos.sh names it. */
export function sampleSegmentFile(mediaDir: string, sample: SampleVideoKey, index: number): string {
  return path.join(mediaDir, "video", sample, `seg-${String(index).padStart(3, "0")}.ts`);
}

export interface BroadcasterOptions {
  /** Where video/{key}/seg-NNN.ts live (config.mediaDir). */
  mediaDir: string;
  /** Wall clock in milliseconds; tests pass their own. */
  now?: () => number;
  loop?: LiveLoop;
}

export function createBroadcaster({ mediaDir, now = Date.now, loop = defaultLiveLoop }: BroadcasterOptions): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  const notFound = (res: express.Response) => {
    res.setHeader("Cache-Control", "no-store");
    res.status(404).type("text/plain").send("Not Found");
  };

  router.get("/:streamKey/index.m3u8", (req, res) => {
    if (!STREAM_KEY.test(req.params.streamKey)) return notFound(res);
    res.setHeader("Content-Type", "application/vnd.apple.mpegurl");
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.send(livePlaylist(now(), loop));
  });

  router.get("/:streamKey/seg/:file", (req, res, next) => {
    const streamKey = req.params.streamKey;
    const sequence = /^(0|[1-9][0-9]{0,14})\.ts$/.exec(req.params.file)?.[1];
    if (!STREAM_KEY.test(streamKey) || sequence === undefined) return notFound(res);
    const index = liveSegmentIndex(Number(sequence), now(), loop);
    if (index === null) return notFound(res);
    res.sendFile(
      sampleSegmentFile(mediaDir, sampleForStream(streamKey), index),
      {
        cacheControl: false,
        headers: {
          "Content-Type": "video/mp2t",
          "Cache-Control": `public, max-age=${loop.keepSeconds}`,
          "X-Content-Type-Options": "nosniff",
        },
      },
      (err?: Error & { code?: string; status?: number }) => {
        if (!err || err.code === "ECONNABORTED") return; // sent, or the player went away
        if (res.headersSent) res.destroy();
        else if (err.code === "ENOENT" || err.status === 404) notFound(res);
        else next(err);
      },
    );
  });

  // Anything else under /broadcast: a plain 404, never a page.
  router.use((_req, res) => notFound(res));
  return router;
}
