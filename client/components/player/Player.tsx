/**
 * The lesson player: one <video> fed by client/lib/stream.ts (native HLS, hls.js or the MP4),
 * with its own controls (play, seek with chapter marks, time, mute, speed, full screen) and
 * keyboard (space, ←/→ 5 s). It starts where the viewer left off and with the speed they chose,
 * and reports progress every 15 s while playing, on pause, at the end, when the page is hidden
 * or left, and when it goes away (route change). Viewers who are not signed in keep position and
 * speed in this browser instead. Each of these is a hook beside this file; this one composes them.
 */
import { type ReactNode, type Ref, useImperativeHandle, useRef, useState } from "react";
import type { ChapterMark, ProgressResult } from "../../../shared/contracts/learning";
import type { VideoSources } from "../../../shared/media";
import { PlayerControls } from "./PlayerControls";
import { type Phase, PlayerOverlays } from "./PlayerOverlays";
import { useFullscreen } from "./useFullscreen";
import { usePlayback } from "./usePlayback";
import { usePlaybackSpeed } from "./usePlaybackSpeed";
import { usePlayerKeyboard } from "./usePlayerKeyboard";
import { usePlayerStream } from "./usePlayerStream";
import { useProgressReporting } from "./useProgressReporting";
import "./player.css";

export interface PlayerHandle {
  seek(seconds: number): void;
  play(): void;
}

export interface PlayerProps {
  title: string;
  sources: VideoSources;
  durationSeconds: number;
  /** The speed the server remembers for a signed-in viewer; null: the one kept in this browser. */
  serverSpeed: number | null;
  /** Where the server says to start (signed in); null: the position kept in this browser. */
  serverPosition: number | null;
  /** When the server stored that position (ISO); a newer one kept in this browser wins. */
  serverSavedAt?: string | null;
  /** Where progress reports go (signed in and allowed); null: positions stay in this browser. */
  reportUrl: string | null;
  /** Names this video's position in the browser's storage. */
  storageKey: string;
  marks?: ChapterMark[];
  /** Start here instead of the remembered position (a link to a moment). */
  startAt?: number;
  autoPlay?: boolean;
  onProgress?: (result: ProgressResult) => void;
  /** Each whole second of playback (chapter highlighting). */
  onSecond?: (seconds: number) => void;
  /** Shown over the picture once playback reached the end. */
  endScreen?: ReactNode;
  ref?: Ref<PlayerHandle>;
}

export function Player(props: PlayerProps) {
  const { title, sources, durationSeconds, serverSpeed, marks = [], endScreen, ref } = props;
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>("idle");

  const speed = usePlaybackSpeed(videoRef, serverSpeed);
  const progress = useProgressReporting(videoRef, {
    reportUrl: props.reportUrl,
    storageKey: props.storageKey,
    speed: speed.speed,
    durationSeconds,
    serverPosition: props.serverPosition,
    serverSavedAt: props.serverSavedAt ?? null,
    startAt: props.startAt,
    onProgress: props.onProgress,
  });
  const stream = usePlayerStream(videoRef, sources, {
    autoPlay: props.autoPlay ?? false,
    onAttach: progress.restart,
    onDetach: progress.leave,
    onFatal: () => setPhase("error"),
  });
  const video = usePlayback(videoRef, { durationSeconds, setPhase, progress, speed, stream, onSecond: props.onSecond });
  const { fullscreen, toggleFullscreen } = useFullscreen(frameRef, videoRef);
  const { seek, toggle } = video;
  const { play } = stream;
  const onKeyDown = usePlayerKeyboard({
    toggle,
    seekBy: video.seekBy,
    menuOpen: speed.menuOpen,
    closeMenu: speed.closeMenu,
  });

  useImperativeHandle(ref, () => ({ seek, play }), [seek, play]);

  const retry = () => {
    setPhase("idle");
    video.setWaiting(false);
    stream.retry();
  };

  const shownDuration = video.duration > 0 ? video.duration : durationSeconds;

  return (
    <div
      className={`player${fullscreen ? " player--fullscreen" : ""}`}
      ref={frameRef}
      onKeyDown={onKeyDown}
      role="region"
      aria-label={`视频播放器：${title}`}
    >
      <div className="player__screen">
        {/* The captions track is there whenever the video has a transcript (sources.captions). */}
        {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
        <video
          ref={videoRef}
          className="player__video"
          width={640}
          height={360}
          poster={sources.poster}
          preload="metadata"
          playsInline
          tabIndex={0}
          aria-label={title}
          onClick={toggle}
          {...video.handlers}
        >
          {sources.captions ? (
            <track kind="captions" src={sources.captions} srcLang="zh-CN" label="中文字幕" default />
          ) : null}
        </video>
        <PlayerOverlays
          phase={phase}
          waiting={video.waiting}
          endScreen={endScreen}
          onPlay={play}
          onRetry={retry}
          onReplay={() => {
            seek(0);
            play();
          }}
        />
      </div>
      <PlayerControls
        playing={phase === "playing"}
        current={video.current}
        duration={shownDuration}
        marks={marks}
        muted={video.muted}
        speed={speed.speed}
        menuOpen={speed.menuOpen}
        fullscreen={fullscreen}
        onToggle={toggle}
        onSeek={seek}
        onToggleMute={video.toggleMute}
        onToggleMenu={speed.toggleMenu}
        onChooseSpeed={speed.choose}
        onToggleFullscreen={toggleFullscreen}
      />
    </div>
  );
}
