// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { formatCountdown } from "../../shared/format";
import { type ServerClock, useCountdown } from "./countdown";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Left({ until, clock, onEnd }: { until: string; clock: ServerClock; onEnd?: () => void }) {
  return <span>{formatCountdown(useCountdown(until, clock, onEnd))}</span>;
}

let container: HTMLElement;
let root: Root;
beforeEach(() => {
  vi.useFakeTimers();
  container = document.createElement("div");
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  vi.useRealTimers();
});

describe("useCountdown", () => {
  it("renders the time left on the server's clock, then ticks on the browser's clock corrected by the skew", () => {
    const serverNow = "2026-11-22T01:00:00Z";
    const until = "2026-11-22T01:30:00Z";
    // The server renders from its own time of answering.
    expect(renderToString(<Left until={until} clock={serverNow} />)).toContain("30:00");
    // This browser's clock is 10 minutes fast: the countdown still starts at 30:00.
    vi.setSystemTime(new Date("2026-11-22T01:10:00Z"));
    act(() => root.render(<Left until={until} clock={serverNow} />));
    expect(container.textContent).toBe("30:00");
    act(() => vi.advanceTimersByTime(61_000));
    expect(container.textContent).toBe("28:59");
  });

  it("reads a clock function, stops at zero and says so once", () => {
    let now = Date.parse("2026-11-22T01:00:00Z");
    const clock = () => now;
    const onEnd = vi.fn();
    act(() => root.render(<Left until="2026-11-22T01:00:02Z" clock={clock} onEnd={onEnd} />));
    expect(container.textContent).toBe("00:02");
    for (let i = 0; i < 4; i++) {
      now += 1000;
      act(() => vi.advanceTimersByTime(1000));
    }
    expect(container.textContent).toBe("00:00");
    expect(onEnd).toHaveBeenCalledTimes(1);
  });
});
