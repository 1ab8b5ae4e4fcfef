/** Full screen for the player's frame, and whether it is in full screen now (Esc leaves it too). */
import { type RefObject, useEffect, useState } from "react";

export function useFullscreen(frameRef: RefObject<HTMLElement | null>) {
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === frameRef.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [frameRef]);

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void frameRef.current?.requestFullscreen().catch(() => {});
  };

  return { fullscreen, toggleFullscreen };
}
