/**
 * Where the lesson starts and what is told about it: the resume position on first metadata, and
 * a progress report every 15 s while playing, on pause, at the end, when the page is hidden or
 * left (a keepalive request that outlives the page), and when the video goes away. The position
 * is also kept in this browser every 2 s while playing and with each report, so a reload whose
 * report is still on its way, or a crash that sends none, starts where the viewer was; viewers
 * without a report address keep it only here.
 */
import { type RefObject, useCallback, useEffect, useRef } from "react";
import {
  MAX_WATCHED_PER_REPORT,
  type ProgressInput,
  type ProgressResult,
  REPORT_INTERVAL_MS,
  resumePosition,
} from "../../../shared/contracts/learning";
import { AjaxError } from "../../../shared/ajax";
import { browserApi } from "../../lib/api";
import { readLocalEntry, startingPosition, writeLocalPosition } from "./player-storage";
import { WatchMeter } from "./watch-meter";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const learningContract = () => import("../../../shared/contracts/learning");

const LOCAL_SAVE_INTERVAL_MS = 2000;

export type ReportReason = "tick" | "pause" | "ended" | "leave";

export interface ProgressOptions {
  reportUrl: string | null;
  storageKey: string;
  speed: number;
  durationSeconds: number;
  serverPosition: number | null;
  /** When the server stored `serverPosition` (ISO); null: never. */
  serverSavedAt: string | null;
  startAt?: number;
  onProgress?: (result: ProgressResult) => void;
}

/** Network trouble, a busy server: the seconds are worth sending again with the next report. */
function worthRetrying(err: unknown): boolean {
  return !(err instanceof AjaxError) || err.statusCode === 429 || err.statusCode >= 500;
}

export function useProgressReporting(videoRef: RefObject<HTMLVideoElement | null>, options: ProgressOptions) {
  const meter = useRef(new WatchMeter()).current;
  const lastSentPosition = useRef(-1);
  const resumed = useRef(false);
  // The latest options for handlers registered once.
  const live = useRef(options);
  live.current = options;

  // The element is passed in when the component is going away (its ref is already cleared then).
  const report = useCallback(
    (reason: ReportReason, element?: HTMLVideoElement) => {
      const video = element ?? videoRef.current;
      if (!video) return;
      const { reportUrl: url, storageKey: key, speed: rate, durationSeconds: length } = live.current;
      const ended = reason === "ended";
      const position = Math.floor(ended ? length : video.currentTime);
      writeLocalPosition(key, position);
      if (!url) {
        meter.take();
        return;
      }
      const watched = meter.take(MAX_WATCHED_PER_REPORT);
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
      browserApi(url, { method: "PUT", body, schema: learningContract().then((m) => m.progressResultSchema) })
        .then((result) => live.current.onProgress?.(result))
        .catch((err: unknown) => {
          lastSentPosition.current = -1;
          if (worthRetrying(err)) meter.giveBack(watched);
        });
    },
    [videoRef, meter],
  );

  // Every 15 s while playing, and when the page is hidden or closed.
  useEffect(() => {
    const timer = window.setInterval(() => {
      const video = videoRef.current;
      if (video && !video.paused && !video.ended) report("tick");
    }, REPORT_INTERVAL_MS);
    // Kept in this browser more often: a crash sends no report at all.
    const keeper = window.setInterval(() => {
      const video = videoRef.current;
      if (video && resumed.current && !video.paused && !video.ended)
        writeLocalPosition(live.current.storageKey, video.currentTime);
    }, LOCAL_SAVE_INTERVAL_MS);
    const onHide = () => {
      if (document.visibilityState === "hidden") report("leave");
    };
    const onPageHide = () => report("leave");
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.clearInterval(timer);
      window.clearInterval(keeper);
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, [videoRef, report]);

  /** A new stream is being attached: the next metadata starts the lesson again. */
  const restart = useCallback(() => {
    resumed.current = false;
  }, []);

  /** The stream goes away: what was watched since the start is reported. */
  const leave = useCallback(
    (video: HTMLVideoElement) => {
      if (resumed.current) report("leave", video);
    },
    [report],
  );

  /** On the first metadata of a stream: the start position, or null when already started. */
  const resume = useCallback(
    (video: HTMLVideoElement): number | null => {
      if (resumed.current) return null;
      resumed.current = true;
      const { startAt: asked, serverPosition, serverSavedAt, storageKey: key, durationSeconds: length } = live.current;
      const server = serverPosition === null ? null : { position: serverPosition, savedAt: serverSavedAt };
      const start =
        asked !== undefined && asked >= 0 && asked < length
          ? Math.floor(asked)
          : resumePosition(startingPosition(server, readLocalEntry(key)), length);
      if (start > 0) video.currentTime = start;
      meter.jump(start);
      // Opening a lesson and leaving without watching reports nothing.
      lastSentPosition.current = start;
      return start;
    },
    [meter],
  );

  return { meter, report, restart, leave, resume };
}
