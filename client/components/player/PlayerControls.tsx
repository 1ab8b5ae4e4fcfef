/**
 * The bar under the picture: play, time, seek with chapter marks, mute, speed menu, full screen.
 * The progress bar follows a finger or the mouse: press anywhere on it and drag (pointer events,
 * captured so the drag goes on outside the bar); the range inside it serves the keyboard.
 */
import { type PointerEvent, useId } from "react";
import { type ChapterMark, DEFAULT_SPEED, PLAYBACK_SPEEDS } from "../../../shared/contracts/learning";
import { formatClock } from "../../../shared/format";

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

export interface PlayerControlsProps {
  playing: boolean;
  current: number;
  duration: number;
  marks: ChapterMark[];
  muted: boolean;
  speed: number;
  menuOpen: boolean;
  fullscreen: boolean;
  onToggle: () => void;
  onSeek: (seconds: number) => void;
  onToggleMute: () => void;
  onToggleMenu: () => void;
  onChooseSpeed: (speed: number) => void;
  onToggleFullscreen: () => void;
}

export function PlayerControls(props: PlayerControlsProps) {
  const { playing, current, duration, marks, muted, speed, menuOpen, fullscreen, onSeek } = props;
  const menuId = useId();
  return (
    <div className="player__controls">
      <button type="button" className="player__button" onClick={props.onToggle} aria-label={playing ? "暂停" : "播放"}>
        <Icon name={playing ? "pause" : "play"} />
      </button>
      <span className="player__time" aria-hidden="true">
        {formatClock(current)} / {formatClock(duration)}
      </span>
      <div className="player__seek" data-testid="player-seek" {...seekDrag(duration, onSeek)}>
        <input
          type="range"
          min={0}
          max={Math.max(1, Math.floor(duration))}
          step={1}
          value={Math.min(Math.floor(current), Math.floor(duration))}
          onChange={(event) => onSeek(Number(event.target.value))}
          aria-label="播放进度"
          aria-valuetext={`${formatClock(current)} / ${formatClock(duration)}`}
        />
        {marks.map((mark) => (
          <button
            key={`${mark.at}-${mark.title}`}
            type="button"
            className="player__mark"
            style={{ left: `${Math.min(100, (mark.at / Math.max(1, duration)) * 100)}%` }}
            onClick={() => onSeek(mark.at)}
            aria-label={`跳到 ${formatClock(mark.at)} ${mark.title}`}
            title={`${formatClock(mark.at)} ${mark.title}`}
          />
        ))}
      </div>
      <button
        type="button"
        className="player__button"
        onClick={props.onToggleMute}
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
          onClick={props.onToggleMenu}
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
                  onClick={() => props.onChooseSpeed(option)}
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
        onClick={props.onToggleFullscreen}
        aria-label={fullscreen ? "退出全屏" : "全屏"}
      >
        <Icon name={fullscreen ? "exitFull" : "full"} />
      </button>
    </div>
  );
}

/**
 * Seeking by pressing and dragging on the bar: the video goes to where the pointer is along the
 * range, in seconds (the capture keeps the drag going outside the bar and ends with it).
 */
function seekDrag(duration: number, onSeek: (seconds: number) => void) {
  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const box = (event.currentTarget.querySelector("input") ?? event.currentTarget).getBoundingClientRect();
    onSeek(box.width > 0 ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) * duration : 0);
  };
  return {
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      // A chapter mark is a button of its own; only the main button of a mouse drags.
      if (event.button !== 0 || (event.target as Element).closest(".player__mark")) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      follow(event);
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      if (event.currentTarget.hasPointerCapture(event.pointerId)) follow(event);
    },
  };
}
