/** schema.org VideoObject for the pages that show a video (lesson, public lesson, replay). */
import { isoDuration } from "../../../shared/contracts/learning";

export function videoObject(video: {
  name: string;
  description: string;
  thumbnailUrl: string;
  uploadDate: string;
  durationSeconds: number | null;
  /** Only for videos everyone may watch. */
  contentUrl?: string;
  /** The page that shows it. */
  url: string;
  isAccessibleForFree: boolean;
  extra?: Record<string, unknown>;
}): Record<string, unknown> {
  return {
    "@type": "VideoObject",
    name: video.name,
    description: video.description,
    thumbnailUrl: [video.thumbnailUrl],
    uploadDate: video.uploadDate,
    ...(video.durationSeconds !== null ? { duration: isoDuration(video.durationSeconds) } : {}),
    ...(video.contentUrl ? { contentUrl: video.contentUrl } : {}),
    url: video.url,
    inLanguage: "zh-CN",
    isAccessibleForFree: video.isAccessibleForFree,
    ...video.extra,
  };
}
