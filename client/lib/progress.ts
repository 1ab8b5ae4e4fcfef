/**
 * Navigation progress bar state (spec §4, reference §1): nothing for the first 200 ms, then
 * +2 % every 100 ms (about 5 s to 100 %), +45 per resolved page loader (+30 when the page also
 * fetches at component level), finish → 100 % → hidden 500 ms later, red after a failure.
 */
import { PROGRESS } from "../../shared/constants";

export interface ProgressState {
  percent: number;
  show: boolean;
  failed: boolean;
}

type Timers = Pick<typeof globalThis, "setTimeout" | "clearTimeout" | "setInterval" | "clearInterval">;

/** What a resolved page loader adds: 45, or 30 when the page also fetches at component level. */
export function loaderIncrement(page: { componentFetch?: boolean }): number {
  return page.componentFetch ? PROGRESS.increaseLoaderAndFetch : PROGRESS.increaseLoader;
}

export class ProgressBarState {
  private state: ProgressState = { percent: 0, show: false, failed: false };
  private listeners = new Set<() => void>();
  private throttle: ReturnType<typeof setTimeout> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private hider: ReturnType<typeof setTimeout> | undefined;
  private readonly step = 10_000 / Math.floor(PROGRESS.durationMs);

  constructor(private readonly timers: Timers = globalThis) {}

  get snapshot(): ProgressState {
    return this.state;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: Partial<ProgressState>) {
    this.state = { ...this.state, ...next };
    for (const l of this.listeners) l();
  }

  private clear() {
    this.timers.clearInterval(this.timer);
    this.timers.clearTimeout(this.throttle);
    this.timers.clearTimeout(this.hider);
    this.timer = this.throttle = this.hider = undefined;
  }

  start() {
    this.clear();
    this.set({ percent: 0, failed: false });
    this.throttle = this.timers.setTimeout(() => this.startTimer(), PROGRESS.throttleMs);
  }

  private startTimer() {
    this.set({ show: true });
    this.timer = this.timers.setInterval(() => this.increase(this.step), PROGRESS.tickMs);
  }

  increase(n: number) {
    this.set({ percent: Math.min(100, Math.floor(this.state.percent + n)) });
  }

  fail() {
    this.set({ failed: true });
  }

  finish() {
    this.set({ percent: 100 });
    this.hide();
  }

  private hide() {
    this.clear();
    this.hider = this.timers.setTimeout(() => this.set({ show: false, percent: 0 }), PROGRESS.hideDelayMs);
  }
}

export const progressBar = new ProgressBarState();
