/**
 * Full screen for the player's frame, and whether it is in full screen now (Esc leaves it too).
 * On a phone full screen also turns the picture sideways where the browser lets a page lock the
 * screen's orientation (a refusal changes nothing); an iPhone, which has no full screen for
 * elements, gets its own full-screen video instead.
 */
import { type RefObject, useEffect, useState } from "react";

/** `screen.orientation.lock` and iOS's video full screen, which the DOM typings leave out. */
type Lockable = ScreenOrientation & { lock?: (orientation: "landscape") => Promise<void> };
type IosVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void };

export function useFullscreen(frameRef: RefObject<HTMLElement | null>, videoRef?: RefObject<HTMLVideoElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [frameRef]);

  const toggleFullscreen = () => {
    // Leaving full screen also ends an orientation lock (the browser's rule).
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else enterFullscreen(frameRef.current, videoRef?.current ?? null);
  };

  return { fullscreen, toggleFullscreen };
}

/** Full screen for `frame`, turned to landscape where that is allowed; the video's own on an iPhone. */
export function enterFullscreen(frame: HTMLElement | null, video: HTMLVideoElement | null) {
  if (frame && typeof frame.requestFullscreen === "function") {
    frame
      .requestFullscreen()
      .then(() => (screen.orientation as Lockable | undefined)?.lock?.("landscape"))
      .catch(() => {});
    return;
  }
  (video as IosVideo | null)?.webkitEnterFullscreen?.();
}
