/**
 * The <video> itself: what it tells the player (position, length, buffering, mute, play, pause,
 * end) and what the player tells it (play or pause, seek, mute). Counts the seconds watched,
 * resumes on first metadata, reports on pause and at the end.
 */
import { type RefObject, useCallback, useRef, useState } from "react";
import type { Phase } from "./PlayerOverlays";
import type { usePlaybackSpeed } from "./usePlaybackSpeed";
import type { usePlayerStream } from "./usePlayerStream";
import type { useProgressReporting } from "./useProgressReporting";

export interface PlaybackOptions {
  durationSeconds: number;
  setPhase: (phase: Phase) => void;
  progress: ReturnType<typeof useProgressReporting>;
  speed: ReturnType<typeof usePlaybackSpeed>;
  stream: Pick<ReturnType<typeof usePlayerStream>, "stream" | "play">;
  onSecond?: (seconds: number) => void;
}

export function usePlayback(videoRef: RefObject<HTMLVideoElement | null>, options: PlaybackOptions) {
  const { durationSeconds, setPhase, progress, speed, stream, onSecond } = options;
  const { meter } = progress;
  const [waiting, setWaiting] = useState(false);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(durationSeconds);
  const [muted, setMuted] = useState(false);
  const lastSecond = useRef(-1);
  const length = useRef(durationSeconds);
  length.current = durationSeconds;

  const seek = useCallback(
    (seconds: number) => {
      const video = videoRef.current;
      if (!video) return;
      const end = Number.isFinite(video.duration) ? video.duration : length.current;
      const to = Math.max(0, Math.min(seconds, Math.max(0, end - 0.1)));
      video.currentTime = to;
      meter.jump(to);
      setCurrent(to);
    },
    [videoRef, meter],
  );

  const toggle = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) stream.play();
    else video.pause();
  };

  const seekBy = (seconds: number) => {
    const video = videoRef.current;
    if (video) seek(video.currentTime + seconds);
  };

  const toggleMute = () => {
    const video = videoRef.current;
    if (video) video.muted = !video.muted;
  };

  const handlers = {
    onLoadedMetadata: () => {
      const video = videoRef.current;
      if (!video) return;
      speed.apply(video);
      if (Number.isFinite(video.duration) && video.duration > 0) setDuration(video.duration);
      const start = progress.resume(video);
      if (start !== null) setCurrent(start);
    },
    onDurationChange: () => {
      const d = videoRef.current?.duration;
      if (d && Number.isFinite(d)) setDuration(d);
    },
    onTimeUpdate: () => {
      const video = videoRef.current;
      if (!video) return;
      if (!video.paused && !video.seeking) meter.tick(video.currentTime);
      setCurrent(video.currentTime);
      const second = Math.floor(video.currentTime);
      if (second !== lastSecond.current) {
        lastSecond.current = second;
        onSecond?.(second);
      }
    },
    onPlay: () => {
      setPhase("playing");
      const video = videoRef.current;
      if (video) meter.jump(video.currentTime);
    },
    onPlaying: () => setWaiting(false),
    onWaiting: () => setWaiting(true),
    onPause: () => {
      const video = videoRef.current;
      if (!video || video.ended) return;
      setPhase("paused");
      progress.report("pause");
    },
    onSeeked: () => {
      const video = videoRef.current;
      if (video) meter.jump(video.currentTime);
    },
    onEnded: () => {
      setPhase("ended");
      setWaiting(false);
      progress.report("ended");
    },
    onVolumeChange: () => setMuted(videoRef.current?.muted ?? false),
    onRateChange: () => speed.followVideo(videoRef.current?.playbackRate),
    onError: () => {
      // An HLS failure with an MP4 to fall back on is handled by the stream; look once it has had its turn.
      window.setTimeout(() => {
        const video = videoRef.current;
        if (video?.error && stream.stream()?.kind !== "native-hls") setPhase("error");
      }, 0);
    },
  };

  return { handlers, waiting, setWaiting, current, duration, muted, seek, seekBy, toggle, toggleMute };
}
