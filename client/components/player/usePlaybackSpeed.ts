/**
 * The playback speed: the one the server remembers for a signed-in viewer, or the one kept in
 * this browser; applied to the video, and saved where it came from when the viewer changes it.
 */
import { type RefObject, useEffect, useState } from "react";
import { DEFAULT_SPEED } from "../../../shared/contracts/learning";
import { browserApi } from "../../lib/api";
import { readLocalSpeed, snapSpeed, writeLocalSpeed } from "./player-storage";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const learningContract = () => import("../../../shared/contracts/learning");

export function usePlaybackSpeed(videoRef: RefObject<HTMLVideoElement | null>, serverSpeed: number | null) {
  const [speed, setSpeed] = useState(serverSpeed ?? DEFAULT_SPEED);
  const [menuOpen, setMenuOpen] = useState(false);

  // A browser-kept speed is only known in the browser: read it after hydration.
  useEffect(() => {
    if (serverSpeed === null) setSpeed(readLocalSpeed());
  }, [serverSpeed]);

  useEffect(() => {
    const video = videoRef.current;
    if (video) applyRate(video, speed);
  }, [videoRef, speed]);

  /** The viewer picked a speed from the menu. */
  const choose = (next: number) => {
    setSpeed(next);
    setMenuOpen(false);
    if (serverSpeed === null) writeLocalSpeed(next);
    else
      browserApi("/api/learning/speed", {
        method: "PUT",
        body: { speed: next },
        schema: learningContract().then((m) => m.speedResultSchema),
      }).catch(() => {});
  };

  /** The video's rate changed by other means (the browser's own controls): follow known speeds. */
  const followVideo = (rate: number | undefined) => {
    if (rate !== undefined && snapSpeed(rate) === rate && rate !== speed) setSpeed(rate);
  };

  return {
    speed,
    choose,
    followVideo,
    /** A new stream resets the rate: set it again. */
    apply: (video: HTMLVideoElement) => applyRate(video, speed),
    menuOpen,
    toggleMenu: () => setMenuOpen((open) => !open),
    closeMenu: () => setMenuOpen(false),
  };
}

function applyRate(video: HTMLVideoElement, speed: number) {
  video.defaultPlaybackRate = speed;
  video.playbackRate = speed;
}
