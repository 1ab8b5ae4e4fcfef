import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loaderIncrement, ProgressBarState } from "./progress";

describe("navigation progress bar", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("stays hidden for the first 200 ms and never shows for a fast navigation", () => {
    const bar = new ProgressBarState();
    bar.start();
    vi.advanceTimersByTime(199);
    expect(bar.snapshot.show).toBe(false);
    bar.finish();
    vi.advanceTimersByTime(1000);
    expect(bar.snapshot.show).toBe(false);
  });

  it("climbs 2 % per 100 ms after the throttle, reaching 100 % after about 5 s", () => {
    const bar = new ProgressBarState();
    bar.start();
    vi.advanceTimersByTime(200);
    expect(bar.snapshot.show).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(bar.snapshot.percent).toBe(20);
    vi.advanceTimersByTime(4000);
    expect(bar.snapshot.percent).toBe(100);
    vi.advanceTimersByTime(1000);
    expect(bar.snapshot.percent).toBe(100);
  });

  it("adds loader increments and hides 500 ms after finishing", () => {
    const bar = new ProgressBarState();
    bar.start();
    vi.advanceTimersByTime(300);
    expect(bar.snapshot.percent).toBe(2);
    bar.increase(45);
    expect(bar.snapshot.percent).toBe(47);
    bar.finish();
    expect(bar.snapshot.percent).toBe(100);
    vi.advanceTimersByTime(499);
    expect(bar.snapshot.show).toBe(true);
    vi.advanceTimersByTime(1);
    expect(bar.snapshot.show).toBe(false);
    expect(bar.snapshot.percent).toBe(0);
  });

  it("turns to the failed colour on error, and a new start clears it", () => {
    const bar = new ProgressBarState();
    bar.start();
    bar.fail();
    expect(bar.snapshot.failed).toBe(true);
    bar.start();
    expect(bar.snapshot.failed).toBe(false);
  });
});

describe("loader increments", () => {
  it("is 45 per page loader, 30 when the page also fetches at component level", () => {
    expect(loaderIncrement({})).toBe(45);
    expect(loaderIncrement({ componentFetch: true })).toBe(30);
  });
});
