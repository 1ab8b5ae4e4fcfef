/**
 * The lesson player: one <video> fed by client/lib/stream.ts (native HLS, hls.js or the MP4),
 * with its own controls (play, seek with chapter marks, time, mute, speed, full screen) and
 * keyboard (space, ←/→ 5 s). It starts where the viewer left off and with the speed they chose,
 * and reports progress every 15 s while playing, on pause, at the end, when the page is hidden
 * or left, and when it goes away (route change). Viewers who are not signed in keep position and
 * speed in this browser instead.
 */
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from "react";
import {
  type ChapterMark,
  DEFAULT_SPEED,
  MAX_WATCHED_PER_REPORT,
  PLAYBACK_SPEEDS,
  type ProgressInput,
  type ProgressResult,
  progressResultSchema,
  REPORT_INTERVAL_MS,
  resumePosition,
  speedResultSchema,
} from "../../../shared/contracts/learning";
import type { VideoSources } from "../../../shared/media";
import { AjaxError } from "../../../shared/ajax";
import { browserApi } from "../../lib/api";
import { type AttachedStream, attachStream } from "../../lib/stream";
import { readLocalPosition, readLocalSpeed, snapSpeed, writeLocalPosition, writeLocalSpeed } from "./player-storage";
import { WatchMeter } from "./watch-meter";
import "./player.css";
import { formatClock } from "../../../shared/format";

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

type Phase = "idle" | "playing" | "paused" | "ended" | "error";
type ReportReason = "tick" | "pause" | "ended" | "leave";

const SEEK_STEP = 5;

/** Control icons: small inline drawings in the text colour (no icon font, no emoji). */
const icons = {
  play: "M7 4.5v15l12-7.5z",
  pause: "M6.5 4.5h4v15h-4zM13.5 4.5h4v15h-4z",
  sound: "M4 9h4l5-4.5v15L8 15H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12",
  muted: "M4 9h4l5-4.5v15L8 15H4zM16 9.5l5 5M21 9.5l-5 5",
  full: "M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5",
  exitFull: "M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5",
} as const;

function Icon({ name }: { name: keyof typeof icons }) {
  const filled = name === "play" || name === "pause";
  return (
    <svg className="player__icon" viewBox="0 0 24 24" width={22} height={22} aria-hidden="true" focusable="false">
      <path
        d={icons[name]}
        fill={filled ? "currentColor" : "none"}
        stroke={filled ? "none" : "currentColor"}
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const speedLabel = (speed: number) => `${speed % 1 === 0 ? speed.toFixed(1) : speed}×`;

/** Network trouble, a busy server: the seconds are worth sending again with the next report. */
function worthRetrying(err: unknown): boolean {
  return !(err instanceof AjaxError) || err.statusCode === 429 || err.statusCode >= 500;
}

export function Player({
  title,
  sources,
  durationSeconds,
  serverSpeed,
  serverPosition,
  reportUrl,
  storageKey,
  marks = [],
  startAt,
  autoPlay = false,
  onProgress,
  onSecond,
  endScreen,
  ref,
}: PlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const streamRef = useRef<AttachedStream | null>(null);
  const meter = useRef(new WatchMeter());
  const lastSentPosition = useRef(-1);
  const resumed = useRef(false);
  const wantsPlay = useRef(autoPlay);
  const lastSecond = useRef(-1);

  const [phase, setPhase] = useState<Phase>("idle");
  const [waiting, setWaiting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(durationSeconds);
  const [speed, setSpeedState] = useState(serverSpeed ?? DEFAULT_SPEED);
  const [muted, setMuted] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const menuId = useId();

  // The latest props and state for event handlers registered once.
  const live = useRef({ reportUrl, storageKey, speed, durationSeconds, onProgress, onSecond, serverPosition, startAt });
  live.current = { reportUrl, storageKey, speed, durationSeconds, onProgress, onSecond, serverPosition, startAt };

  // A browser-kept speed is only known in the browser: read it after hydration.
  useEffect(() => {
    if (serverSpeed === null) setSpeedState(readLocalSpeed());
  }, [serverSpeed]);

  useEffect(() => {
    const video = videoRef.current;
    if (video) {
      video.defaultPlaybackRate = speed;
      video.playbackRate = speed;
    }
  }, [speed]);

  // The element is passed in when the component is going away (its ref is already cleared then).
  const report = useCallback((reason: ReportReason, element?: HTMLVideoElement) => {
    const video = element ?? videoRef.current;
    if (!video) return;
    const { reportUrl: url, storageKey: key, speed: rate, durationSeconds: length } = live.current;
    const ended = reason === "ended";
    const position = Math.floor(ended ? length : video.currentTime);
    if (!url) {
      meter.current.take();
      writeLocalPosition(key, position);
      return;
    }
    const watched = meter.current.take(MAX_WATCHED_PER_REPORT);
    if (!ended && watched === 0 && position === lastSentPosition.current) return;
    lastSentPosition.current = position;
    const body: ProgressInput = { position, watched, speed: rate, ...(ended ? { ended: true } : {}) };
    if (reason === "leave") {
      // The page may be going away: a keepalive request outlives it (JSON, so not sendBeacon).
      void fetch(url, {
        method: "PUT",
        keepalive: true,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      }).catch(() => {});
      return;
    }
    browserApi(url, { method: "PUT", body, schema: progressResultSchema })
      .then((result) => live.current.onProgress?.(result))
      .catch((err: unknown) => {
        lastSentPosition.current = -1;
        if (worthRetrying(err)) meter.current.giveBack(watched);
      });
  }, []);

  // Attach the stream; report and detach when the video goes away (route change, retry).
  const { hls, mp4 } = sources;
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let cancelled = false;
    resumed.current = false;
    attachStream(video, { hls, mp4 }, { onFatal: () => setPhase("error") })
      .then((stream) => {
        if (cancelled) {
          stream.detach();
          return;
        }
        streamRef.current = stream;
        if (wantsPlay.current) video.play().catch(() => {});
      })
      .catch(() => {
        if (!cancelled) setPhase("error");
      });
    return () => {
      cancelled = true;
      if (resumed.current) report("leave", video);
      streamRef.current?.detach();
      streamRef.current = null;
    };
  }, [hls, mp4, attempt, report]);

  // Every 15 s while playing, and when the page is hidden or closed.
  useEffect(() => {
    const timer = window.setInterval(() => {
      const video = videoRef.current;
      if (video && !video.paused && !video.ended) report("tick");
    }, REPORT_INTERVAL_MS);
    const onHide = () => {
      if (document.visibilityState === "hidden") report("leave");
    };
    const onPageHide = () => report("leave");
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [report]);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);

  const play = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    wantsPlay.current = true;
    if (!streamRef.current) return; // starts once the stream is attached
    video.play().catch(() => {});
  }, []);

  const toggle = useCallback(() => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) play();
    else video.pause();
  }, [play]);

  const seek = useCallback((seconds: number) => {
    const video = videoRef.current;
    if (!video) return;
    const end = Number.isFinite(video.duration) ? video.duration : live.current.durationSeconds;
    const to = Math.max(0, Math.min(seconds, Math.max(0, end - 0.1)));
    video.currentTime = to;
    meter.current.jump(to);
    setCurrent(to);
  }, []);

  useImperativeHandle(ref, () => ({ seek, play }), [seek, play]);

  const changeSpeed = (next: number) => {
    setSpeedState(next);
    setMenuOpen(false);
    if (serverSpeed === null) writeLocalSpeed(next);
    else
      browserApi("/api/learning/speed", { method: "PUT", body: { speed: next }, schema: speedResultSchema }).catch(
        () => {},
      );
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLElement> | KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement;
    const tag = target.tagName;
    if (event.key === " ") {
      // A focused button or link does its own thing with the space bar.
      if (tag === "BUTTON" || tag === "A" || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
      event.preventDefault();
      toggle();
    } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && (target as HTMLInputElement).type !== "range"))
        return;
      event.preventDefault();
      const video = videoRef.current;
      if (video) seek(video.currentTime + (event.key === "ArrowLeft" ? -SEEK_STEP : SEEK_STEP));
    } else if (event.key === "Escape" && menuOpen) {
      setMenuOpen(false);
    }
  };

  // The same keys when nothing in particular has the focus (the page itself).
  const keyRef = useRef(onKeyDown);
  keyRef.current = onKeyDown;
  useEffect(() => {
    const onDocumentKey = (event: KeyboardEvent) => {
      if (event.target === document.body) keyRef.current(event);
    };
    document.addEventListener("keydown", onDocumentKey);
    return () => document.removeEventListener("keydown", onDocumentKey);
  }, []);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void frameRef.current?.requestFullscreen().catch(() => {});
  };

  const onLoadedMetadata = () => {
    const video = videoRef.current;
    if (!video) return;
    video.defaultPlaybackRate = live.current.speed;
    video.playbackRate = live.current.speed;
    if (Number.isFinite(video.duration) && video.duration > 0) setDuration(video.duration);
    if (resumed.current) return;
    resumed.current = true;
    const { startAt: asked, serverPosition: stored, storageKey: key, durationSeconds: length } = live.current;
    const start =
      asked !== undefined && asked >= 0 && asked < length
        ? Math.floor(asked)
        : resumePosition(stored ?? readLocalPosition(key), length);
    if (start > 0) video.currentTime = start;
    meter.current.jump(start);
    // Opening a lesson and leaving without watching reports nothing.
    lastSentPosition.current = start;
    setCurrent(start);
  };

  const onTimeUpdate = () => {
    const video = videoRef.current;
    if (!video) return;
    if (!video.paused && !video.seeking) meter.current.tick(video.currentTime);
    setCurrent(video.currentTime);
    const second = Math.floor(video.currentTime);
    if (second !== lastSecond.current) {
      lastSecond.current = second;
      live.current.onSecond?.(second);
    }
  };

  const onVideoError = () => {
    // An HLS failure with an MP4 to fall back on is handled by the stream; look once it has had its turn.
    window.setTimeout(() => {
      const video = videoRef.current;
      if (video?.error && streamRef.current?.kind !== "native-hls") setPhase("error");
    }, 0);
  };

  const retry = () => {
    setPhase("idle");
    setWaiting(false);
    wantsPlay.current = true;
    setAttempt((n) => n + 1);
  };

  const shownDuration = duration > 0 ? duration : durationSeconds;

  return (
    <div
      className={`player${fullscreen ? " player--fullscreen" : ""}`}
      ref={frameRef}
      onKeyDown={onKeyDown}
      role="region"
      aria-label={`视频播放器：${title}`}
    >
      <div className="player__screen">
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
          onLoadedMetadata={onLoadedMetadata}
          onDurationChange={() => {
            const d = videoRef.current?.duration;
            if (d && Number.isFinite(d)) setDuration(d);
          }}
          onTimeUpdate={onTimeUpdate}
          onPlay={() => {
            setPhase("playing");
            const video = videoRef.current;
            if (video) meter.current.jump(video.currentTime);
          }}
          onPlaying={() => setWaiting(false)}
          onWaiting={() => setWaiting(true)}
          onPause={() => {
            const video = videoRef.current;
            if (!video || video.ended) return;
            setPhase("paused");
            report("pause");
          }}
          onSeeked={() => {
            const video = videoRef.current;
            if (video) meter.current.jump(video.currentTime);
          }}
          onEnded={() => {
            setPhase("ended");
            setWaiting(false);
            report("ended");
          }}
          onVolumeChange={() => setMuted(videoRef.current?.muted ?? false)}
          onRateChange={() => {
            const rate = videoRef.current?.playbackRate;
            if (rate !== undefined && snapSpeed(rate) === rate && rate !== live.current.speed) setSpeedState(rate);
          }}
          onError={onVideoError}
        />
        {phase === "idle" ? (
          <button type="button" className="player__big-play" onClick={play} aria-label="播放">
            <span aria-hidden="true" className="player__big-play-icon" />
          </button>
        ) : null}
        {waiting && phase === "playing" ? (
          <div className="player__overlay player__overlay--quiet" role="status">
            <span className="player__spinner" aria-hidden="true" />
            正在加载视频…
          </div>
        ) : null}
        {phase === "error" ? (
          <div className="player__overlay" role="alert">
            <p className="player__overlay-title">视频没能播放</p>
            <p>可能是网络不稳定，请检查网络后重试。</p>
            <button type="button" className="button button--primary" onClick={retry}>
              重新加载
            </button>
          </div>
        ) : null}
        {phase === "ended" ? (
          <div className="player__overlay">
            {endScreen ?? (
              <>
                <p className="player__overlay-title">本节已播放完</p>
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => {
                    seek(0);
                    play();
                  }}
                >
                  重新播放
                </button>
              </>
            )}
          </div>
        ) : null}
      </div>
      <div className="player__controls">
        <button
          type="button"
          className="player__button"
          onClick={toggle}
          aria-label={phase === "playing" ? "暂停" : "播放"}
        >
          <Icon name={phase === "playing" ? "pause" : "play"} />
        </button>
        <span className="player__time" aria-hidden="true">
          {formatClock(current)} / {formatClock(shownDuration)}
        </span>
        <div className="player__seek">
          <input
            type="range"
            min={0}
            max={Math.max(1, Math.floor(shownDuration))}
            step={1}
            value={Math.min(Math.floor(current), Math.floor(shownDuration))}
            onChange={(event) => seek(Number(event.target.value))}
            aria-label="播放进度"
            aria-valuetext={`${formatClock(current)} / ${formatClock(shownDuration)}`}
          />
          {marks.map((mark) => (
            <button
              key={`${mark.at}-${mark.title}`}
              type="button"
              className="player__mark"
              style={{ left: `${Math.min(100, (mark.at / Math.max(1, shownDuration)) * 100)}%` }}
              onClick={() => seek(mark.at)}
              aria-label={`跳到 ${formatClock(mark.at)} ${mark.title}`}
              title={`${formatClock(mark.at)} ${mark.title}`}
            />
          ))}
        </div>
        <button
          type="button"
          className="player__button"
          onClick={() => {
            const video = videoRef.current;
            if (video) video.muted = !video.muted;
          }}
          aria-label={muted ? "取消静音" : "静音"}
          aria-pressed={muted}
        >
          <Icon name={muted ? "muted" : "sound"} />
        </button>
        <div className="player__speed">
          <button
            type="button"
            className="player__button player__button--text"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={`倍速 ${speedLabel(speed)}`}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {speed === DEFAULT_SPEED ? "倍速" : speedLabel(speed)}
          </button>
          {menuOpen ? (
            <ul className="player__menu" role="menu" id={menuId} aria-label="播放倍速">
              {[...PLAYBACK_SPEEDS].reverse().map((option) => (
                <li key={option} role="none">
                  <button
                    type="button"
                    role="menuitemradio"
                    aria-checked={option === speed}
                    className="player__menu-item"
                    onClick={() => changeSpeed(option)}
                  >
                    {speedLabel(option)}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <button
          type="button"
          className="player__button"
          onClick={toggleFullscreen}
          aria-label={fullscreen ? "退出全屏" : "全屏"}
        >
          <Icon name={fullscreen ? "exitFull" : "full"} />
        </button>
      </div>
    </div>
  );
}
