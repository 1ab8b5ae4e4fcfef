/**
 * Feeds the <video> through client/lib/stream.ts (native HLS, hls.js loaded on demand, or the
 * MP4), again after a retry; plays once attached when play was asked for before; detaches when
 * the video goes away (route change, retry).
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import type { VideoSources } from "../../../shared/media";
import { type AttachedStream, attachStream } from "../../lib/stream";

export interface StreamOptions {
  /** Start playing as soon as the stream is attached. */
  autoPlay: boolean;
  /** Before each attach. */
  onAttach: () => void;
  /** Before each detach, with the element (its ref may already be cleared). */
  onDetach: (video: HTMLVideoElement) => void;
  /** Nothing can be played. */
  onFatal: () => void;
}

export function usePlayerStream(
  videoRef: RefObject<HTMLVideoElement | null>,
  { hls, mp4 }: Pick<VideoSources, "hls" | "mp4">,
  options: StreamOptions,
) {
  const streamRef = useRef<AttachedStream | null>(null);
  const wantsPlay = useRef(options.autoPlay);
  const [attempt, setAttempt] = useState(0);
  // The latest callbacks, so that only a new source or a retry attaches again.
  const live = useRef(options);
  live.current = options;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    live.current.onAttach();
    attachStream(video, { hls, mp4 }, { onFatal: () => live.current.onFatal() })
      .then((stream) => {
        if (cancelled) {
          stream.detach();
          return;
        }
        streamRef.current = stream;
        if (wantsPlay.current) video.play().catch(() => {});
      })
      .catch(() => {
        if (!cancelled) live.current.onFatal();
      });
    return () => {
      cancelled = true;
      live.current.onDetach(video);
      streamRef.current?.detach();
      streamRef.current = null;
    };
  }, [videoRef, hls, mp4, attempt]);

  /** What plays now, or null before the stream is attached. */
  const stream = useCallback(() => streamRef.current, []);
  /** Plays now, or as soon as the stream is attached. */
  const play = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    wantsPlay.current = true;
    if (!streamRef.current) return;
    video.play().catch(() => {});
  }, [videoRef]);
  /** Attaches the sources again and plays them. */
  const retry = useCallback(() => {
    wantsPlay.current = true;
    setAttempt((n) => n + 1);
  }, []);
  return { stream, play, retry };
}
