/**
 * The live stream of the room: muted autoplay (browsers allow no other), a button to turn the
 * sound on, full screen, and a clear message while the signal is coming or when it fails.
 */
import { useEffect, useRef, useState } from "react";
import { type AttachedStream, attachStream } from "../../lib/stream";
import { enterFullscreen } from "../../components/player/useFullscreen";

type Signal = "connecting" | "playing" | "waiting" | "failed";

export function LivePlayer({ src, title }: { src: string; title: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [muted, setMuted] = useState(true);
  const [signal, setSignal] = useState<Signal>("connecting");

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let stream: AttachedStream | null = null;
    let gone = false;
    element.muted = true;
    const onPlaying = () => setSignal("playing");
    const onWaiting = () => setSignal((s) => (s === "failed" ? s : "waiting"));
    element.addEventListener("playing", onPlaying);
    element.addEventListener("waiting", onWaiting);
    attachStream(element, { hls: src }, { live: true, onFatal: () => setSignal("failed") })
      .then((attached) => {
        if (gone) {
          attached.detach();
          return;
        }
        stream = attached;
        element.play().catch(() => {
          // Autoplay refused even muted: the viewer starts it with the sound button.
        });
      })
      .catch(() => setSignal("failed"));
    return () => {
      gone = true;
      element.removeEventListener("playing", onPlaying);
      element.removeEventListener("waiting", onWaiting);
      stream?.detach();
    };
  }, [src]);

  const toggleSound = () => {
    const element = video.current;
    if (!element) return;
    element.muted = !element.muted;
    setMuted(element.muted);
    if (element.paused) element.play().catch(() => setSignal("failed"));
  };

  return (
    <div className="live-player" ref={frame}>
      <video
        ref={video}
        className="live-player__video"
        muted
        autoPlay
        playsInline
        aria-label={`直播画面：${title}`}
        data-testid="live-video"
      />
      {signal !== "playing" ? (
        <p className="live-player__status" role="status">
          {signal === "failed" ? "直播信号中断了，请稍后刷新页面重试" : "正在连接直播信号…"}
        </p>
      ) : null}
      <div className="live-player__bar">
        <span className="live-player__badge">直播中</span>
        <button type="button" className="live-player__button" onClick={toggleSound} aria-pressed={!muted}>
          {muted ? "开启声音" : "静音"}
        </button>
        <button
          type="button"
          className="live-player__button"
          onClick={() => {
            if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
            else enterFullscreen(frame.current, video.current);
          }}
        >
          全屏
        </button>
      </div>
    </div>
  );
}
