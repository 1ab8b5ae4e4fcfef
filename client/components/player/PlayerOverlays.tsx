/** What shows over the picture: the big play button, loading, a failure with retry, the end. */
import type { ReactNode } from "react";

export type Phase = "idle" | "playing" | "paused" | "ended" | "error";

export interface PlayerOverlaysProps {
  phase: Phase;
  waiting: boolean;
  /** Replaces the default "played to the end" screen. */
  endScreen?: ReactNode;
  onPlay: () => void;
  onRetry: () => void;
  onReplay: () => void;
}

export function PlayerOverlays({ phase, waiting, endScreen, onPlay, onRetry, onReplay }: PlayerOverlaysProps) {
  return (
    <>
      {phase === "idle" ? (
        <button type="button" className="player__big-play" onClick={onPlay} aria-label="播放">
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
          <button type="button" className="button button--primary" onClick={onRetry}>
            重新加载
          </button>
        </div>
      ) : null}
      {phase === "ended" ? (
        <div className="player__overlay">
          {endScreen ?? (
            <>
              <p className="player__overlay-title">本节已播放完</p>
              <button type="button" className="button button--primary" onClick={onReplay}>
                重新播放
              </button>
            </>
          )}
        </div>
      ) : null}
    </>
  );
}
