// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AjaxError } from "../../../shared/ajax";
import { type ProgressOptions, useProgressReporting } from "./useProgressReporting";

const api = vi.hoisted(() => ({ browserApi: vi.fn() }));
vi.mock("../../lib/api", () => api);

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const URL = "/api/learning/lessons/1/progress";
const video = { currentTime: 0, paused: true, ended: false };
const videoRef = { current: video as unknown as HTMLVideoElement };
let hook: ReturnType<typeof useProgressReporting>;

function Harness(options: ProgressOptions) {
  hook = useProgressReporting(videoRef, options);
  return null;
}

let container: HTMLElement;
let root: Root;
const options: ProgressOptions = {
  reportUrl: URL,
  storageKey: "lesson-1",
  speed: 1,
  durationSeconds: 300,
  serverPosition: 30,
  serverSavedAt: "2026-01-01T00:00:00.000Z",
};

/** Plays from where the video stands to `to`, as the video's time updates would. */
function playTo(to: number) {
  video.paused = false;
  for (let t = video.currentTime + 0.25; t <= to; t += 0.25) hook.meter.tick(t);
  video.currentTime = to;
}

const sent = () => api.browserApi.mock.calls.map(([, init]) => (init as { body: unknown }).body);

beforeEach(() => {
  vi.useFakeTimers();
  api.browserApi.mockReset().mockResolvedValue({ position: 0, watchedSeconds: 0, percent: 0 });
  Object.assign(video, { currentTime: 0, paused: true, ended: false });
  container = document.createElement("div");
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  vi.useRealTimers();
  localStorage.clear();
});

describe("useProgressReporting", () => {
  it("resumes, then reports every 15 s while playing: seconds watched, nothing when nothing changed", () => {
    act(() => root.render(<Harness {...options} />));
    expect(hook.resume(video as unknown as HTMLVideoElement)).toBe(30);
    expect(video.currentTime).toBe(30);

    act(() => vi.advanceTimersByTime(15_000));
    expect(sent(), "opened, not yet playing: nothing to say").toEqual([]);

    playTo(40);
    act(() => vi.advanceTimersByTime(15_000));
    expect(sent()).toEqual([{ position: 40, watched: 10, speed: 1 }]);

    act(() => vi.advanceTimersByTime(15_000));
    expect(sent(), "playing but stalled: no repeat").toHaveLength(1);

    playTo(45);
    video.paused = true;
    act(() => vi.advanceTimersByTime(15_000));
    expect(sent(), "paused: no periodic report").toHaveLength(1);
    hook.report("pause");
    hook.report("ended");
    expect(sent().slice(1)).toEqual([
      { position: 45, watched: 5, speed: 1 },
      { position: 300, watched: 0, speed: 1, ended: true },
    ]);
  });

  it("gives back the seconds of a report the server could not take, not of one it refused", async () => {
    act(() => root.render(<Harness {...options} />));
    hook.resume(video as unknown as HTMLVideoElement);
    api.browserApi.mockRejectedValueOnce(new AjaxError(503, "busy"));
    playTo(40);
    hook.report("pause");
    await act(async () => await Promise.resolve());
    api.browserApi.mockRejectedValueOnce(new AjaxError(400, "bad"));
    playTo(42);
    hook.report("pause");
    await act(async () => await Promise.resolve());
    playTo(43);
    hook.report("pause");
    expect(sent().map((body) => (body as { watched: number }).watched)).toEqual([10, 12, 1]);
  });

  it("keeps the position in this browser when there is nowhere to report", () => {
    act(() => root.render(<Harness {...options} reportUrl={null} serverPosition={null} />));
    hook.resume(video as unknown as HTMLVideoElement);
    playTo(12.6);
    hook.report("pause");
    expect(api.browserApi).not.toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem("mochi:player:position:lesson-1") ?? "{}")).toMatchObject({ position: 12 });
  });
});
