/**
 * Attaches a video stream to a <video>: native HLS where the browser has it, hls.js (loaded on
 * demand, so pages without video never download it) where it does not, and the MP4 rendition
 * when neither works or the HLS stream fails for good. Used by the lesson player and the live room.
 */
export interface StreamSources {
  hls: string;
  /** Progressive fallback; live streams have none. */
  mp4?: string;
}

export type StreamKind = "native-hls" | "hls.js" | "mp4";

export interface AttachedStream {
  kind: StreamKind;
  detach(): void;
}

export interface AttachOptions {
  live?: boolean;
  /** Called when the stream cannot be played at all (no fallback left). */
  onFatal?: (reason: string) => void;
  /** Called once the stream switched to the MP4 fallback after an HLS failure. */
  onFallback?: (kind: StreamKind) => void;
}

function playMp4(video: HTMLVideoElement, mp4: string): AttachedStream {
  video.src = mp4;
  return {
    kind: "mp4",
    detach() {
      video.removeAttribute("src");
      video.load();
    },
  };
}

export async function attachStream(
  video: HTMLVideoElement,
  sources: StreamSources,
  options: AttachOptions = {},
): Promise<AttachedStream> {
  if (video.canPlayType("application/vnd.apple.mpegurl")) {
    video.src = sources.hls;
    return {
      kind: "native-hls",
      detach() {
        video.removeAttribute("src");
        video.load();
      },
    };
  }
  const { default: Hls } = await import("hls.js");
  if (!Hls.isSupported()) {
    if (sources.mp4) return playMp4(video, sources.mp4);
    options.onFatal?.("unsupported");
    return { kind: "mp4", detach() {} };
  }
  const hls = new Hls({ lowLatencyMode: false, liveSyncDurationCount: options.live ? 2 : 3, enableWorker: true });
  let current: AttachedStream | null = null;
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
      hls.recoverMediaError();
      return;
    }
    hls.destroy();
    if (sources.mp4) {
      const at = video.currentTime;
      current = playMp4(video, sources.mp4);
      video.currentTime = at;
      options.onFallback?.("mp4");
    } else {
      options.onFatal?.(String(data.details));
    }
  });
  hls.loadSource(sources.hls);
  hls.attachMedia(video);
  return {
    kind: "hls.js",
    detach() {
      if (current) current.detach();
      else hls.destroy();
    },
  };
}
