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
  /** What plays now (it becomes "mp4" after a fallback). */
  readonly kind: StreamKind;
  detach(): void;
}

export interface AttachOptions {
  live?: boolean;
  /** Called when the stream cannot be played at all (no fallback left). */
  onFatal?: (reason: string) => void;
  /** Called once the stream switched to the MP4 fallback after an HLS failure. */
  onFallback?: (kind: StreamKind) => void;
}

/** hls.js may try to recover a broken media pipeline this often before the MP4 takes over. */
const MEDIA_RECOVERIES = 2;

function clearSource(video: HTMLVideoElement) {
  video.removeAttribute("src");
  video.load();
}

/** Switches to the MP4 at the same position; false when there is none. */
function fallBackToMp4(video: HTMLVideoElement, mp4: string | undefined, at = video.currentTime): boolean {
  if (!mp4) return false;
  const resume = () => {
    if (at > 0) video.currentTime = at;
  };
  video.addEventListener("loadedmetadata", resume, { once: true });
  video.src = mp4;
  return true;
}

export async function attachStream(
  video: HTMLVideoElement,
  sources: StreamSources,
  options: AttachOptions = {},
): Promise<AttachedStream> {
  let kind: StreamKind;
  let cleanup: () => void;

  if (video.canPlayType("application/vnd.apple.mpegurl")) {
    kind = "native-hls";
    // The browser's own HLS gives no detail on failure: one error means the MP4 takes over.
    const onError = () => {
      if (kind !== "native-hls") return;
      if (fallBackToMp4(video, sources.mp4)) {
        kind = "mp4";
        options.onFallback?.("mp4");
      } else {
        options.onFatal?.("native-hls");
      }
    };
    video.addEventListener("error", onError);
    video.src = sources.hls;
    cleanup = () => {
      video.removeEventListener("error", onError);
      clearSource(video);
    };
  } else {
    const { default: Hls } = await import("hls.js");
    if (!Hls.isSupported()) {
      if (sources.mp4) {
        video.src = sources.mp4;
        kind = "mp4";
        cleanup = () => clearSource(video);
      } else {
        options.onFatal?.("unsupported");
        kind = "mp4";
        cleanup = () => {};
      }
    } else {
      kind = "hls.js";
      // No worker: the page's content security policy allows no blob: workers.
      const hls = new Hls({
        lowLatencyMode: false,
        liveSyncDurationCount: options.live ? 2 : 3,
        enableWorker: false,
      });
      let recoveries = 0;
      let destroyed = false;
      const destroy = () => {
        if (destroyed) return;
        destroyed = true;
        hls.destroy();
      };
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR && recoveries < MEDIA_RECOVERIES) {
          recoveries++;
          hls.recoverMediaError();
          return;
        }
        const at = video.currentTime;
        destroy();
        if (fallBackToMp4(video, sources.mp4, at)) {
          kind = "mp4";
          options.onFallback?.("mp4");
        } else {
          options.onFatal?.(String(data.details));
        }
      });
      hls.loadSource(sources.hls);
      hls.attachMedia(video);
      cleanup = () => {
        destroy();
        clearSource(video);
      };
    }
  }

  return {
    get kind() {
      return kind;
    },
    detach() {
      cleanup();
    },
  };
}
