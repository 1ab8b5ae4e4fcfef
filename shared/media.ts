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
}

export function videoSources(key: string): VideoSources {
  const base = `/media/video/${encodeURIComponent(key)}`;
  return { hls: `${base}/index.m3u8`, mp4: `${base}/index.mp4`, poster: `${base}/poster.jpg` };
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

/** The HLS playlist of a live stream (the demo broadcaster loops a sample video on every key). */
export function liveStreamUrl(streamKey: string): string {
  return `/broadcast/${encodeURIComponent(streamKey)}/index.m3u8`;
}
