/**
 * Sample lesson videos shipped with the site under /media/video/{key}/ (generated once by
 * scripts/make-sample-videos.sh and committed): an MP4 and an HLS rendition of each, plus a
 * poster. Lessons, public items and live recordings name one of these keys.
 */
export const sampleVideos = {
  yong: { title: "永字八法", durationSeconds: 30 },
  heng: { title: "横画的起行收", durationSeconds: 30 },
  shan: { title: "山字的结构", durationSeconds: 30 },
} as const;
export type SampleVideoKey = keyof typeof sampleVideos;
export const sampleVideoKeys = Object.keys(sampleVideos) as SampleVideoKey[];

export interface VideoSources {
  hls: string;
  mp4: string;
  poster: string;
  /** WebVTT captions (Chinese), for videos that have a transcript: every shipped sample does. */
  captions?: string;
}

/**
 * A lesson's own clip: a title card with the lesson's title and model character (drawn by
 * scripts/make-lesson-cards.ts) in front of one of the samples. Its key names the sample and the
 * card's folder under /media/video/cards/, e.g. "card-heng-01-03" (course 1, lesson 3). The HLS
 * playlist plays the card's own segment and then the sample's segments; the poster is the card;
 * the captions are the sample's, shifted by the card's length.
 */
export const LESSON_CARD_SECONDS = 3;
const cardKeyPattern = /^card-([a-z]+)-(\d{2}-\d{2})$/;

export function lessonCardKey(sample: SampleVideoKey, slug: string): string {
  return `card-${sample}-${slug}`;
}

/** The sample and card folder of a lesson clip's key; null for anything else. */
export function parseLessonCardKey(key: string): { sample: SampleVideoKey; slug: string } | null {
  const match = cardKeyPattern.exec(key);
  if (!match || !Object.hasOwn(sampleVideos, match[1]!)) return null;
  return { sample: match[1] as SampleVideoKey, slug: match[2]! };
}

/** Whether a key names a video this site ships: a sample or a lesson's clip. */
export function isShippedVideoKey(key: string): boolean {
  return Object.hasOwn(sampleVideos, key) || parseLessonCardKey(key) !== null;
}

/** Length in seconds of a shipped video (a lesson clip is its card plus its sample). */
export function shippedVideoSeconds(key: string): number | null {
  const card = parseLessonCardKey(key);
  if (card) return LESSON_CARD_SECONDS + sampleVideos[card.sample].durationSeconds;
  return Object.hasOwn(sampleVideos, key) ? sampleVideos[key as SampleVideoKey].durationSeconds : null;
}

export function videoSources(key: string): VideoSources {
  const card = parseLessonCardKey(key);
  if (card) {
    const base = `/media/video/cards/${card.slug}`;
    return {
      hls: `${base}/index.m3u8`,
      // The progressive fallback is the sample itself: one MP4 per lesson would weigh a hundred
      // times the card (decision 045).
      mp4: `/media/video/${card.sample}/index.mp4`,
      poster: `${base}/poster.jpg`,
      captions: `${base}/captions.vtt`,
    };
  }
  const base = `/media/video/${encodeURIComponent(key)}`;
  const sources: VideoSources = { hls: `${base}/index.m3u8`, mp4: `${base}/index.mp4`, poster: `${base}/poster.jpg` };
  // The shipped samples carry their transcript as captions.vtt beside the video.
  if (Object.hasOwn(sampleVideos, key)) sources.captions = `${base}/captions.vtt`;
  return sources;
}

/** Where uploaded lesson videos are served: /media/lessons/{folder}/index.m3u8, index.mp4, poster.jpg. */
export const UPLOADED_VIDEO_BASE = "/media/lessons";
const UPLOADED_PLAYLIST = /^\/media\/lessons\/([A-Za-z0-9-]{1,80})\/index\.m3u8$/;

/** The folder of an uploaded video's playlist address, or null for any other address. */
export function uploadedVideoFolder(url: string | null): string | null {
  return url ? (UPLOADED_PLAYLIST.exec(url)?.[1] ?? null) : null;
}

export function uploadedVideoSources(folder: string): VideoSources {
  const base = `${UPLOADED_VIDEO_BASE}/${folder}`;
  return { hls: `${base}/index.m3u8`, mp4: `${base}/index.mp4`, poster: `${base}/poster.jpg` };
}

/**
 * A lesson's sources: an upload transcoded here (HLS, MP4 and poster), an HLS address the
 * operator gave (a path of this site: no MP4 rendition or poster of ours), or a shipped sample.
 */
export function lessonSources(key: string, url: string | null): VideoSources {
  const folder = key === "upload" ? uploadedVideoFolder(url) : null;
  if (folder) return uploadedVideoSources(folder);
  return url ? { hls: url, mp4: "", poster: "" } : videoSources(key);
}

export const coverTones = ["ink", "red", "jade", "gold", "indigo"] as const;
export type CoverTone = (typeof coverTones)[number];

export type CoverShape = "landscape" | "portrait" | "square";
/** Pixel size of each generated cover shape (for width/height attributes: no layout shift). */
export const coverSizes: Record<CoverShape, { width: number; height: number }> = {
  landscape: { width: 480, height: 270 },
  portrait: { width: 300, height: 400 },
  square: { width: 400, height: 400 },
};

/** Address of a generated cover: one character on tinted paper (server/cover.ts). */
export function coverUrl(char: string, tone: CoverTone = "ink", shape: CoverShape = "landscape"): string {
  const hex = char.codePointAt(0)?.toString(16) ?? "6c38";
  return `/media/cover/${tone}/${hex}${shape === "landscape" ? "" : `-${shape}`}.svg`;
}

/** An item's cover: the picture an operator uploaded, else the generated one of its character. */
export function coverOf(
  item: { coverChar: string; coverImage?: string | null },
  tone: CoverTone = "ink",
  shape: CoverShape = "landscape",
): string {
  return item.coverImage ?? coverUrl(item.coverChar, tone, shape);
}

/** The HLS playlist of a live stream (the demo broadcaster loops a sample video on every key). */
export function liveStreamUrl(streamKey: string): string {
  return `/broadcast/${encodeURIComponent(streamKey)}/index.m3u8`;
}
